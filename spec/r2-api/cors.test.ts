/**
 * A bucket's CORS policy over the API (lib/r2-api/cors.ts), through the official SDK in process:
 * the API's rule shape, its validation, and one policy with the S3 view (set through one, read
 * through the other, both ways).
 */
import Cloudflare, { NotFoundError } from 'cloudflare';
import { GetBucketCorsCommand, PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { beforeEach, describe, expect, it } from 'vitest';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { Bucket } from '../../lib/bucket.js';
import { S3Api } from '../../lib/s3.js';
import { sdk } from '../s3/support.js';

const APP = 'https://app.example';
let api: CloudflareApi;
let client: Cloudflare;
let account_id: string;

beforeEach(() => {
  api = new CloudflareApi();
  api.account.addBucket('photos', new Bucket());
  account_id = api.account.id;
  client = new Cloudflare({
    apiToken: 'any-token-0123456789',
    baseURL: 'https://api.cloudflare.com/client/v4',
    fetch: api.fetch,
    maxRetries: 0,
  });
});

const RULE = {
  id: 'uploads',
  allowed: { origins: [APP], methods: ['GET', 'PUT'] as ('GET' | 'PUT')[], headers: ['content-type'] },
  exposeHeaders: ['ETag'],
  maxAgeSeconds: 3600,
};

describe('CORS over the API', () => {
  it('GET on a bucket without a policy is 404 10059; PUT sets it, GET returns it, DELETE clears it', async () => {
    await expect(client.r2.buckets.cors.get('photos', { account_id })).rejects.toMatchObject({
      status: 404,
      errors: [{ code: 10059, message: 'The CORS configuration does not exist.' }],
    });
    await client.r2.buckets.cors.update('photos', { account_id, rules: [RULE] });
    expect(await client.r2.buckets.cors.get('photos', { account_id })).toEqual({ rules: [RULE] });
    await client.r2.buckets.cors.delete('photos', { account_id });
    await expect(client.r2.buckets.cors.get('photos', { account_id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a PUT replaces the whole policy', async () => {
    await client.r2.buckets.cors.update('photos', {
      account_id,
      rules: [RULE, { allowed: { origins: ['*'], methods: ['GET'] } }],
    });
    await client.r2.buckets.cors.update('photos', {
      account_id,
      rules: [{ allowed: { origins: ['http://localhost:5173'], methods: ['HEAD'] } }],
    });
    expect(await client.r2.buckets.cors.get('photos', { account_id })).toEqual({
      rules: [{ allowed: { origins: ['http://localhost:5173'], methods: ['HEAD'] } }],
    });
  });

  it('a bucket that does not exist is 404 10006 on every method', async () => {
    for (const call of [
      () => client.r2.buckets.cors.get('nope', { account_id }),
      () => client.r2.buckets.cors.update('nope', { account_id, rules: [RULE] }),
      () => client.r2.buckets.cors.delete('nope', { account_id }),
    ]) {
      await expect(call()).rejects.toMatchObject({ status: 404, errors: [{ code: 10006 }] });
    }
  });

  it('refuses what is not the API rule shape with 400 10040, S3-shaped files included (workers-sdk#8486), and keeps the policy it had', async () => {
    await client.r2.buckets.cors.update('photos', { account_id, rules: [RULE] });
    const put = (body: string) =>
      api.fetch(`https://api.cloudflare.com/client/v4/accounts/${account_id}/r2/buckets/photos/cors`, {
        method: 'PUT',
        headers: { authorization: 'Bearer any-token-0123456789', 'content-type': 'application/json' },
        body,
      });
    const bad = [
      '{',
      '[]',
      JSON.stringify({ CORSRules: [{ AllowedOrigins: [APP], AllowedMethods: ['GET'] }] }),
      JSON.stringify({ rules: [{ AllowedOrigins: [APP], AllowedMethods: ['GET'] }] }),
      JSON.stringify({ rules: [{ allowed: { origins: [APP], methods: ['PATCH'] } }] }),
      JSON.stringify({ rules: [{ allowed: { origins: [APP], methods: [] } }] }),
      JSON.stringify({ rules: [{ allowed: { origins: [], methods: ['GET'] } }] }),
      JSON.stringify({ rules: [{ allowed: { origins: ['https://*.a.*'], methods: ['GET'] } }] }),
      JSON.stringify({ rules: [{ allowed: { origins: [APP], methods: ['GET'] }, maxAgeSeconds: 86401 }] }),
      JSON.stringify({ rules: [{ allowed: { origins: [APP], methods: ['GET'] }, maxAgeSeconds: 1.5 }] }),
      JSON.stringify({ rules: [{ allowed: { origins: [APP], methods: ['GET'] }, exposeHeaders: ['x-\u0100'] }] }),
      JSON.stringify({ rules: [{ allowed: { origins: [APP], methods: ['GET'], headers: 'content-type' } }] }),
    ];
    for (const body of bad) {
      const res = await put(body);
      expect([res.status, (await res.json()).errors], body).toEqual([
        400,
        [{ code: 10040, message: 'The JSON you provided was not well formed.' }],
      ]);
    }
    expect(await client.r2.buckets.cors.get('photos', { account_id })).toEqual({ rules: [RULE] });
    // The bound itself is allowed.
    await client.r2.buckets.cors.update('photos', {
      account_id,
      rules: [{ allowed: { origins: [APP], methods: ['GET'] }, maxAgeSeconds: 86400 }],
    });
  });

  it('the S3 view reads the policy the API set, field for field', async () => {
    const s3 = new S3Api({ account: api.account });
    await client.r2.buckets.cors.update('photos', { account_id, rules: [RULE] });
    const got = await sdk(s3.fetch).send(new GetBucketCorsCommand({ Bucket: 'photos' }));
    expect(got.CORSRules).toEqual([
      {
        ID: 'uploads',
        AllowedOrigins: [APP],
        AllowedMethods: ['GET', 'PUT'],
        AllowedHeaders: ['content-type'],
        ExposeHeaders: ['ETag'],
        MaxAgeSeconds: 3600,
      },
    ]);
  });

  it('the API reads the policy the S3 view set, field for field', async () => {
    const s3 = new S3Api({ account: api.account });
    await sdk(s3.fetch).send(
      new PutBucketCorsCommand({
        Bucket: 'photos',
        CORSConfiguration: {
          CORSRules: [
            {
              ID: 'r',
              AllowedOrigins: [APP, 'http://localhost:*'],
              AllowedMethods: ['POST', 'DELETE'],
              AllowedHeaders: ['x-amz-*'],
              ExposeHeaders: ['ETag', 'x-amz-version-id'],
              MaxAgeSeconds: 60,
            },
          ],
        },
      }),
    );
    expect(await client.r2.buckets.cors.get('photos', { account_id })).toEqual({
      rules: [
        {
          id: 'r',
          allowed: { origins: [APP, 'http://localhost:*'], methods: ['POST', 'DELETE'], headers: ['x-amz-*'] },
          exposeHeaders: ['ETag', 'x-amz-version-id'],
          maxAgeSeconds: 60,
        },
      ],
    });
  });

  it("a policy set through the API decides the S3 view's preflights: exact origins only", async () => {
    const s3 = new S3Api({ account: api.account });
    await client.r2.buckets.cors.update('photos', {
      account_id,
      rules: [{ allowed: { origins: ['http://localhost:5173'], methods: ['PUT'], headers: ['content-type'] } }],
    });
    const ask = (origin: string) =>
      s3.fetch('https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com/photos/k', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await ask('http://localhost:5173');
    expect([allowed.status, allowed.headers.get('access-control-allow-origin')]).toEqual([
      200,
      'http://localhost:5173',
    ]);
    // scheme://host[:port], matched exactly: another port, scheme or host is another origin.
    for (const origin of [
      'http://localhost:5174',
      'https://localhost:5173',
      'http://127.0.0.1:5173',
      'http://localhost:5173/',
    ]) {
      const refused = await ask(origin);
      expect([refused.status, refused.headers.get('access-control-allow-origin')], origin).toEqual([403, null]);
    }
  });
});
