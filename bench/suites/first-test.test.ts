/** The README's first test (examples/first-test), on the env of env.ts. */
import { afterAll, expect, it } from 'vitest';
import type { R2BucketLike } from 'edge-doubles/bucket';
import { openEnv } from './env.js';

// At the top level, as a suite that imports its env: Vitest counts it in the file's import time.
const { env, close } = await openEnv();
afterAll(close);

const worker = {
  async fetch(request: Request, env: { FILES: R2BucketLike }): Promise<Response> {
    await env.FILES.put(new URL(request.url).pathname.slice(1), request.body);
    return new Response('stored', { status: 201 });
  },
};

it('stores the request body under its path', async () => {
  const response = await worker.fetch(new Request('https://example.com/a.txt', { method: 'PUT', body: 'hi' }), env);
  expect(response.status).toBe(201);
  expect(await (await env.FILES.get('a.txt'))?.text()).toBe('hi');
});
