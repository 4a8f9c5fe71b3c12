/** The README's first test: a Worker that writes to R2, tested with a Bucket in plain Vitest. */
// README: first-test
import { expect, it } from 'vitest';
import { Bucket } from 'edge-doubles';

const worker = {
  async fetch(request: Request, env: { FILES: Bucket }): Promise<Response> {
    await env.FILES.put(new URL(request.url).pathname.slice(1), request.body);
    return new Response('stored', { status: 201 });
  },
};

it('stores the request body under its path', async () => {
  const env = { FILES: new Bucket() }; // in the Worker, env.FILES is an R2Bucket
  const response = await worker.fetch(new Request('https://example.com/a.txt', { method: 'PUT', body: 'hi' }), env);
  expect(response.status).toBe(201);
  expect(await (await env.FILES.get('a.txt'))?.text()).toBe('hi');
});
// README: end
