/**
 * The jobs Worker inside workerd with its queue swapped for a double (its bucket too, but for one
 * group), tested as workers-sdk's Vitest Queues example tests it: a POST through `exports.default.fetch()` sends a
 * job and is answered, the test reads the answer, then polls until the Worker's `queue` handler has
 * written the result. The send happens inside that request, which is over when the batch goes out
 * (`max_batch_timeout` 1 s, real time) and no later queue call comes: docs/queues.md says how the
 * double still delivers it. On a ManualClock or fake timers, the test moves time itself.
 */
import { env, exports } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, Queue, createEnv, parseWranglerConfig, useDoubles } from 'edge-doubles';
import worker, { type Env, type Job } from './worker.js';
import wranglerToml from './wrangler.toml?raw';

const config = parseWranglerConfig(wranglerToml, 'wrangler.toml');

const self = (path: string, init?: RequestInit) => exports.default.fetch(`https://jobs.example${path}`, init);

/** Sends a job through the Worker and reads its answer: the request is over when this returns. */
async function post(key: string, value: string) {
  const response = await self(`/${key}`, { method: 'POST', body: value });
  expect(response.status).toBe(202);
  expect(await response.text()).toBe('Accepted');
}

/** Polls the Worker until the job's result is there (vi.waitUntil runs on real timers). */
const result = (key: string) =>
  vi.waitUntil(
    async () => {
      const got = await self(`/${key}`);
      return got.ok ? await got.text() : undefined;
    },
    { timeout: 3_000, interval: 20 },
  );

describe('on real time', () => {
  // The Worker's `queue` handler consumes `jobs` on the double, with the doubles' env.
  beforeEach(() => useDoubles(env, createEnv(config, { worker }).env));

  it('a job sent while serving a request is done after the response, with no later queue call', async () => {
    expect(env.JOBS).toBeInstanceOf(Queue);
    await post('greeting', 'hello');
    expect(await result('greeting')).toBe('HELLO');
  });

  it('three requests each send a job: one batch after the timeout does them all', async () => {
    for (const key of ['a', 'b', 'c']) await post(key, `job ${key}`);
    expect([await result('a'), await result('b'), await result('c')]).toEqual(['JOB A', 'JOB B', 'JOB C']);
  });
});

describe("a queue double beside the plugin's own bucket", () => {
  // Only the queue is swapped: the consumer writes to Miniflare's R2 bucket, and takes a while first
  // (workerd's own timer). Both are I/O of the request that sent the job, kept until they are done.
  const slowly: typeof worker.queue = async (batch, jobsEnv) => {
    await (globalThis as unknown as { scheduler: { wait(ms: number): Promise<void> } }).scheduler.wait(200);
    await worker.queue(batch, jobsEnv);
  };
  beforeEach(() => {
    const { JOBS } = createEnv<{ JOBS: Queue<Job> }>(config).env;
    JOBS.consume(slowly, { env: env as unknown as Env }); // wrangler.toml's consumer settings, the plugin's env
    return useDoubles(env, { JOBS });
  });

  it('a job sent while serving a request is written to the real bucket after the response', async () => {
    expect((env.RESULTS as object).constructor.name).toBe('R2Bucket');
    await post('real', 'into r2');
    expect(await result('real')).toBe('INTO R2');
  });
});

describe('on a ManualClock', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  beforeEach(() => useDoubles(env, createEnv(config, { worker, clock }).env));

  it('advance() delivers a job sent during a request that is over', async () => {
    await post('later', 'on the clock');
    expect((await self('/later')).status).toBe(404); // the batch timeout has not passed
    clock.advance(1_000); // max_batch_timeout
    expect(await result('later')).toBe('ON THE CLOCK');
  });
});

describe('on fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    return useDoubles(env, createEnv(config, { worker }).env);
  });
  afterEach(() => void vi.useRealTimers());

  it('advancing them delivers a job sent during a request that is over', async () => {
    await post('faked', 'fake time');
    await vi.advanceTimersByTimeAsync(1_000); // max_batch_timeout
    expect(await result('faked')).toBe('FAKE TIME');
  });
});
