/**
 * Issue 2: put / get / head of 1 KiB objects. Target: ≥ 5× @miniflare/r2 v2 (ops/s).
 *
 * Operations are awaited one after another, as a test awaits them, so the numbers are per-call
 * latency turned into ops/s. `get` includes reading the body (`arrayBuffer()`), because a get whose
 * body is never read is not what tests do. Each contender gets a count that keeps its run to about
 * a second; workerd (an HTTP round trip per call) gets 200.
 */
import { CONTENDER_IDS, LABELS, withContender, type BenchBucket, type ContenderId } from './contenders.js';
import { KiB, median, opsPerSec, timeSequential } from './stats.js';
import { fmtMs, fmtRate, fmtRatio, judge, printTable, type TargetResult } from './table.js';

const OPS = ['put', 'get', 'head'] as const;
type Op = (typeof OPS)[number];

const PLAN: Record<ContenderId, { n: number; warmup: number; runs: number }> = {
  double: { n: 20_000, warmup: 20_000, runs: 5 },
  v2: { n: 5_000, warmup: 5_000, runs: 5 },
  workerd: { n: 200, warmup: 50, runs: 3 },
};

const VALUE = new Uint8Array(KiB).fill(0x61);

async function runOnce(bucket: BenchBucket, keys: readonly string[], n: number): Promise<Record<Op, number>> {
  const put = await timeSequential(n, (i) => bucket.put(keys[i]!, VALUE));
  const get = await timeSequential(n, async (i) => {
    const o = await bucket.get(keys[i]!);
    if (!o || (await o.arrayBuffer()).byteLength !== KiB) throw new Error(`get ${keys[i]} returned the wrong body`);
  });
  const head = await timeSequential(n, (i) => bucket.head(keys[i]!));
  return { put, get, head };
}

export async function benchSmallOps(results: TargetResult[]): Promise<void> {
  const measured = {} as Record<ContenderId, Record<Op, { ms: number; ops: number }>>;
  for (const id of CONTENDER_IDS) {
    const { n, warmup, runs } = PLAN[id];
    const keys = Array.from({ length: n }, (_, i) => `small/${String(i).padStart(6, '0')}`);
    measured[id] = await withContender(id, async ({ bucket }) => {
      await runOnce(bucket, keys, warmup);
      const all: Record<Op, number>[] = [];
      for (let r = 0; r < runs; r++) all.push(await runOnce(bucket, keys, n));
      const out = {} as Record<Op, { ms: number; ops: number }>;
      for (const op of OPS) {
        const ms = median(all.map((a) => a[op]));
        out[op] = { ms, ops: opsPerSec(n, ms) };
      }
      return out;
    });
  }

  for (const op of OPS) {
    const mine = measured.double[op].ops;
    const rows = CONTENDER_IDS.map((id) => {
      const m = measured[id][op];
      const ratio = mine / m.ops;
      const target = id === 'v2' ? judge(results, `${op} 1 KiB`, '≥ 5× @miniflare/r2 v2', ratio, 5) : '';
      return [LABELS[id], String(PLAN[id].n), fmtMs(m.ms), fmtRate(m.ops, 'ops/s'), id === 'double' ? '' : fmtRatio(ratio), target];
    });
    printTable(`${op} of 1 KiB objects (sequential awaits, median of runs)`, ['contender', 'n', 'time', 'rate', 'double/peer', 'target'], rows, [
      `n per contender differs (workerd: ${PLAN.workerd.n}, it manages hundreds of ops/s); ratios compare ops/s.`,
      `median of ${PLAN.double.runs}/${PLAN.v2.runs}/${PLAN.workerd.runs} runs after a warm-up run.`,
    ]);
  }
}
