// docs/getting-started.md's worked example is the part between the markers; the tests after it use these too.
import { describe } from 'vitest';
import { logOnFailure } from 'edge-doubles/vitest';
// README: quick-start
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createExecutionContext, DnsApi, waitOnExecutionContext, type Bucket } from 'edge-doubles';
import { createEnv } from 'edge-doubles/node';
import worker, { type Env } from './worker.js';

// As wrangler.toml declares them: FILES becomes an in-memory Bucket, and [vars] (ZONE_ID, ORIGIN)
// come as wrangler binds them. `log: true` records the bucket's calls, for toHaveReceived.
const { env: fromConfig } = createEnv<{ FILES: Bucket; ZONE_ID: string; ORIGIN: string }>(
  'examples/worker/wrangler.toml',
  { log: true },
); // in your project: 'wrangler.toml'
const dns = new DnsApi({ zones: [{ name: 'example.com', id: fromConfig.ZONE_ID }] });
const env: Env = { ...fromConfig, CLOUDFLARE_API_TOKEN: 'test-token' }; // a secret: not in the config

fromConfig.FILES.seed({ 'notes/welcome.txt': 'hello' });
const seeded = fromConfig.FILES.snapshot();
beforeEach(() => {
  fromConfig.FILES.restore(seeded); // every test starts from the seed (O(1)); faults and the log are cleared
  dns.reset();
  vi.stubGlobal('fetch', dns.fetch); // the cloudflare SDK inside the Worker reaches the DNS double
});
afterEach(() => vi.unstubAllGlobals());

// A request with its own ctx; what the Worker left to ctx.waitUntil has settled when this returns.
const call = async (path: string, init?: RequestInit) => {
  const ctx = createExecutionContext(); // a Worker typed with workers-types' ExecutionContext: createExecutionContext<ExecutionContext>()
  const response = await worker.fetch(new Request(`https://files.example.com${path}`, init), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};

it('retries a put that R2 failed with its internal error', async () => {
  fromConfig.FILES.faults.add({ op: 'put', times: 1 }); // R2's 10001, once

  expect((await call('/notes/a.txt', { method: 'PUT', body: 'hi' })).status).toBe(201);
  expect(fromConfig.FILES).toHaveReceived({ op: 'put', key: 'notes/a.txt', times: 2 });
  expect(fromConfig.FILES).toHaveObject('notes/a.txt', { body: 'hi' });
});

it('publishes a site with a CNAME when its index.html is uploaded', async () => {
  await call('/sites/blog/index.html', { method: 'PUT', body: '<h1>blog</h1>' });

  expect(dns).toHaveDnsRecord('example.com', {
    type: 'CNAME',
    name: 'blog',
    content: 'files.example.com',
    proxied: true,
  });
});
// README: end

// README: log-on-failure
beforeEach(() => logOnFailure(fromConfig.FILES, dns)); // a failing test prints both doubles' calls as tables
// README: end

describe('the files Worker', () => {
  it('serves the seeded file', async () => {
    const got = await call('/notes/welcome.txt');
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('hello');
  });

  it('starts every test from the snapshot: what the last test wrote is gone', async () => {
    await call('/notes/welcome.txt', { method: 'DELETE' });
    expect(fromConfig.FILES).not.toHaveObject('notes/welcome.txt');
    fromConfig.FILES.restore(seeded); // what beforeEach does before the next test
    expect(fromConfig.FILES).toHaveObject('notes/welcome.txt', { body: 'hello' });
    expect(fromConfig.FILES).not.toHaveReceived(); // the restore cleared the log
  });

  it('stores a file with its content type and serves it back', async () => {
    const put = await call('/notes/a.txt', {
      method: 'PUT',
      body: 'hello world',
      headers: { 'content-type': 'text/plain' },
    });
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

describe('retries', () => {
  it('gives up after three internal errors, with nothing stored', async () => {
    fromConfig.FILES.faults.add({ op: 'put', times: 3 });
    const res = await call('/notes/a.txt', { method: 'PUT', body: 'x' });
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('put: We encountered an internal error. Please try again. (10001)');
    expect(fromConfig.FILES).toHaveReceived({ op: 'put', status: 'error', injected: true, times: 3 });
    expect(fromConfig.FILES).not.toHaveObject('notes/a.txt');
  });

  it('does not retry what trying again cannot fix', async () => {
    fromConfig.FILES.faults.add({ op: 'put', error: 'rateLimit' }); // 10058: slow down, not "try again"
    const res = await call('/notes/a.txt', { method: 'PUT', body: 'x' });
    expect(res.status).toBe(503);
    expect(fromConfig.FILES).toHaveReceived({ op: 'put', times: 1 });
  });
});

describe('publishing sites', () => {
  it('publishes once: uploading index.html again keeps the one record', async () => {
    await call('/sites/blog/index.html', { method: 'PUT', body: 'v1' });
    const again = await call('/sites/blog/index.html', { method: 'PUT', body: 'v2' });
    expect(again.status).toBe(201);
    expect(dns.records('example.com').filter((r) => r.type === 'CNAME')).toHaveLength(1);
    expect(dns).toHaveReceived({ method: 'POST', path: 'zones/*/dns_records', auth: 'bearer', times: 2 });
  });

  it('gets through a rate limit: the SDK waits as retry-after says and tries again', async () => {
    dns.faults.add({ method: 'POST', path: 'zones/*/dns_records', status: 429, retryAfter: 0.01, times: 1 });
    expect((await call('/sites/blog/index.html', { method: 'PUT', body: 'v1' })).status).toBe(201);
    expect(dns).toHaveReceived({ method: 'POST', status: 429, times: 1 });
    expect(dns).toHaveDnsRecord('example.com', { type: 'CNAME', name: 'blog' });
  });

  it('publishes nothing for other files', async () => {
    await call('/sites/blog/about.html', { method: 'PUT', body: 'about' });
    expect(dns).not.toHaveReceived();
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
    expect(fromConfig.FILES).toHaveObject('big', { size: five.length + 4 });
  });

  // README: "Time: the 7-day multipart expiry"
  // README: multipart-expiry
  it('an upload left for 7 days is gone', async () => {
    vi.useFakeTimers();
    const { uploadId } = (await (await call('/big?uploads', { method: 'POST' })).json()) as { uploadId: string };
    vi.advanceTimersByTime(7 * 24 * 60 * 60 * 1000); // R2 aborts uploads not completed within 7 days
    const late = await call(`/big?uploadId=${uploadId}&partNumber=1`, { method: 'POST', body: 'late' });
    expect(late.status).toBe(404);
    expect(await late.text()).toBe('uploadPart: The specified multipart upload does not exist. (10024)');
  });
  // README: end
});
