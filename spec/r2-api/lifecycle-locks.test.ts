/**
 * R2's lifecycle and lock routes through the official `cloudflare` SDK, in process over
 * `CloudflareApi#fetch` (`client.r2.buckets.lifecycle.get/update`, `client.r2.buckets.locks.get/update`),
 * each checked by its effect on the bucket a Worker's binding sees; and the raw API's answers to
 * what the SDK would not send.
 */
import Cloudflare, { BadRequestError, NotFoundError } from 'cloudflare';
import { beforeEach, describe, expect, it } from 'vitest';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { Bucket } from '../../lib/bucket.js';
import { ManualClock } from '../../lib/clock.js';

const DAY = 86_400_000;
const BASE = 'https://api.cloudflare.com/client/v4';

let clock: ManualClock;
let api: CloudflareApi;
let client: Cloudflare;
let bucket: Bucket;
let account_id: string;

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2030, 0, 1));
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

const raw = (method: string, path: string, body?: string) =>
  api.fetch(
    new Request(`${BASE}/accounts/${account_id}/r2/buckets/${path}`, {
      method,
      body,
      headers: { authorization: 'Bearer any-token', 'content-type': 'application/json' },
    }),
  );

describe('lifecycle over the SDK', () => {
  it('a new bucket lists the default multipart rule', async () => {
    const got = await client.r2.buckets.lifecycle.get('photos', { account_id });
    expect(got.rules).toEqual([
      {
        id: 'Default Multipart Abort Rule',
        enabled: true,
        conditions: {},
        abortMultipartUploadsTransition: { condition: { type: 'Age', maxAge: 604800 } },
      },
    ]);
  });

  it('update replaces the whole set; the rules expire objects the binding wrote, on the clock', async () => {
    await bucket.put('logs/a', 'a');
    await bucket.put('keep', 'k');
    await client.r2.buckets.lifecycle.update('photos', {
      account_id,
      rules: [
        {
          id: 'expire-logs',
          enabled: true,
          conditions: { prefix: 'logs/' },
          deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
        },
      ],
    });
    expect((await client.r2.buckets.lifecycle.get('photos', { account_id })).rules!.map((r) => r.id)).toEqual([
      'expire-logs',
    ]);
    clock.advance(DAY);
    expect(await bucket.head('logs/a')).toBeNull();
    expect(await bucket.head('keep')).not.toBeNull();
  });

  it('{ rules: [] } clears every rule, the default one included: uploads then outlive the week', async () => {
    await client.r2.buckets.lifecycle.update('photos', { account_id, rules: [] });
    expect((await client.r2.buckets.lifecycle.get('photos', { account_id })).rules).toEqual([]);
    const u = await bucket.createMultipartUpload('big');
    clock.advance(8 * DAY);
    await expect(u.uploadPart(1, 'x')).resolves.toMatchObject({ partNumber: 1 });
  });

  it('an invalid rule is 10040 and changes nothing', async () => {
    const e = await client.r2.buckets.lifecycle
      .update('photos', {
        account_id,
        rules: [
          {
            id: 'x',
            enabled: true,
            conditions: { prefix: '' },
            abortMultipartUploadsTransition: { condition: { type: 'Date' } as never },
          },
        ],
      })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect((e as BadRequestError).errors[0]).toEqual({
      code: 10040,
      message: 'The JSON you provided was not well formed.',
    });
    expect((await client.r2.buckets.lifecycle.get('photos', { account_id })).rules).toHaveLength(1);
  });

  it('a bucket that does not exist is 10006', async () => {
    const e = await client.r2.buckets.lifecycle.get('nope', { account_id }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NotFoundError);
    expect((e as NotFoundError).errors[0]).toMatchObject({ code: 10006 });
  });

  it('raw: a body that is not JSON is 10040; there is no DELETE', async () => {
    const bad = await raw('PUT', 'photos/lifecycle', '{rules:');
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0]).toEqual({
      code: 10040,
      message: 'The JSON you provided was not well formed.',
    });
    expect((await raw('DELETE', 'photos/lifecycle')).status).toBe(405);
  });
});

describe('locks over the SDK', () => {
  it('a new bucket has none; update sets them; the binding is refused with 10069 until the lock ends', async () => {
    expect((await client.r2.buckets.locks.get('photos', { account_id })).rules).toEqual([]);
    await client.r2.buckets.locks.update('photos', {
      account_id,
      rules: [{ id: 'hold', enabled: true, prefix: 'legal/', condition: { type: 'Age', maxAgeSeconds: 86400 } }],
    });
    expect((await client.r2.buckets.locks.get('photos', { account_id })).rules).toEqual([
      { id: 'hold', enabled: true, prefix: 'legal/', condition: { type: 'Age', maxAgeSeconds: 86400 } },
    ]);
    await bucket.put('legal/doc', 'v');
    await expect(bucket.delete('legal/doc')).rejects.toThrow(
      'delete: The object is locked by a bucket lock rule and cannot be deleted or overwritten. (10069)',
    );
    clock.advance(DAY);
    await bucket.delete('legal/doc');
  });

  it('update with no rules removes them all', async () => {
    await client.r2.buckets.locks.update('photos', {
      account_id,
      rules: [{ id: 'all', enabled: true, condition: { type: 'Indefinite' } }],
    });
    await bucket.put('k', 'v');
    await expect(bucket.delete('k')).rejects.toThrow('(10069)');
    await client.r2.buckets.locks.update('photos', { account_id, rules: [] });
    await bucket.delete('k');
  });

  it('an invalid rule is 10040', async () => {
    const e = await client.r2.buckets.locks
      .update('photos', { account_id, rules: [{ id: 'x', enabled: true, condition: { type: 'Age' } as never }] })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect((await client.r2.buckets.locks.get('photos', { account_id })).rules).toEqual([]);
  });
});
