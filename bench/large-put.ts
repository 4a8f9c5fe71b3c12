/**
 * Issue 2: put of one 64 MiB object. Target: ≥ 0.8× raw md5 throughput (node:crypto's md5 over the
 * same buffer, measured here), because R2 must md5 every byte it stores and nothing else should cost
 * comparable time. Also compared with both peers (no target).
 */
import { createHash, randomFillSync } from 'node:crypto';
import { CONTENDER_IDS, LABELS, withContender, type ContenderId } from './contenders.js';
import { gc, mbPerSec, medianMs, MiB, timeMs } from './stats.js';
import { fmtMs, fmtRate, fmtRatio, judge, printTable, type TargetResult } from './table.js';

const SIZE = 64 * MiB;
const RUNS: Record<ContenderId, number> = { double: 5, v2: 3, workerd: 1 };
/** workerd copies the body over HTTP into its own process; beyond this it is reported as skipped. */
const WORKERD_BUDGET_MS = 60_000;

export async function benchLargePut(results: TargetResult[]): Promise<void> {
  const data = randomFillSync(new Uint8Array(SIZE));

  createHash('md5').update(data).digest(); // warm-up
  const md5Ms = await medianMs(5, async () => createHash('md5').update(data).digest());

  const measured = {} as Record<ContenderId, number | string>;
  for (const id of CONTENDER_IDS) {
    gc();
    measured[id] = await withContender(id, async ({ bucket }) => {
      if (id === 'workerd') {
        // One run only: it takes seconds. A run over budget is reported, not waited on again.
        const ms = await timeMs(() => bucket.put('big', data));
        return ms > WORKERD_BUDGET_MS ? `skipped: one put took ${fmtMs(ms)}` : ms;
      }
      await bucket.put('big', data); // warm-up
      return medianMs(RUNS[id], () => bucket.put('big', data));
    });
  }

  const md5Rate = mbPerSec(SIZE, md5Ms);
  const rows: string[][] = [['raw md5 (node:crypto)', '1', fmtMs(md5Ms), fmtRate(md5Rate, 'MiB/s'), '', '']];
  const mine = measured.double as number;
  for (const id of CONTENDER_IDS) {
    const m = measured[id];
    if (typeof m === 'string') {
      rows.push([LABELS[id], '1', '-', '-', '-', m]);
      continue;
    }
    if (id === 'double') {
      const ratio = md5Ms / m;
      rows.push([LABELS[id], String(RUNS[id]), fmtMs(m), fmtRate(mbPerSec(SIZE, m), 'MiB/s'), `${fmtRatio(ratio)} of md5`, judge(results, 'put 64 MiB', '≥ 0.8× raw md5 throughput', ratio, 0.8)]);
    } else {
      rows.push([LABELS[id], String(RUNS[id]), fmtMs(m), fmtRate(mbPerSec(SIZE, m), 'MiB/s'), fmtRatio(m / mine), '']);
    }
  }
  printTable('put of one 64 MiB object (Uint8Array)', ['contender', 'runs', 'time (median)', 'throughput', 'double/peer', 'target'], rows, [
    'the double is compared with raw md5 over the same buffer; peers are compared with the double (no target).',
    'workerd: measured once (seconds per put, body copied into the workerd process over HTTP).',
  ]);
}
