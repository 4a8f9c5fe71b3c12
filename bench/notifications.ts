/**
 * Issue 19: a put that triggers an R2 event notification costs at most 1.3× a put that does not.
 * The same bucket (a Worker's binding from `createEnv(config, { api })`), 1 KiB objects, with and
 * without its object-create rule into queue `events`; runs alternate so load hits both alike.
 *
 * Judged: a queue with no consumer (the message waits; emptied between runs, untimed). Shown, not
 * judged: a no-op consumer drained after the timed puts (each message then also pays the queue's
 * scheduling, as a Worker's own send does), and the same with the drain timed too (the notified put
 * then also pays the delivery: the body's JSON, its etag's md5, the batch, the ack).
 */
import { CloudflareApi, createEnv, type Bucket } from '../lib/index.js';
import { bucketLayer } from '../lib/bucket/internal.js';
import type { Queue } from '../lib/queue.js';
import { median, timeMs } from './stats.js';
import { fmtMs, fmtRate, fmtRatio, printTable, type TargetResult } from './table.js';

const PUTS = 5_000;
const RUNS = 21;
const TARGET = 1.3;

interface Setup {
  bucket: Bucket;
  queue: Queue;
  /** Turns the bucket's rule on or off (the same rule value each time). */
  notify(on: boolean): void;
}

function setup(consumer: boolean): Setup {
  const api = new CloudflareApi({ buckets: ['media'] });
  const config = {
    compatibility_date: '2026-01-01',
    r2_buckets: [{ binding: 'MEDIA', bucket_name: 'media' }],
    queues: {
      producers: [{ binding: 'EVENTS', queue: 'events' }],
      ...(consumer ? { consumers: [{ queue: 'events', max_batch_size: 100, max_batch_timeout: 0 }] } : {}),
    },
  };
  const worker = consumer ? { queue() {} } : undefined;
  const { env, queues } = createEnv<{ MEDIA: Bucket }>(config, {
    api,
    onWarning: () => {},
    ...(worker ? { worker } : {}),
  });
  api.addEventNotification('media', { queue: 'events', eventTypes: ['object-create'] });
  const layerConfig = bucketLayer(env.MEDIA)!.config;
  const rules = layerConfig.notifications;
  return {
    bucket: env.MEDIA,
    queue: queues.get('events')!,
    notify: (on) => void (layerConfig.notifications = on ? rules : []),
  };
}

const body = new Uint8Array(1024).fill(7);

type Drain = 'none' | 'untimed' | 'timed';

async function run(s: Setup, notified: boolean, drain: Drain): Promise<number> {
  s.notify(notified);
  const ms = await timeMs(async () => {
    for (let i = 0; i < PUTS; i++) await s.bucket.put(`uploads/${i % 500}.bin`, body);
    if (drain === 'timed') await s.queue.drain();
  });
  if (drain === 'untimed') await s.queue.drain();
  const waiting = s.queue.pending.length;
  const expected = notified && drain === 'none' ? PUTS : 0;
  if (waiting !== expected) throw new Error(`bench: ${waiting} messages waiting, expected ${expected}`);
  s.queue.reset();
  return ms;
}

/**
 * Medians of each, and the median of the ratios of back-to-back pairs (in alternating order): the
 * machine's load drifts between pairs more than within one, so pairs compare like with like.
 */
async function compare(s: Setup, drain: Drain): Promise<{ plain: number; notified: number; ratio: number }> {
  for (let i = 0; i < 3; i++) {
    await run(s, false, drain);
    await run(s, true, drain);
  }
  const plain: number[] = [];
  const notified: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let p: number;
    let n: number;
    if (r % 2 === 0) {
      p = await run(s, false, drain);
      n = await run(s, true, drain);
    } else {
      n = await run(s, true, drain);
      p = await run(s, false, drain);
    }
    plain.push(p);
    notified.push(n);
    ratios.push(n / p);
  }
  return { plain: median(plain), notified: median(notified), ratio: median(ratios) };
}

export async function benchNotifications(results: TargetResult[]): Promise<void> {
  const rows: string[][] = [];
  const cases = [
    ['queue without a consumer', 'none', true],
    ['no-op consumer (drained after)', 'untimed', false],
    ['no-op consumer, drain timed too', 'timed', false],
  ] as const;
  for (const [label, drain, judged] of cases) {
    const { plain, notified, ratio } = await compare(setup(drain !== 'none'), drain);
    const pass = ratio <= TARGET;
    if (judged)
      results.push({
        case: `notified put (${label})`,
        target: `≤ ${TARGET}× a put without a rule`,
        measured: fmtRatio(ratio),
        pass,
      });
    rows.push([`${label}: no rule`, fmtMs(plain), fmtRate((PUTS * 1000) / plain, 'put/s'), '', '']);
    rows.push([
      `${label}: object-create rule`,
      fmtMs(notified),
      fmtRate((PUTS * 1000) / notified, 'put/s'),
      fmtRatio(ratio),
      judged ? `≤ ${TARGET}× ${pass ? 'PASS' : 'MISS'}` : drain === 'timed' ? '(delivery included)' : '(not judged)',
    ]);
  }
  printTable(
    `R2 event notifications: ${PUTS.toLocaleString('en')} puts of 1 KiB through the binding (median of ${RUNS} pairs)`,
    ['', 'time', 'rate', 'cost ×', 'target'],
    rows,
    [
      "The same bucket with its rule on and off, in back-to-back pairs after a warm-up (cost × = the median of the pairs' ratios); the queue emptied between runs (untimed).",
    ],
  );
}
