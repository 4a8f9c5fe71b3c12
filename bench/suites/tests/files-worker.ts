/**
 * examples/worker's files Worker, the tests of it that need only its R2 binding (its DNS and the
 * doubles' own faults and call log left out, so every target can run them), the same bodies on every
 * target of `npm run bench -- suites`: `call` sends a request to the Worker (directly in Node,
 * through `exports.default.fetch()` in workerd) and `bucket` is the binding it got.
 */
import { expect, it } from 'vitest';
import type { R2BucketLike } from 'edge-doubles/bucket';

export type Call = (path: string, init?: RequestInit) => Promise<Response>;

export function filesWorkerTests(call: Call, bucket: () => R2BucketLike): void {
  it('serves a file already in the bucket', async () => {
    await bucket().put('notes/welcome.txt', 'hello');
    const got = await call('/notes/welcome.txt');
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('hello');
  });

  it('stores a file with its content type and serves it back', async () => {
    const put = await call('/notes/a.txt', {
      method: 'PUT',
      body: 'hello world',
      headers: { 'content-type': 'text/plain' },
    });
    expect(put.status).toBe(201);
    const got = await call('/notes/a.txt');
    expect(got.headers.get('content-type')).toBe('text/plain');
    expect(await got.text()).toBe('hello world');
  });

  it('answers 304 to If-None-Match with the current etag', async () => {
    const etag = (await call('/etag', { method: 'PUT', body: 'v1' })).headers.get('etag')!;
    expect((await call('/etag', { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await call('/etag', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('serves a byte range with 206', async () => {
    await call('/range', { method: 'PUT', body: '0123456789' });
    const res = await call('/range', { headers: { range: 'bytes=2-4' } });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe('234');
  });

  it('refuses to overwrite when If-Match does not hold', async () => {
    await call('/if-match', { method: 'PUT', body: 'v1' });
    const res = await call('/if-match', { method: 'PUT', body: 'v2', headers: { 'if-match': '"not-the-etag"' } });
    expect(res.status).toBe(412);
    expect(await (await call('/if-match')).text()).toBe('v1');
  });

  it('assembles parts uploaded in separate requests', async () => {
    const { uploadId } = (await (await call('/big?uploads', { method: 'POST' })).json()) as { uploadId: string };
    const five = new Uint8Array(5 * 1024 * 1024).fill(97);
    const p1 = await (await call(`/big?uploadId=${uploadId}&partNumber=1`, { method: 'POST', body: five })).json();
    const p2 = await (await call(`/big?uploadId=${uploadId}&partNumber=2`, { method: 'POST', body: 'tail' })).json();
    const done = await call(`/big?uploadId=${uploadId}`, { method: 'POST', body: JSON.stringify([p1, p2]) });
    expect(done.status).toBe(201);
    expect(done.headers.get('etag')).toMatch(/-2"$/);
    expect((await bucket().head('big'))?.size).toBe(five.length + 4);
  });
}
