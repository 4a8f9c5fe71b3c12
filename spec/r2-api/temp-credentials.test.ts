/**
 * R2's temporary access credentials (issue 28, point 4): the official `cloudflare` SDK mints them
 * (`client.r2.temporaryCredentials.create`) against `CloudflareApi`, and the AWS SDK uses them
 * against the S3 view over the same account: allowed inside their bucket, paths and permission,
 * refused outside them (403 AccessDenied) and after they expire on the double's clock (400
 * ExpiredToken, S3's answer: R2's is not documented, lib/s3/temporary-access.ts).
 */
import Cloudflare from 'cloudflare';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetBucketCorsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { ManualClock, systemClock } from '../../lib/clock.js';
import { S3Api } from '../../lib/s3/api.js';
import type { Bucket } from '../../lib/bucket.js';
import { CREDENTIALS, ENDPOINT, sdk } from '../s3/support.js';
import { r2Client } from '../s3/client.js';

const BASE = 'https://api.cloudflare.com/client/v4';
type Permission = 'admin-read-write' | 'admin-read-only' | 'object-read-write' | 'object-read-only';

let clock: ManualClock;
let api: CloudflareApi;
let s3: S3Api;
let cf: Cloudflare;
let photos: Bucket;

function setup(credentials: boolean) {
  clock = new ManualClock(Date.now());
  api = new CloudflareApi({ clock, buckets: ['photos', 'other'] });
  // State time on the manual clock; signatures judged by the system clock the AWS SDK signs with.
  s3 = new S3Api({ api, clock, signatureClock: systemClock, ...(credentials ? { credentials: [CREDENTIALS] } : {}) });
  cf = new Cloudflare({
    apiToken: 'any-token',
    apiKey: null,
    apiEmail: null,
    baseURL: BASE,
    fetch: api.fetch,
    maxRetries: 0,
  });
  photos = api.account.bucket('photos')!;
}

async function mint(
  permission: Permission,
  scope: { prefixes?: string[]; objects?: string[]; bucket?: string; ttlSeconds?: number } = {},
): Promise<S3Client> {
  const { bucket = 'photos', ttlSeconds = 900, ...paths } = scope;
  const minted = await cf.r2.temporaryCredentials.create({
    account_id: api.account.id,
    bucket,
    parentAccessKeyId: CREDENTIALS.accessKeyId,
    permission,
    ttlSeconds,
    ...paths,
  });
  const { accessKeyId, secretAccessKey, sessionToken } = minted;
  return r2Client(
    ENDPOINT,
    { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey!, sessionToken: sessionToken! },
    s3.fetch,
  );
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'allowed',
    (e: { name: string; $metadata?: { httpStatusCode?: number } }) => `${e.$metadata?.httpStatusCode} ${e.name}`,
  );

const mintRaw = (body: unknown) =>
  api.fetch(`${BASE}/accounts/${api.account.id}/r2/temp-access-credentials`, {
    method: 'POST',
    headers: { authorization: 'Bearer any-token', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('minting', () => {
  beforeEach(() => setup(true));

  it("answers R2's shape: the parent's key id, a secret of its own and a jwt/ session token", async () => {
    const minted = await cf.r2.temporaryCredentials.create({
      account_id: api.account.id,
      bucket: 'photos',
      parentAccessKeyId: CREDENTIALS.accessKeyId,
      permission: 'object-read-write',
      ttlSeconds: 60,
    });
    expect(minted.accessKeyId).toBe(CREDENTIALS.accessKeyId);
    expect(minted.secretAccessKey).toMatch(/^[0-9a-f]{64}$/);
    expect(minted.secretAccessKey).not.toBe(CREDENTIALS.secretAccessKey);
    expect(atob(minted.sessionToken!)).toMatch(/^jwt\/[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('refuses a bucket the account lacks (10006), an unknown parent key, and a body outside the schema (10040)', async () => {
    const good = {
      bucket: 'photos',
      parentAccessKeyId: CREDENTIALS.accessKeyId,
      permission: 'object-read-only',
      ttlSeconds: 60,
    };
    const codes = async (body: unknown) => {
      const res = await mintRaw(body);
      return [res.status, ...((await res.json()) as { errors: { code: number }[] }).errors.map((e) => e.code)].slice(
        0,
        2,
      );
    };
    expect(await codes({ ...good, bucket: 'nope' })).toEqual([404, 10006]);
    expect(await codes({ ...good, parentAccessKeyId: 'not-a-key' })).toEqual([400, 10040]);
    expect(await codes({ ...good, permission: 'everything' })).toEqual([400, 10040]);
    expect(await codes({ ...good, ttlSeconds: 604801 })).toEqual([400, 10040]);
    expect(await codes({ ...good, ttlSeconds: 0 })).toEqual([400, 10040]);
    expect(await codes({ ...good, prefixes: 'a/' })).toEqual([400, 10040]);
    expect((await mintRaw({ ...good, ttlSeconds: 604800 })).status).toBe(200);
  });

  it('needs the API token to hold R2 write', async () => {
    const readOnly = new CloudflareApi({ buckets: ['photos'], credentials: [{ token: 'reader', r2: 'read' }] });
    const res = await readOnly.fetch(`${BASE}/accounts/${readOnly.account.id}/r2/temp-access-credentials`, {
      method: 'POST',
      headers: { authorization: 'Bearer reader' },
      body: JSON.stringify({
        bucket: 'photos',
        parentAccessKeyId: 'k',
        permission: 'object-read-only',
        ttlSeconds: 60,
      }),
    });
    expect(res.status).toBe(403);
  });
});

describe('using them over S3', () => {
  beforeEach(() => setup(true));

  it('object-read-write on a prefix: writes and reads inside it; outside it, and another bucket, are AccessDenied', async () => {
    const client = await mint('object-read-write', { prefixes: ['uploads/alice/'] });
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'uploads/alice/cat.jpg', Body: 'meow' }));
    expect(await (await photos.get('uploads/alice/cat.jpg'))!.text()).toBe('meow');
    expect(
      await (
        await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'uploads/alice/cat.jpg' }))
      ).Body!.transformToString(),
    ).toBe('meow');
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'photos', Prefix: 'uploads/alice/' }));
    expect(listed.Contents!.map((o) => o.Key)).toEqual(['uploads/alice/cat.jpg']);

    expect(
      await refusal(client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'uploads/bob/cat.jpg', Body: 'x' }))),
    ).toBe('403 AccessDenied');
    expect(await refusal(client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'secret.txt' })))).toBe(
      '403 AccessDenied',
    );
    expect(await refusal(client.send(new ListObjectsV2Command({ Bucket: 'photos' })))).toBe('403 AccessDenied');
    expect(
      await refusal(client.send(new PutObjectCommand({ Bucket: 'other', Key: 'uploads/alice/x', Body: 'x' }))),
    ).toBe('403 AccessDenied');
    expect(await photos.head('uploads/bob/cat.jpg')).toBeNull();
    expect(await api.account.bucket('other')!.head('uploads/alice/x')).toBeNull();
  });

  it('a copy from outside the paths, and a multi-delete naming a key outside them, are refused whole', async () => {
    await photos.put('private/plans.txt', 'secret');
    await photos.put('uploads/alice/keep.txt', 'keep');
    const client = await mint('object-read-write', { prefixes: ['uploads/alice/'] });
    expect(
      await refusal(
        client.send(
          new CopyObjectCommand({
            Bucket: 'photos',
            Key: 'uploads/alice/stolen.txt',
            CopySource: 'photos/private/plans.txt',
          }),
        ),
      ),
    ).toBe('403 AccessDenied');
    expect(await photos.head('uploads/alice/stolen.txt')).toBeNull();
    const both = { Objects: [{ Key: 'uploads/alice/keep.txt' }, { Key: 'private/plans.txt' }] };
    expect(await refusal(client.send(new DeleteObjectsCommand({ Bucket: 'photos', Delete: both })))).toBe(
      '403 AccessDenied',
    );
    expect(await photos.head('private/plans.txt')).not.toBeNull();
    expect(await photos.head('uploads/alice/keep.txt')).not.toBeNull();
  });

  it('objects: exact keys only', async () => {
    const client = await mint('object-read-write', { objects: ['reports/q1.pdf'] });
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'reports/q1.pdf', Body: 'pdf' }));
    expect(
      await refusal(client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'reports/q1.pdf.bak', Body: 'x' }))),
    ).toBe('403 AccessDenied');
  });

  it('object-read-only reads but never writes; bucket settings are not an object permission', async () => {
    await photos.put('a.txt', 'hello');
    const client = await mint('object-read-only');
    expect(
      await (await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' }))).Body!.transformToString(),
    ).toBe('hello');
    expect(await refusal(client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'a.txt', Body: 'changed' })))).toBe(
      '403 AccessDenied',
    );
    expect(await refusal(client.send(new GetBucketCorsCommand({ Bucket: 'photos' })))).toBe('403 AccessDenied');
    expect(await (await photos.get('a.txt'))!.text()).toBe('hello');
  });

  it('admin-read-only reads settings but cannot change them; admin-read-write can', async () => {
    const cors = { CORSRules: [{ AllowedOrigins: ['https://app.example'], AllowedMethods: ['GET'] }] };
    const reader = await mint('admin-read-only');
    expect(await refusal(reader.send(new PutBucketCorsCommand({ Bucket: 'photos', CORSConfiguration: cors })))).toBe(
      '403 AccessDenied',
    );
    const admin = await mint('admin-read-write');
    await admin.send(new PutBucketCorsCommand({ Bucket: 'photos', CORSConfiguration: cors }));
    expect((await reader.send(new GetBucketCorsCommand({ Bucket: 'photos' }))).CORSRules![0]!.AllowedOrigins).toEqual([
      'https://app.example',
    ]);
  });

  it('refused with ExpiredToken once the clock passes their lifetime', async () => {
    await photos.put('a.txt', 'hello');
    const client = await mint('object-read-only', { ttlSeconds: 60 });
    clock.advance(60_000);
    expect(
      await (await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' }))).Body!.transformToString(),
    ).toBe('hello');
    clock.advance(1);
    expect(await refusal(client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' })))).toBe(
      '400 ExpiredToken',
    );
  });

  it('the session token is needed, and the temporary secret with it: the parent secret does not sign for it', async () => {
    const minted = await cf.r2.temporaryCredentials.create({
      account_id: api.account.id,
      bucket: 'photos',
      parentAccessKeyId: CREDENTIALS.accessKeyId,
      permission: 'object-read-only',
      ttlSeconds: 60,
    });
    const withoutToken = sdk(s3.fetch, undefined, {
      accessKeyId: minted.accessKeyId!,
      secretAccessKey: minted.secretAccessKey!,
    });
    expect(await refusal(withoutToken.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' })))).toBe(
      '403 SignatureDoesNotMatch',
    );
    const parentSecret = r2Client(ENDPOINT, { ...CREDENTIALS, sessionToken: minted.sessionToken! }, s3.fetch);
    expect(await refusal(parentSecret.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' })))).toBe(
      '403 SignatureDoesNotMatch',
    );
  });

  it('a presigned URL carrying X-Amz-Security-Token is held to the same grant', async () => {
    await photos.put('uploads/alice/a.txt', 'mine');
    await photos.put('private/b.txt', 'not mine');
    const client = await mint('object-read-only', { prefixes: ['uploads/alice/'] });
    const inside = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'photos', Key: 'uploads/alice/a.txt' }), {
      expiresIn: 300,
    });
    expect(inside).toContain('X-Amz-Security-Token=');
    expect(await (await s3.fetch(inside)).text()).toBe('mine');
    const outside = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'photos', Key: 'private/b.txt' }), {
      expiresIn: 300,
    });
    expect((await s3.fetch(outside)).status).toBe(403);
    clock.advance(901_000);
    const late = await s3.fetch(inside);
    expect([late.status, /<Code>(\w+)</.exec(await late.text())?.[1]]).toEqual([400, 'ExpiredToken']);
  });
});

describe('over an S3 view that accepts any signature', () => {
  beforeEach(() => setup(false));

  it('any parent key id is taken, and what is minted is still checked: signature, scope and expiry', async () => {
    const client = await mint('object-read-write', { prefixes: ['in/'], ttlSeconds: 10 });
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'in/a', Body: 'x' }));
    expect(await refusal(client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'out/a', Body: 'x' })))).toBe(
      '403 AccessDenied',
    );
    clock.advance(10_001);
    expect(await refusal(client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'in/b', Body: 'x' })))).toBe(
      '400 ExpiredToken',
    );
  });
});
