/**
 * Issue 2: paging through 100k keys with limit 1000 (a full walk: 100 pages, following cursors).
 * Target: ≥ 50× @miniflare/r2 v2 (keys/s).
 *
 * Filling the bucket is not timed. workerd lists 2,000 keys (2 pages): filling 100k keys through
 * its proxy alone would take minutes.
 */
import { CONTENDER_IDS, LABELS, withContender, type BenchBucket, type ContenderId } from './contenders.js';
import { median, opsPerSec, timeMs } from './stats.js';
import { fmtMs, fmtRate, fmtRatio, judge, printTable, type TargetResult } from './table.js';

const LIMIT = 1000;
const PLAN: Record<ContenderId, { n: number; runs: number }> = {
  double: { n: 100_000, runs: 5 },
  v2: { n: 100_000, runs: 1 },
  workerd: { n: 2_000, runs: 3 },
};

async function fill(bucket: BenchBucket, n: number): Promise<void> {
  // Batches of concurrent puts: order does not matter for the index, and workerd is much faster so.
  const BATCH = 100;
  for (let i = 0; i < n; i += BATCH) {
    const batch: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(n, i + BATCH); j++) batch.push(bucket.put(`list/${String(j).padStart(7, '0')}`, 'x'));
    await Promise.all(batch);
  }
}

async function walk(bucket: BenchBucket): Promise<{ keys: number; pages: number }> {
  let cursor: string | undefined;
  let keys = 0;
  let pages = 0;
  for (;;) {
    const page = await bucket.list(cursor === undefined ? { limit: LIMIT } : { limit: LIMIT, cursor });
    keys += page.objects.length;
    pages++;
    if (!page.truncated) return { keys, pages };
    cursor = page.cursor;
  }
}

export async function benchListing(results: TargetResult[]): Promise<void> {
  const measured = {} as Record<ContenderId, { ms: number; pages: number; rate: number }>;
  for (const id of CONTENDER_IDS) {
    const { n, runs } = PLAN[id];
    measured[id] = await withContender(id, async ({ bucket }) => {
      await fill(bucket, n);
      let pages = 0;
      const times: number[] = [];
      // One untimed walk warms up the JIT (and workerd's caches) before the timed ones; not for v2,
      // whose walk of 100k keys takes most of a minute (each page scans and sorts every key).
      if (id !== 'v2') await walk(bucket);
      for (let r = 0; r < runs; r++) {
        times.push(
          await timeMs(async () => {
            const w = await walk(bucket);
            if (w.keys !== n) throw new Error(`${id}: listed ${w.keys} keys, expected ${n}`);
            pages = w.pages;
          }),
        );
      }
      const ms = median(times);
      return { ms, pages, rate: opsPerSec(n, ms) };
    });
  }
  const rows = CONTENDER_IDS.map((id) => {
    const m = measured[id];
    const ratio = measured.double.rate / m.rate;
    const target = id === 'v2' ? judge(results, 'list 100k keys, limit 1000', '≥ 50× @miniflare/r2 v2', ratio, 50) : '';
    return [
      LABELS[id],
      `${PLAN[id].n} keys / ${m.pages} pages`,
      fmtMs(m.ms),
      fmtRate(m.rate, 'keys/s'),
      id === 'double' ? '' : fmtRatio(ratio),
      target,
    ];
  });
  printTable(
    `paging through all keys, limit ${LIMIT}`,
    ['contender', 'n', 'time', 'rate', 'double/peer', 'target'],
    rows,
    [
      `workerd lists ${PLAN.workerd.n} keys (filling 100k through its proxy takes minutes); ratios compare keys/s.`,
      `median of ${PLAN.double.runs}/${PLAN.workerd.runs} full walks after a warm-up walk; v2: one walk, no warm-up (it takes most of a minute).`,
    ],
  );
}
