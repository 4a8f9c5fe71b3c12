/**
 * Issue 18: a lifecycle pass over a bucket of 100,000 objects must cost no more than one list of the
 * objects it touches. The pass runs lazily, at the first operation once an action falls due (or the
 * rules changed: lib/bucket/layer.ts `#tick`); timed here as that one operation (a `head`), against a
 * full walk of the same 100,000 keys through the binding's `list` (pages of 1000, following cursors).
 *
 * Three passes: rules changed but nothing due (the pass reads every object and finds the next due
 * time), every object moved to InfrequentAccess, every object deleted. The bucket comes back for
 * each run through `restore` (O(1)); filling it is not timed. Ratio = list ÷ pass (≥ 1 meets it).
 */
import { Bucket } from '../lib/bucket/index.js';
import { bucketLayer } from '../lib/bucket/internal.js';
import { lifecycleRules } from '../lib/bucket/lifecycle.js';
import { ManualClock } from '../lib/clock.js';
import { median, timeMs } from './stats.js';
import { fmtMs, fmtRatio, judge, printTable, type TargetResult } from './table.js';

const N = 100_000;
const RUNS = 5;
const DAY = 86_400_000;
const START = Date.UTC(2030, 0, 1);

const rule = (action: 'delete' | 'ia') => [
  action === 'delete'
    ? { id: 'x', enabled: true, conditions: {}, deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } } }
    : { id: 'x', enabled: true, conditions: {}, storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass: 'InfrequentAccess' }] },
];

export async function benchLifecycle(results: TargetResult[]): Promise<void> {
  const clock = new ManualClock(START);
  const bucket = new Bucket({ clock });
  const config = bucketLayer(bucket)!.config;
  for (let i = 0; i < N; i++) await bucket.put(`obj/${String(i).padStart(7, '0')}`, 'x');
  const filled = bucket.snapshot();

  const walk = async () => {
    let cursor: string | undefined;
    let n = 0;
    for (;;) {
      const page = await bucket.list(cursor === undefined ? { limit: 1000 } : { limit: 1000, cursor });
      n += page.objects.length;
      if (!page.truncated) break;
      cursor = page.cursor;
    }
    if (n !== N) throw new Error(`listed ${n}, expected ${N}`);
  };
  await walk(); // warm-up
  const listTimes: number[] = [];
  for (let r = 0; r < RUNS; r++) listTimes.push(await timeMs(walk));
  const listMs = median(listTimes);

  /** Median ms of the operation that runs a pass, after `arrange` made one due. */
  const pass = async (arrange: () => void, check: () => Promise<void>) => {
    const times: number[] = [];
    for (let r = 0; r <= RUNS; r++) {
      bucket.restore(filled);
      clock.set(START);
      arrange();
      const ms = await timeMs(() => bucket.head('obj/0000000'));
      await check();
      if (r > 0) times.push(ms); // the first run warms up
    }
    return median(times);
  };
  const nothingDue = await pass(
    () => (config.lifecycle = lifecycleRules(rule('delete'))),
    async () => {
      if (!(await bucket.head('obj/0099999'))) throw new Error('deleted too early');
    },
  );
  const transition = await pass(
    () => {
      config.lifecycle = lifecycleRules(rule('ia'));
      void bucket.head('obj/0000001'); // the pass after the rule change: nothing due yet
      clock.advance(DAY);
    },
    async () => {
      if ((await bucket.head('obj/0099999'))?.storageClass !== 'InfrequentAccess') throw new Error('not transitioned');
    },
  );
  const deletion = await pass(
    () => {
      config.lifecycle = lifecycleRules(rule('delete'));
      void bucket.head('obj/0000001');
      clock.advance(DAY);
    },
    async () => {
      if ((await bucket.list({ limit: 1 })).objects.length !== 0) throw new Error('not deleted');
    },
  );

  const rows = [
    ['list of all 100k (binding, 100 pages)', fmtMs(listMs), '', ''],
    ['pass: rules changed, nothing due', fmtMs(nothingDue), fmtRatio(listMs / nothingDue), judge(results, 'lifecycle pass (nothing due)', '≤ one list of 100k', listMs / nothingDue, 1)],
    ['pass: 100k → InfrequentAccess', fmtMs(transition), fmtRatio(listMs / transition), judge(results, 'lifecycle pass (100k transitions)', '≤ one list of 100k', listMs / transition, 1)],
    ['pass: 100k deleted', fmtMs(deletion), fmtRatio(listMs / deletion), judge(results, 'lifecycle pass (100k deletions)', '≤ one list of 100k', listMs / deletion, 1)],
  ];
  printTable('Lifecycle pass over 100,000 objects (memory)', ['', 'median', 'list ÷ pass', 'target'], rows, [
    `${RUNS} runs each, after one warm-up; the bucket restored (O(1)) before each pass.`,
  ]);
}
