/**
 * createEnv and queues: `[[queues.producers]]` bound as Queue doubles, `[[queues.consumers]]` read
 * with their settings, the Worker's `queue` handler attached with the same env, wrangler's checks,
 * and an account's queues shared between Workers.
 */
import { describe, expect, it } from 'vitest';
import { Account, Bucket, ManualClock, createEnv, type WranglerConfig } from 'edge-doubles';
import { Queue, type MessageBatch } from 'edge-doubles/queue';

const quiet = { onWarning: () => {} };

const config: WranglerConfig = {
  compatibility_date: '2024-01-01',
  r2_buckets: [{ binding: 'FILES', bucket_name: 'files' }],
  queues: {
    producers: [
      { binding: 'JOBS', queue: 'jobs' },
      { binding: 'LATER', queue: 'later', delivery_delay: 30 },
    ],
    consumers: [
      {
        queue: 'jobs',
        max_batch_size: 2,
        max_batch_timeout: 1,
        max_retries: 1,
        retry_delay: 7,
        dead_letter_queue: 'jobs-dlq',
        max_concurrency: 4,
      },
    ],
  },
};

interface Env {
  FILES: Bucket;
  JOBS: Queue<{ key: string }>;
  LATER: Queue;
}

describe('createEnv with queues', () => {
  it('binds each producer as a Queue (constructor name WorkerQueue) and reads the consumers with their settings', () => {
    const { env, queues, unfaked } = createEnv<Env>(config, quiet);
    expect(env.JOBS).toBeInstanceOf(Queue);
    expect(env.JOBS.constructor.name).toBe('WorkerQueue');
    expect(unfaked).toEqual([]);
    expect([...queues.keys()].sort()).toEqual(['jobs', 'jobs-dlq', 'later']);
    expect(queues.get('jobs')!.consume(() => {}).consumerSettings).toEqual({
      maxBatchSize: 2,
      maxBatchTimeout: 1,
      maxRetries: 1,
      retryDelay: 7,
      deadLetterQueue: 'jobs-dlq',
    });
  });

  it("attaches the Worker's queue handler with the same env; the producer's compatibility date picks v8", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const seen: { keys: unknown[]; sameEnv: boolean }[] = [];
    const worker = {
      async queue(batch: MessageBatch<{ key: string; at: Date }>, env: Env) {
        for (const m of batch.messages) await env.FILES.put(`done/${m.body.key}`, String(m.body.at instanceof Date));
        seen.push({ keys: batch.messages.map((m) => m.body.key), sameEnv: env === created.env });
      },
    };
    const created = createEnv<Env>(config, { ...quiet, worker, clock });
    await created.env.JOBS.send({ key: 'a', at: new Date(0) } as never);
    await created.queues.get('jobs')!.drain();
    expect(seen).toEqual([{ keys: ['a'], sameEnv: true }]);
    expect(await (await created.env.FILES.get('done/a'))!.text()).toBe('true'); // v8 before 2024-03-18: a Date stays one
  });

  it("the producer's delivery_delay holds messages on the clock", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const { env, queues } = createEnv<Env>(config, { ...quiet, clock });
    await env.LATER.send('x');
    expect(queues.get('later')!.pending[0]!.visibleAt).toEqual(new Date(Date.UTC(2026, 0, 1) + 30_000));
  });

  it("a Worker without a queue handler fails each delivery with workerd's error", async () => {
    const created = createEnv<Env>(config, { ...quiet, worker: {}, log: true });
    await created.env.JOBS.send({ key: 'a' });
    const jobs = created.queues.get('jobs')!;
    await jobs.drain();
    expect(jobs.log.filter({ op: 'deliver' })[0]).toMatchObject({
      error: 'Error: Handler does not export a queue() function.',
    });
  });

  it("refuses what wrangler refuses, with wrangler's text", () => {
    expect(() => createEnv({ queues: { producers: [{ binding: 'Q' }] } } as never, quiet)).toThrow(
      '"queues.producers[0]" bindings should have a string "queue" field but got {"binding":"Q"}.',
    );
    expect(() => createEnv({ queues: { consumers: [{ queue: 'q', max_retries: '3' }] } } as never, quiet)).toThrow(
      '"queues.consumers[0]" should, optionally, have a number "max_retries" field but got {"queue":"q","max_retries":"3"}.',
    );
    expect(() => createEnv({ queues: { consumers: [{ queue: 'q', type: 'http_pull' }] } } as never, quiet)).toThrow(
      '"queues.consumers[0].type" has an invalid value "http_pull". Only "worker" consumers can be configured in your Wrangler configuration.',
    );
    expect(() => createEnv({ queues: [] } as never, quiet)).toThrow(
      'The field "queues" should be an object but got [].',
    );
  });

  it("an account's queues: two Workers' bindings of one queue name are one queue", async () => {
    const account = new Account();
    const producer = createEnv<Env>(
      { queues: { producers: [{ binding: 'JOBS', queue: 'jobs' }] } },
      { ...quiet, account },
    );
    const got: unknown[] = [];
    createEnv(
      { queues: { consumers: [{ queue: 'jobs' }] } },
      { ...quiet, account, worker: { queue: (b: MessageBatch) => void got.push(...b.messages.map((m) => m.body)) } },
    );
    await producer.env.JOBS.send({ key: 'shared' });
    await producer.queues.get('jobs')!.drain();
    expect(got).toEqual([{ key: 'shared' }]);
  });
});
