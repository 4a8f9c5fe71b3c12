/**
 * Public access over the API (lib/r2-api/domains.ts), through the official SDK in process: the
 * managed r2.dev domain and custom domains, their shapes, their errors, and their effect on the
 * public hosts (api.public).
 */
import Cloudflare from 'cloudflare';
import { beforeEach, describe, expect, it } from 'vitest';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { Bucket } from '../../lib/bucket.js';

let api: CloudflareApi;
let client: Cloudflare;
let account_id: string;
let photos: Bucket;
let zoneId: string;

beforeEach(async () => {
  api = new CloudflareApi({ zones: [{ name: 'example.com' }, { name: 'other.org' }] });
  photos = api.account.addBucket('photos', new Bucket());
  api.account.addBucket('docs', new Bucket());
  await photos.put('cat.txt', 'meow', { httpMetadata: { contentType: 'text/plain' } });
  account_id = api.account.id;
  zoneId = api.zone('example.com')!.id;
  client = new Cloudflare({
    apiToken: 'any-token-0123456789',
    baseURL: 'https://api.cloudflare.com/client/v4',
    fetch: api.fetch,
    maxRetries: 0,
  });
});

describe('the managed r2.dev domain', () => {
  it('is off on a new bucket; PUT {enabled} turns it on and off; the domain is pub-<32 hex>.r2.dev and stays the same', async () => {
    const first = await client.r2.buckets.domains.managed.list('photos', { account_id });
    expect(first).toEqual({
      bucketId: expect.stringMatching(/^[0-9a-f]{32}$/),
      domain: expect.stringMatching(/^pub-[0-9a-f]{32}\.r2\.dev$/),
      enabled: false,
    });
    expect(first.domain).toBe(api.public.managedDomain('photos'));
    const url = `https://${first.domain}/cat.txt`;
    expect((await api.public.fetch(url)).status).toBe(404);

    expect(await client.r2.buckets.domains.managed.update('photos', { account_id, enabled: true })).toEqual({
      ...first,
      enabled: true,
    });
    const served = await api.public.fetch(url);
    expect([served.status, await served.text(), served.headers.get('content-type')]).toEqual([
      200,
      'meow',
      'text/plain',
    ]);
    // Another bucket has another host, not served until enabled.
    const docs = await client.r2.buckets.domains.managed.list('docs', { account_id });
    expect(docs.domain).not.toBe(first.domain);
    expect((await api.public.fetch(`https://${docs.domain}/cat.txt`)).status).toBe(404);

    await client.r2.buckets.domains.managed.update('photos', { account_id, enabled: false });
    expect((await api.public.fetch(url)).status).toBe(404);
  });

  it('refuses a body without a boolean enabled (10040) and a bucket that does not exist (10006)', async () => {
    const res = await api.fetch(
      `https://api.cloudflare.com/client/v4/accounts/${account_id}/r2/buckets/photos/domains/managed`,
      {
        method: 'PUT',
        headers: { authorization: 'Bearer any-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ enabled: 'yes' }),
      },
    );
    expect([res.status, (await res.json()).errors[0].code]).toEqual([400, 10040]);
    await expect(client.r2.buckets.domains.managed.list('nope', { account_id })).rejects.toMatchObject({
      status: 404,
      errors: [{ code: 10006 }],
    });
  });
});

describe('custom domains', () => {
  it("add, list, get, update, remove, with the SDK's shapes; the host serves the bucket while enabled", async () => {
    const added = await client.r2.buckets.domains.custom.create('photos', {
      account_id,
      domain: 'cdn.example.com',
      zoneId,
      enabled: true,
      minTLS: '1.2',
    });
    expect(added).toEqual({ domain: 'cdn.example.com', enabled: true, zoneId, minTLS: '1.2' });
    const entry = {
      domain: 'cdn.example.com',
      enabled: true,
      status: { ownership: 'active', ssl: 'active' },
      minTLS: '1.2',
      zoneId,
      zoneName: 'example.com',
    };
    expect(await client.r2.buckets.domains.custom.list('photos', { account_id })).toEqual({ domains: [entry] });
    expect(
      await client.r2.buckets.domains.custom.get('cdn.example.com', { account_id, bucket_name: 'photos' }),
    ).toEqual(entry);
    expect(await (await api.public.fetch('https://cdn.example.com/cat.txt')).text()).toBe('meow');

    expect(
      await client.r2.buckets.domains.custom.update('cdn.example.com', {
        account_id,
        bucket_name: 'photos',
        enabled: false,
      }),
    ).toEqual({ domain: 'cdn.example.com', enabled: false, minTLS: '1.2' });
    expect((await api.public.fetch('https://cdn.example.com/cat.txt')).status).toBe(404);
    await client.r2.buckets.domains.custom.update('cdn.example.com', {
      account_id,
      bucket_name: 'photos',
      enabled: true,
    });
    expect((await api.public.fetch('https://CDN.example.com./cat.txt')).status).toBe(200);

    expect(
      await client.r2.buckets.domains.custom.delete('cdn.example.com', { account_id, bucket_name: 'photos' }),
    ).toEqual({ domain: 'cdn.example.com' });
    expect(await client.r2.buckets.domains.custom.list('photos', { account_id })).toEqual({ domains: [] });
    expect((await api.public.fetch('https://cdn.example.com/cat.txt')).status).toBe(404);
  });

  it('the domain must lie in a zone of the account (the one zoneId names); a domain serves one bucket', async () => {
    const add = (domain: string, zone: string | undefined, bucket = 'photos') =>
      api.fetch(`https://api.cloudflare.com/client/v4/accounts/${account_id}/r2/buckets/${bucket}/domains/custom`, {
        method: 'POST',
        headers: { authorization: 'Bearer any-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ domain, ...(zone !== undefined ? { zoneId: zone } : {}), enabled: true }),
      });
    for (const [domain, zone] of [
      ['cdn.elsewhere.net', zoneId],
      ['cdn.other.org', zoneId],
      ['cdn.example.com', '0'.repeat(32)],
      ['notexample.com', zoneId],
      ['cdn.nowhere.net', undefined],
      // zoneId is required (the published schema; the SDK's CustomCreateParams.zoneId), even for a domain in a zone.
      ['img.other.org', undefined],
    ] as const) {
      const res = await add(domain, zone);
      expect([res.status, (await res.json()).errors[0].code], domain).toEqual([400, 10040]);
    }
    const otherZone = [...api.account.zones.values()].find((z) => z.name === 'other.org')!.id;
    expect((await add('img.other.org', otherZone)).status).toBe(200);
    expect((await add('img.other.org', otherZone, 'docs')).status).toBe(409);
    expect((await add('not a host', zoneId)).status).toBe(400);
    await expect(
      client.r2.buckets.domains.custom.get('missing.example.com', { account_id, bucket_name: 'photos' }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      client.r2.buckets.domains.custom.delete('img.other.org', { account_id, bucket_name: 'docs' }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe('test support', () => {
  it("CORS and public access are part of a bucket's snapshot and restore; reset keeps them", async () => {
    const url = `https://${api.public.managedDomain('photos')}/cat.txt`;
    const before = photos.snapshot();
    await client.r2.buckets.domains.managed.update('photos', { account_id, enabled: true });
    await client.r2.buckets.domains.custom.create('photos', {
      account_id,
      domain: 'cdn.example.com',
      zoneId,
      enabled: true,
    });
    await client.r2.buckets.cors.update('photos', {
      account_id,
      rules: [{ allowed: { origins: ['https://app.example'], methods: ['GET'] } }],
    });
    const after = photos.snapshot();

    photos.restore(before);
    expect((await api.public.fetch(url)).status).toBe(404);
    expect(await client.r2.buckets.domains.custom.list('photos', { account_id })).toEqual({ domains: [] });
    await expect(client.r2.buckets.cors.get('photos', { account_id })).rejects.toMatchObject({ status: 404 });

    photos.restore(after);
    expect((await api.public.fetch(url)).status).toBe(200);
    expect((await api.public.fetch('https://cdn.example.com/cat.txt')).status).toBe(200);
    expect((await client.r2.buckets.cors.get('photos', { account_id })).rules).toHaveLength(1);

    // reset empties the bucket, as emptying a real one does: its settings stay.
    photos.reset();
    expect((await api.public.fetch(url)).status).toBe(404);
    expect((await client.r2.buckets.domains.managed.list('photos', { account_id })).enabled).toBe(true);
    expect((await client.r2.buckets.cors.get('photos', { account_id })).rules).toHaveLength(1);
  });

  it('a bucket deleted through the API loses its public access and CORS: made again under the name, it has none', async () => {
    const url = `https://${api.public.managedDomain('photos')}/cat.txt`;
    await client.r2.buckets.domains.managed.update('photos', { account_id, enabled: true });
    await client.r2.buckets.domains.custom.create('photos', {
      account_id,
      domain: 'cdn.example.com',
      zoneId,
      enabled: true,
    });
    await client.r2.buckets.cors.update('photos', {
      account_id,
      rules: [{ allowed: { origins: ['https://app.example'], methods: ['GET'] } }],
    });
    await photos.delete('cat.txt');
    await client.r2.buckets.delete('photos', { account_id });
    await client.r2.buckets.create({ account_id, name: 'photos' });
    await api.account.bucket('photos')!.put('cat.txt', 'new');
    expect((await client.r2.buckets.domains.managed.list('photos', { account_id })).enabled).toBe(false);
    expect(await client.r2.buckets.domains.custom.list('photos', { account_id })).toEqual({ domains: [] });
    await expect(client.r2.buckets.cors.get('photos', { account_id })).rejects.toMatchObject({ status: 404 });
    expect((await api.public.fetch(url)).status).toBe(404);
    expect((await api.public.fetch('https://cdn.example.com/cat.txt')).status).toBe(404);
  });
});
