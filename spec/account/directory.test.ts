/**
 * Issue 24, "one bucket directory per account" (the R2 backend, lib/bucket/backend.ts): every surface makes and
 * deletes an account's buckets through one module, with one name check, and a deletion clears the
 * bucket's settings through its layer (a `deleteBucket` call, logged with its surface).
 */
import { CreateBucketCommand, DeleteBucketCommand, PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { Account } from '../../lib/account/account.js';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { Bucket } from '../../lib/bucket.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { S3Api } from '../../lib/s3.js';
import { CREDENTIALS, sdk } from '../s3/support.js';

const BASE = 'https://api.cloudflare.com/client/v4';

describe('the account bucket directory', () => {
  it('a bucket the S3 view creates is the account bucket, seen by the API; the same names are refused everywhere', async () => {
    const api = new CloudflareApi();
    const s3 = new S3Api({ api, credentials: [CREDENTIALS] });
    const client = sdk(s3.fetch);
    await client.send(new CreateBucketCommand({ Bucket: 'made-by-s3' }));
    expect(api.account.bucket('made-by-s3')).toBeInstanceOf(Bucket);
    const listed = (await (
      await api.fetch(
        new Request(`${BASE}/accounts/${api.account.id}/r2/buckets`, { headers: { authorization: 'Bearer t' } }),
      )
    ).json()) as {
      result: { buckets: { name: string }[] };
    };
    expect(listed.result.buckets.map((b) => b.name)).toContain('made-by-s3');
    for (const bad of ['ab', 'Upper', '-dash-first', 'a'.repeat(64)]) {
      expect(() => api.account.addBucket(bad, new Bucket())).toThrow('is invalid');
      expect(() => api.addBucket(bad)).toThrow('is invalid');
      await expect(client.send(new CreateBucketCommand({ Bucket: bad }))).rejects.toThrow();
    }
    expect(() => api.account.addBucket('made-by-s3', new Bucket())).toThrow('already exists');
  });

  it('DeleteBucket through the S3 view clears the settings through the layer (logged), so the name made again starts with none', async () => {
    const account = new Account();
    const kept = new Bucket({ log: true });
    account.addBucket('photos', kept);
    const client = sdk(new S3Api({ account, credentials: [CREDENTIALS] }).fetch);
    await client.send(
      new PutBucketCorsCommand({
        Bucket: 'photos',
        CORSConfiguration: { CORSRules: [{ AllowedOrigins: ['*'], AllowedMethods: ['GET'] }] },
      }),
    );
    expect(bucketLayer(kept)!.config.cors).toHaveLength(1);
    await client.send(new DeleteBucketCommand({ Bucket: 'photos' }));
    expect(account.bucket('photos')).toBeUndefined();
    expect(kept.log.filter({ op: 'deleteBucket' })).toMatchObject([{ surface: 's3', status: 'ok' }]);
    account.addBucket('photos', kept);
    expect(bucketLayer(kept)!.config.cors).toBeUndefined();
  });

  it('the API DELETE goes the same way (surface api), and a fault on it keeps the bucket', async () => {
    const api = new CloudflareApi();
    const bucket = api.addBucket('logs');
    bucket.log.start();
    const del = () =>
      api.fetch(
        new Request(`${BASE}/accounts/${api.account.id}/r2/buckets/logs`, {
          method: 'DELETE',
          headers: { authorization: 'Bearer t' },
        }),
      );
    bucket.faults.add({ op: 'deleteBucket' });
    expect((await del()).status).toBe(500);
    expect(api.account.bucket('logs')).toBe(bucket);
    expect((await del()).status).toBe(200);
    expect(api.account.bucket('logs')).toBeUndefined();
    expect(bucket.log.filter({ op: 'deleteBucket' })).toMatchObject([
      { surface: 'api', status: 'error' },
      { surface: 'api', status: 'ok' },
    ]);
  });
});
