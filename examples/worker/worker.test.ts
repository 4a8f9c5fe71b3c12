import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Bucket } from 'edge-doubles/bucket';
import worker, { type Env } from './worker.js';

// The Worker under test gets a fresh in-memory bucket per test: no runtime to boot.
let env: Env;
beforeEach(() => {
  env = { FILES: new Bucket() };
});

const call = (path: string, init?: RequestInit) => worker.fetch(new Request(`https://files.example${path}`, init), env);

describe('the files Worker', () => {
  it('stores a file with its content type and serves it back', async () => {
    const put = await call('/notes/a.txt', { method: 'PUT', body: 'hello world', headers: { 'content-type': 'text/plain' } });
    expect(put.status).toBe(201);
    const got = await call('/notes/a.txt');
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('text/plain');
    expect(await got.text()).toBe('hello world');
  });

  it('answers 304 to If-None-Match with the current etag', async () => {
    const put = await call('/a', { method: 'PUT', body: 'v1' });
    const etag = put.headers.get('etag')!;
    expect((await call('/a', { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await call('/a', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('serves a byte range with 206', async () => {
    await call('/a', { method: 'PUT', body: '0123456789' });
    const res = await call('/a', { headers: { range: 'bytes=2-4' } });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe('234');
  });

  it('refuses to overwrite when If-Match does not hold', async () => {
    await call('/a', { method: 'PUT', body: 'v1' });
    const res = await call('/a', { method: 'PUT', body: 'v2', headers: { 'if-match': '"not-the-etag"' } });
    expect(res.status).toBe(412);
    expect(await (await call('/a')).text()).toBe('v1');
  });
});

describe('multipart uploads across requests', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('assembles parts uploaded in separate requests', async () => {
    const { uploadId } = (await (await call('/big?uploads', { method: 'POST' })).json()) as { uploadId: string };
    const five = new Uint8Array(5 * 1024 * 1024).fill(97);
    const p1 = await (await call(`/big?uploadId=${uploadId}&partNumber=1`, { method: 'POST', body: five })).json();
    const p2 = await (await call(`/big?uploadId=${uploadId}&partNumber=2`, { method: 'POST', body: 'tail' })).json();
    const done = await call(`/big?uploadId=${uploadId}`, { method: 'POST', body: JSON.stringify([p1, p2]) });
    expect(done.status).toBe(201);
    expect(done.headers.get('etag')).toMatch(/-2"$/);
    const object = await env.FILES.head('big');
    expect(object!.size).toBe(five.length + 4);
  });

  // README: "Moving time past the multipart expiry"
  it('an upload left for 7 days is gone', async () => {
    vi.useFakeTimers();
    const { uploadId } = (await (await call('/big?uploads', { method: 'POST' })).json()) as { uploadId: string };
    vi.advanceTimersByTime(7 * 24 * 60 * 60 * 1000); // R2 aborts uploads not completed within 7 days
    const late = await call(`/big?uploadId=${uploadId}&partNumber=1`, { method: 'POST', body: 'late' });
    expect(late.status).toBe(404);
    expect(await late.text()).toBe('uploadPart: The specified multipart upload does not exist. (10024)');
  });
});
