/**
 * examples/worker-in-workerd/queue's jobs Worker in plain Node, on the env of env.ts: a POST sends a
 * job and is answered; the queue's consumer (the Worker's `queue` handler: in this process on the
 * doubles, inside workerd on Miniflare) writes the result, which the test polls for.
 */
import { afterAll, expect, it, vi } from 'vitest';
import worker from '../../examples/worker-in-workerd/queue/worker.js';
import { openEnv } from './env.js';

// At the top level, as a suite that imports its env: Vitest counts it in the file's import time.
const { env, close } = await openEnv();
afterAll(close);

async function post(key: string, value: string) {
  const response = await worker.fetch(new Request(`https://jobs.example/${key}`, { method: 'POST', body: value }), env);
  expect(response.status).toBe(202);
}

const result = (key: string) =>
  vi.waitUntil(
    async () => {
      const got = await worker.fetch(new Request(`https://jobs.example/${key}`), env);
      return got.ok ? await got.text() : undefined;
    },
    { timeout: 10_000, interval: 5 },
  );

it('does a job sent while serving a request', async () => {
  await post('greeting', 'hello');
  expect(await result('greeting')).toBe('HELLO');
});

it('does three jobs sent by three requests', async () => {
  for (const key of ['a', 'b', 'c']) await post(key, `job ${key}`);
  expect([await result('a'), await result('b'), await result('c')]).toEqual(['JOB A', 'JOB B', 'JOB C']);
});
