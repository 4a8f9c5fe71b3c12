/**
 * R2's buckets through the official `cloudflare` SDK in process (`client.r2.buckets.*` over
 * `api.fetch`), and the raw requests the SDK cannot send wrong: the codes and texts of each refusal,
 * jurisdictions, listing's filters and cursor, and who may call at all (point 7 of issue 18).
 */
import { describe, expect, it } from 'vitest';
import Cloudflare from 'cloudflare';
import { createEnv, S3Api, type Bucket } from '../../lib/index.js';
import { CloudflareApi } from '../../lib/cloudflare-api/index.js';
import { Account } from '../../lib/account/index.js';

const BASE = 'https://api.cloudflare.com/client/v4';
const quiet = { onWarning: () => {} };

const sdk = (api: CloudflareApi, token = 'any') =>
  new Cloudflare({ apiToken: token, apiEmail: null, apiKey: null, fetch: api.fetch, maxRetries: 0 });

/** One raw call: status and parsed body. */
async function call(
  api: CloudflareApi,
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
) {
  const res = await api.fetch(`${BASE}/accounts/${api.account.id}/r2/buckets${path}`, {
    method,
    headers: { authorization: 'Bearer any', 'content-type': 'application/json', ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      success: boolean;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
      result: any;
      errors: { code: number; message: string }[];
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
      result_info?: any;
    },
  };
}

describe('client.r2.buckets in process', () => {
  it('create, get, list, edit and delete, each seen by the binding or the S3 view', async () => {
    const api = new CloudflareApi();
    const client = sdk(api);
    const account_id = api.account.id;
    const made = await client.r2.buckets.create({
      account_id,
      name: 'media',
      locationHint: 'apac',
      storageClass: 'InfrequentAccess',
    });
    expect(made).toMatchObject({
      name: 'media',
      location: 'APAC',
      storage_class: 'InfrequentAccess',
      jurisdiction: 'default',
    });
    expect(new Date(made.creation_date!).toISOString()).toBe(made.creation_date);

    const { env } = createEnv<{ MEDIA: Bucket }>(
      { r2_buckets: [{ binding: 'MEDIA', bucket_name: 'media' }] },
      { ...quiet, api },
    );
    await env.MEDIA.put('k', 'v');
    expect((await env.MEDIA.head('k'))!.storageClass).toBe('InfrequentAccess');

    expect(await client.r2.buckets.get('media', { account_id })).toEqual(made);
    expect((await client.r2.buckets.list({ account_id })).buckets!.map((b) => b.name)).toEqual(['media']);
    const edited = await client.r2.buckets.edit('media', { account_id, storage_class: 'Standard' });
    expect(edited.storage_class).toBe('Standard');

    await expect(client.r2.buckets.delete('media', { account_id })).rejects.toMatchObject({
      status: 409,
      errors: [expect.objectContaining({ code: 10008 })],
    });
    await env.MEDIA.delete('k');
    await client.r2.buckets.delete('media', { account_id });
    expect(new S3Api({ api }).bucket('media')).toBeUndefined();
    await expect(client.r2.buckets.get('media', { account_id })).rejects.toMatchObject({
      status: 404,
      errors: [{ code: 10006, message: 'The specified bucket does not exist.' }],
    });
  });

  it('a bucket the S3 view or a Worker made is one the API lists, and the reverse', async () => {
    const api = new CloudflareApi();
    createEnv({ r2_buckets: [{ binding: 'A', bucket_name: 'from-worker' }] }, { ...quiet, api });
    new S3Api({ api }).addBucket('from-s3');
    const listed = await sdk(api).r2.buckets.list({ account_id: api.account.id });
    expect(listed.buckets!.map((b) => b.name)).toEqual(['from-s3', 'from-worker']);
  });

  it('jurisdictions keep buckets apart: the header addresses them, a binding with jurisdiction binds them', async () => {
    const api = new CloudflareApi({ buckets: ['logs'] });
    const client = sdk(api);
    const account_id = api.account.id;
    const eu = await client.r2.buckets.create({ account_id, name: 'logs', 'cf-r2-jurisdiction': 'eu' });
    expect(eu).toMatchObject({ jurisdiction: 'eu', location: 'WEUR' });
    expect(
      (await client.r2.buckets.list({ account_id, 'cf-r2-jurisdiction': 'eu' })).buckets!.map((b) => b.jurisdiction),
    ).toEqual(['eu']);
    const { env } = createEnv<{ EU: Bucket; US: Bucket }>(
      {
        r2_buckets: [
          { binding: 'EU', bucket_name: 'logs', jurisdiction: 'eu' },
          { binding: 'US', bucket_name: 'logs' },
        ],
      },
      { ...quiet, api },
    );
    await env.EU.put('only-in-eu', 'x');
    expect(await env.US.head('only-in-eu')).toBeNull();
    await expect(client.r2.buckets.delete('logs', { account_id, 'cf-r2-jurisdiction': 'eu' })).rejects.toMatchObject({
      status: 409,
    });
    expect((await call(api, 'GET', '/logs', { headers: { 'cf-r2-jurisdiction': 'mars' } })).body.errors[0]!.code).toBe(
      10040,
    );
  });
});

describe('the API refuses as R2 does', () => {
  it('names: 10005 for names outside the rule; 10004/409 for one this account has', async () => {
    const api = new CloudflareApi({ buckets: ['taken'] });
    for (const name of ['ab', 'Upper', 'under_score', '-dash', 'a'.repeat(64), 42]) {
      const r = await call(api, 'POST', '', { body: JSON.stringify({ name }) });
      expect(r.status, String(name)).toBe(400);
      expect(r.body.errors).toEqual([{ code: 10005, message: 'The specified bucket name is not valid.' }]);
    }
    const again = await call(api, 'POST', '', { body: JSON.stringify({ name: 'taken' }) });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      { code: 10004, message: 'The bucket you tried to create already exists, and you own it.' },
    ]);
  });

  it('malformed bodies and enum values: 10040, and nothing is made', async () => {
    const api = new CloudflareApi();
    for (const body of [
      '{',
      '[]',
      JSON.stringify({ name: 'fine', storageClass: 'Glacier' }),
      JSON.stringify({ name: 'fine', locationHint: 'mars' }),
    ]) {
      const r = await call(api, 'POST', '', { body });
      expect([r.status, r.body.errors[0]!.code], body).toEqual([400, 10040]);
    }
    expect(api.account.buckets).toEqual([]);
    api.addBucket('fine');
    const patch = await call(api, 'PATCH', '/fine', { headers: { 'cf-r2-storage-class': 'Glacier' } });
    expect([patch.status, patch.body.errors[0]!.code]).toEqual([400, 10040]);
  });

  it('lists with name_contains, direction, start_after and per_page, and a cursor that walks the rest', async () => {
    const names = ['alpha', 'beta', 'gamma', 'delta', 'alpha-two', 'omega'];
    const api = new CloudflareApi({ buckets: names });
    const page = async (q: string) => (await call(api, 'GET', `?${q}`)).body;
    expect((await page('name_contains=alpha')).result.buckets.map((b: { name: string }) => b.name)).toEqual([
      'alpha',
      'alpha-two',
    ]);
    expect((await page('direction=desc&per_page=2')).result.buckets.map((b: { name: string }) => b.name)).toEqual([
      'omega',
      'gamma',
    ]);
    expect((await page('start_after=delta')).result.buckets.map((b: { name: string }) => b.name)).toEqual([
      'gamma',
      'omega',
    ]);
    const seen: string[] = [];
    let q = 'per_page=4';
    for (let guard = 0; guard < 5; guard++) {
      const p = await page(q);
      seen.push(...p.result.buckets.map((b: { name: string }) => b.name));
      if (!p.result_info.cursor) break;
      q = `per_page=4&cursor=${encodeURIComponent(p.result_info.cursor)}`;
    }
    expect(seen).toEqual([...names].sort());
    expect((await call(api, 'GET', '?per_page=0')).status).toBe(400);
  });
});

describe('who may call (point 7)', () => {
  const tokens = [
    { token: 'writer', r2: 'write' as const },
    { token: 'reader', r2: 'read' as const },
    { token: 'dns-only', r2: 'none' as const },
  ];

  it('a token without R2 permission gets 403 10000; a read token reads but cannot write', async () => {
    const account = new Account({ credentials: tokens });
    const api = new CloudflareApi({ account });
    api.addBucket('box');
    const as = (token: string) => sdk(api, token).r2.buckets;
    const account_id = account.id;
    await expect(as('dns-only').list({ account_id })).rejects.toMatchObject({
      status: 403,
      errors: [{ code: 10000, message: 'Authentication error' }],
    });
    expect((await as('reader').list({ account_id })).buckets!.map((b) => b.name)).toEqual(['box']);
    await expect(as('reader').create({ account_id, name: 'new' })).rejects.toMatchObject({
      status: 403,
      errors: [{ code: 10000 }],
    });
    await expect(as('reader').delete('box', { account_id })).rejects.toMatchObject({ status: 403 });
    expect(account.buckets).toEqual(['box']);
    await as('writer').create({ account_id, name: 'new' });
    expect(account.buckets).toEqual(['box', 'new']);
  });

  it("another account's buckets: 403 9109, whatever the token may do in its own", async () => {
    const api = new CloudflareApi({ account: new Account({ credentials: tokens }) });
    const other = new Account().id;
    await expect(sdk(api, 'writer').r2.buckets.list({ account_id: other })).rejects.toMatchObject({
      status: 403,
      errors: [{ code: 9109, message: 'Unauthorized to access requested resource' }],
    });
    await expect(sdk(api, 'unknown').r2.buckets.list({ account_id: api.account.id })).rejects.toMatchObject({
      status: 403,
      errors: [{ code: 9109, message: 'Invalid access token' }],
    });
  });
});
