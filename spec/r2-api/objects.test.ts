/**
 * R2's object routes (`/r2/buckets/{bucket}/objects/{key}`, lib/r2-api/objects.ts) through the
 * official `cloudflare` SDK in process (`client.r2.buckets.objects.upload/get/delete`), each checked
 * through the binding over the same bucket; and the raw answers the SDK does not show (errors,
 * the upload bound).
 */
import Cloudflare from 'cloudflare';
import { beforeEach, describe, expect, it } from 'vitest';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { Bucket } from '../../lib/bucket.js';
import { ManualClock } from '../../lib/clock.js';
import { MAX_OBJECT_UPLOAD } from '../../lib/r2-api/objects.js';

const BASE = 'https://api.cloudflare.com/client/v4';

let api: CloudflareApi;
let client: Cloudflare;
let bucket: Bucket;
let account_id: string;

beforeEach(() => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  api = new CloudflareApi({ clock });
  bucket = api.account.addBucket('photos', new Bucket({ clock }));
  account_id = api.account.id;
  client = new Cloudflare({
    apiToken: 'any-token',
    apiKey: null,
    apiEmail: null,
    baseURL: BASE,
    fetch: api.fetch,
    maxRetries: 0,
  });
});

const raw = (method: string, key: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) =>
  api.fetch(
    new Request(`${BASE}/accounts/${account_id}/r2/buckets/photos/objects/${key}`, {
      method,
      body: init.body,
      headers: { authorization: 'Bearer any-token', ...init.headers },
    }),
  );

describe('objects over the SDK', () => {
  it('upload answers the stored object; the binding reads the bytes and class', async () => {
    const up = await client.r2.buckets.objects.upload('cats/tom.txt', 'meow', {
      account_id,
      bucket_name: 'photos',
      'cf-r2-storage-class': 'InfrequentAccess',
    });
    const held = await bucket.head('cats/tom.txt');
    expect(up).toEqual({
      key: 'cats/tom.txt',
      size: '4',
      etag: held!.etag,
      uploaded: '2030-01-01T00:00:00.000Z',
      version: held!.version,
      storage_class: 'InfrequentAccess',
    });
    expect(await (await bucket.get('cats/tom.txt'))!.text()).toBe('meow');
  });

  it('get answers what the binding put, its metadata as headers and its etag quoted', async () => {
    const put = await bucket.put('docs/a.json', '{"a":1}', {
      httpMetadata: { contentType: 'application/json', cacheControl: 'no-store' },
    });
    const res = (await client.r2.buckets.objects.get('docs/a.json', { account_id, bucket_name: 'photos' })) as Response;
    expect(await res.text()).toBe('{"a":1}');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBe(`"${put!.etag}"`);
  });

  it('delete answers the key and the binding no longer has it', async () => {
    await bucket.put('old.txt', 'x');
    expect(await client.r2.buckets.objects.delete('old.txt', { account_id, bucket_name: 'photos' })).toEqual({
      key: 'old.txt',
    });
    expect(await bucket.head('old.txt')).toBeNull();
  });
});

describe('objects, raw', () => {
  it('a missing key is 404 10007; a missing bucket 404 10006', async () => {
    const missing = await raw('GET', 'nope.txt');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
    expect([missing.status, ((await missing.json()) as any).errors[0].code]).toEqual([404, 10007]);
    const noBucket = await api.fetch(`${BASE}/accounts/${account_id}/r2/buckets/absent/objects/a`, {
      headers: { authorization: 'Bearer any-token' },
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
    expect([noBucket.status, ((await noBucket.json()) as any).errors[0].code]).toEqual([404, 10006]);
  });

  it('a storage class outside Standard|InfrequentAccess is 400 10040 and nothing is written', async () => {
    const res = await raw('PUT', 'x.txt', { body: 'x', headers: { 'cf-r2-storage-class': 'Glacier' } });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
    expect([res.status, ((await res.json()) as any).errors[0].code]).toEqual([400, 10040]);
    expect(await bucket.head('x.txt')).toBeNull();
  });

  it("a key of more than 1024 bytes is refused with R2's code, and nothing is written", async () => {
    const key = 'k'.repeat(1025);
    const res = await raw('PUT', key, { body: 'x' });
    expect(res.status).toBe(400);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
    expect(((await res.json()) as any).errors[0].code).toBeGreaterThan(10000);
    expect((await bucket.list()).objects).toEqual([]);
  });

  it("the upload bound is 300 MiB, above the gateway's 100 MiB for other routes: a declared larger body is 413 before it is read", async () => {
    const over = await raw('PUT', 'big.bin', {
      body: 'x',
      headers: { 'content-length': String(MAX_OBJECT_UPLOAD + 1) },
    });
    expect(over.status).toBe(413);
    expect(await bucket.head('big.bin')).toBeNull();
    // 150 MiB declared: over the gateway's bound on a bucket route, within it for an object.
    const bucketRoute = await api.fetch(
      new Request(`${BASE}/accounts/${account_id}/r2/buckets/photos/cors`, {
        method: 'PUT',
        body: '{}',
        headers: { authorization: 'Bearer any-token', 'content-length': String(150 * 1024 * 1024) },
      }),
    );
    expect(bucketRoute.status).toBe(413);
    const under = await raw('PUT', 'mid.bin', { body: 'x', headers: { 'content-length': String(150 * 1024 * 1024) } });
    expect(under.status).toBe(200);
  });

  it('a token with R2 read only may get but not put or delete (10000)', async () => {
    const readOnly = new CloudflareApi({ credentials: [{ token: 'reader-token-0123456789', r2: 'read' }] });
    const b = readOnly.account.addBucket('photos', new Bucket());
    await b.put('a', 'x');
    const url = `${BASE}/accounts/${readOnly.account.id}/r2/buckets/photos/objects/a`;
    const headers = { authorization: 'Bearer reader-token-0123456789' };
    expect((await readOnly.fetch(url, { headers })).status).toBe(200);
    const put = await readOnly.fetch(url, { method: 'PUT', body: 'y', headers });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
    expect([put.status, ((await put.json()) as any).errors[0].code]).toEqual([403, 10000]);
    expect((await readOnly.fetch(url, { method: 'DELETE', headers })).status).toBe(403);
    expect(await (await b.get('a'))!.text()).toBe('x');
  });
});
