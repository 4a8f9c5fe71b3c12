/**
 * R2's public hosts (lib/r2-public): GET and HEAD as the public endpoint answers them (ranges,
 * conditionals, httpMetadata headers, its 404, other methods), CORS by the bucket's policy, and
 * the bucket's call log and faults.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { Bucket } from '../../lib/bucket.js';
import { S3Api } from '../../lib/s3.js';

let api: CloudflareApi;
let photos: Bucket;
let base: string;
const APP = 'https://app.example';

beforeEach(async () => {
  api = new CloudflareApi();
  photos = api.account.addBucket('photos', new Bucket());
  base = `https://${api.public.managedDomain('photos')}`;
  const id = api.account.id;
  const res = await api.fetch(`https://api.cloudflare.com/client/v4/accounts/${id}/r2/buckets/photos/domains/managed`, {
    method: 'PUT',
    headers: { authorization: 'Bearer any-token-0123456789', 'content-type': 'application/json' },
    body: JSON.stringify({ enabled: true }),
  });
  expect(res.status).toBe(200);
  await photos.put('a/b c.txt', '0123456789', {
    httpMetadata: {
      contentType: 'text/plain',
      contentLanguage: 'en',
      contentDisposition: 'inline',
      cacheControl: 'max-age=60',
      cacheExpiry: new Date('2030-01-01T00:00:00Z'),
    },
  });
  await photos.put('raw', 'x');
});

describe('public GET and HEAD', () => {
  it('serve the object with its httpMetadata, ETag, Last-Modified, Accept-Ranges, Content-Length; keys are percent-decoded', async () => {
    const obj = (await photos.head('a/b c.txt'))!;
    const res = await api.public.fetch(`${base}/a/b%20c.txt`);
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.headers)).toEqual({
      'content-type': 'text/plain',
      'content-language': 'en',
      'content-disposition': 'inline',
      'cache-control': 'max-age=60',
      expires: 'Tue, 01 Jan 2030 00:00:00 GMT',
      etag: obj.httpEtag,
      'last-modified': obj.uploaded.toUTCString(),
      'accept-ranges': 'bytes',
      'content-length': '10',
    });
    expect(await res.text()).toBe('0123456789');
    const head = await api.public.fetch(`${base}/a/b%20c.txt`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '10', '']);
    expect((await api.public.fetch(`${base}/raw`)).headers.get('content-type')).toBe('application/octet-stream');
  });

  it('a missing key (or no key) is 404 "404 Not Found"; other methods are 401 with no body', async () => {
    for (const path of ['/nope', '/']) {
      const res = await api.public.fetch(`${base}${path}`);
      expect([res.status, await res.text()]).toEqual([404, '404 Not Found']);
    }
    for (const method of ['PUT', 'POST', 'DELETE', 'PATCH']) {
      const res = await api.public.fetch(`${base}/raw`, { method, ...(method === 'DELETE' ? {} : { body: 'y' }) });
      expect([res.status, await res.text()], method).toEqual([401, '']);
    }
    expect(await (await photos.get('raw'))!.text()).toBe('x');
  });

  it('ranges: 206 with Content-Range; suffix and open ranges; malformed or inverted 400; unsatisfiable 416', async () => {
    const get = (range: string, key = 'a/b%20c.txt') => api.public.fetch(`${base}/${key}`, { headers: { range } });
    const r = await get('bytes=2-4');
    expect([r.status, r.headers.get('content-range'), r.headers.get('content-length'), await r.text()]).toEqual([
      206,
      'bytes 2-4/10',
      '3',
      '234',
    ]);
    expect(await (await get('bytes=-3')).text()).toBe('789');
    expect(await (await get('bytes=7-')).text()).toBe('789');
    expect(await (await get('bytes=8-100')).text()).toBe('89');
    for (const range of ['bytes=5-2', 'bytes=a-b', 'bytes=0-1,3-4', 'items=0-1'])
      expect((await get(range)).status, range).toBe(400);
    expect((await get('bytes=5-2', 'missing')).status).toBe(400);
    for (const range of ['bytes=10-', 'bytes=-0']) expect((await get(range)).status, range).toBe(416);
  });

  it('conditionals: If-None-Match / If-Modified-Since 304 with the headers; If-Match / If-Unmodified-Since 412', async () => {
    const obj = (await photos.head('raw'))!;
    const get = (headers: Record<string, string>) => api.public.fetch(`${base}/raw`, { headers });
    const notModified = await get({ 'if-none-match': obj.httpEtag });
    expect([notModified.status, notModified.headers.get('etag'), await notModified.text()]).toEqual([
      304,
      obj.httpEtag,
      '',
    ]);
    expect((await get({ 'if-modified-since': new Date(obj.uploaded.getTime() + 60_000).toUTCString() })).status).toBe(
      304,
    );
    expect((await get({ 'if-match': '"nope"' })).status).toBe(412);
    expect((await get({ 'if-unmodified-since': new Date(obj.uploaded.getTime() - 60_000).toUTCString() })).status).toBe(
      412,
    );
    expect((await get({ 'if-match': obj.httpEtag })).status).toBe(200);
  });

  it('an object written with SSE-C is not served (400, no body): a public host cannot take its key', async () => {
    const key = new Uint8Array(32).fill(7).buffer;
    await photos.put('secret', 'classified', { ssecKey: key });
    const res = await api.public.fetch(`${base}/secret`);
    expect([res.status, await res.text()]).toEqual([400, '']);
  });

  it('a host that serves no bucket is 404', async () => {
    expect((await api.public.fetch('https://pub-00000000000000000000000000000000.r2.dev/raw')).status).toBe(404);
    expect((await api.public.fetch('https://cdn.example.com/raw')).status).toBe(404);
  });
});

describe("CORS on public hosts follows the bucket's policy", () => {
  it('no policy: no CORS headers, preflights refused', async () => {
    const res = await api.public.fetch(`${base}/raw`, { headers: { origin: APP } });
    expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    const pre = await api.public.fetch(`${base}/raw`, {
      method: 'OPTIONS',
      headers: { origin: APP, 'access-control-request-method': 'GET' },
    });
    expect([pre.status, pre.headers.get('access-control-allow-origin')]).toEqual([403, null]);
  });

  it('a matching Origin gets Access-Control-Allow-Origin and the exposed headers; another origin none', async () => {
    new S3Api({ account: api.account }).setBucketCors('photos', [
      { origins: [APP], methods: ['GET', 'HEAD'], headers: ['range'], expose: ['ETag', 'Content-Range'], maxAge: 600 },
    ]);
    const ok = await api.public.fetch(`${base}/raw`, { headers: { origin: APP } });
    expect([ok.headers.get('access-control-allow-origin'), ok.headers.get('access-control-expose-headers')]).toEqual([
      APP,
      'ETag, Content-Range',
    ]);
    const missing = await api.public.fetch(`${base}/none`, { headers: { origin: APP } });
    expect([missing.status, missing.headers.get('access-control-allow-origin')]).toEqual([404, APP]);
    const other = await api.public.fetch(`${base}/raw`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await api.public.fetch(`${base}/raw`, {
      method: 'OPTIONS',
      headers: { origin: APP, 'access-control-request-method': 'GET', 'access-control-request-headers': 'Range' },
    });
    expect([
      pre.status,
      pre.headers.get('access-control-allow-origin'),
      pre.headers.get('access-control-allow-headers'),
      pre.headers.get('access-control-max-age'),
    ]).toEqual([200, APP, 'range', '600']);
    const refused = await api.public.fetch(`${base}/raw`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(refused.status).toBe(403);
  });
});

describe('test support', () => {
  it("public reads are in the bucket's call log (surface public) and its faults apply", async () => {
    photos.log.start();
    await api.public.fetch(`${base}/raw`);
    await api.public.fetch(`${base}/raw`, { method: 'HEAD' });
    expect(photos.log.filter({ surface: 'public' }).map((c) => [c.op, c.key])).toEqual([
      ['get', 'raw'],
      ['head', 'raw'],
    ]);
    photos.faults.add({ op: 'get', error: new Error('boom') });
    expect((await api.public.fetch(`${base}/raw`)).status).toBe(500);
  });
});
