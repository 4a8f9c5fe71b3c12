/**
 * Sippy (issue 28, point 2; lib/r2-api/sippy.ts, lib/bucket/sippy.ts): enabled through the
 * `cloudflare` SDK (`r2.buckets.sippy.update/get/delete`) in process, and through
 * `wrangler r2 bucket sippy enable|get|disable` against `api serve`. The source is another S3 view
 * (an in-process `S3Api`, or `r2 serve` over HTTP) named as the account's stand-in for AWS and GCS.
 * With Sippy on, a read of a key the bucket lacks through any surface (the binding, the S3 view, the
 * API's object route) answers the source's object and copies it in; off, nothing is fetched.
 */
import Cloudflare from 'cloudflare';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CloudflareApi, useSippySource } from '../../lib/cloudflare-api/index.js';
import { Bucket } from '../../lib/bucket.js';
import { S3Api } from '../../lib/s3/api.js';
import { startS3Server } from '../../lib/node/account-server.js';
import { runCli, type CliIo } from '../../lib/node/commands.js';
import { CREDENTIALS, sdk } from '../s3/support.js';
import { startWrangler, WRANGLER_TIMEOUT, type WranglerHarness } from '../helpers/wrangler.js';

const BASE = 'https://api.cloudflare.com/client/v4';
const SOURCE_KEYS = { accessKeyId: 'AKIASOURCE000000', secretAccessKey: 'source-secret-0123456789' };
const R2_KEYS = { provider: 'r2' as const, accessKeyId: 'r2-key-id', secretAccessKey: 'r2-secret' };
const aws = (bucket = 'legacy', keys = SOURCE_KEYS) => ({
  provider: 'aws' as const,
  bucket,
  region: 'us-east-1',
  ...keys,
});

let api: CloudflareApi;
let cf: Cloudflare;
let photos: Bucket;
let legacy: Bucket;
let account_id: string;

beforeEach(() => {
  api = new CloudflareApi({ buckets: ['photos'] });
  account_id = api.account.id;
  photos = api.account.bucket('photos')!;
  legacy = new Bucket();
  // The stand-in for the AWS bucket: an S3 view that takes only the source's key pair.
  const source = new S3Api({ buckets: { legacy }, credentials: [SOURCE_KEYS] });
  useSippySource(api, { endpoint: 'https://source.example', fetch: (r) => source.fetch(r) });
  cf = new Cloudflare({
    apiToken: 'any-token',
    apiKey: null,
    apiEmail: null,
    baseURL: BASE,
    fetch: api.fetch,
    maxRetries: 0,
  });
});

const raw = (method: string, body?: unknown) =>
  api.fetch(`${BASE}/accounts/${account_id}/r2/buckets/photos/sippy`, {
    method,
    headers: { authorization: 'Bearer t' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

describe('the configuration', () => {
  it('enable answers and get shows the source without its secrets; disable answers enabled: false and get is 404 10007', async () => {
    const enabled = await cf.r2.buckets.sippy.update('photos', { account_id, source: aws(), destination: R2_KEYS });
    const expected = {
      enabled: true,
      source: { provider: 'aws', bucket: 'legacy', region: 'us-east-1' },
      destination: { provider: 'r2', account: account_id, bucket: 'photos', accessKeyId: 'r2-key-id' },
    };
    expect(enabled).toEqual(expected);
    expect(await cf.r2.buckets.sippy.get('photos', { account_id })).toEqual(expected);
    expect(await cf.r2.buckets.sippy.delete('photos', { account_id })).toEqual({ enabled: false });
    const off = await raw('GET');
    expect([off.status, (await off.json()).errors[0].code]).toEqual([404, 10007]);
  });

  it("takes wrangler's GCS shape; refuses a shape missing a field, or another provider (10040), and a missing bucket (10006)", async () => {
    const gcs = {
      provider: 'gcs',
      bucket: 'legacy',
      clientEmail: 'svc@project.iam.gserviceaccount.com',
      privateKey: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n',
    };
    expect((await raw('PUT', { source: gcs, destination: R2_KEYS })).status).toBe(200);
    expect((await cf.r2.buckets.sippy.get('photos', { account_id })).source).toEqual({
      provider: 'gcs',
      bucket: 'legacy',
    });
    const code = async (body: unknown) => {
      const res = await raw('PUT', body);
      return [res.status, (await res.json()).errors[0]?.code];
    };
    expect(await code({ source: { ...gcs, privateKey: undefined }, destination: R2_KEYS })).toEqual([400, 10040]);
    expect(await code({ source: { ...aws(), region: undefined }, destination: R2_KEYS })).toEqual([400, 10040]);
    expect(await code({ source: { provider: 'azure', container: 'c' }, destination: R2_KEYS })).toEqual([400, 10040]);
    expect(await code({ source: aws() })).toEqual([400, 10040]);
    const missing = await api.fetch(`${BASE}/accounts/${account_id}/r2/buckets/nope/sippy`, {
      headers: { authorization: 'Bearer t' },
    });
    expect((await missing.json()).errors[0].code).toBe(10006);
  });
});

describe("an S3-compatible source (the schema's r2_enable_sippy_s3, 2026)", () => {
  const s3Source = (bucketUrl = 'https://s3.provider.example/legacy', keys = SOURCE_KEYS) => ({
    provider: 's3' as const,
    bucketUrl,
    ...keys,
  });

  it('is taken, shown with its bucketUrl and without its secrets, and read through the stand-in', async () => {
    await legacy.put('cat.txt', 'meow');
    const enabled = await cf.r2.buckets.sippy.update('photos', {
      account_id,
      source: s3Source(),
      destination: R2_KEYS,
    });
    const expected = {
      enabled: true,
      source: { provider: 's3', bucketUrl: 'https://s3.provider.example/legacy' },
      destination: { provider: 'r2', account: account_id, bucket: 'photos', accessKeyId: 'r2-key-id' },
    };
    expect(enabled).toEqual(expected);
    expect(await cf.r2.buckets.sippy.get('photos', { account_id })).toEqual(expected);
    // The bucket the URL names (its path, or a virtual host's first label) is read with the source's key pair.
    expect(await (await photos.get('cat.txt'))!.text()).toBe('meow');
    await legacy.put('dog.txt', 'woof');
    await cf.r2.buckets.sippy.update('photos', {
      account_id,
      source: s3Source('https://legacy.s3.provider.example'),
      destination: R2_KEYS,
    });
    expect(await (await photos.get('dog.txt'))!.text()).toBe('woof');
    await legacy.put('fish.txt', 'blub');
    await cf.r2.buckets.sippy.update('photos', {
      account_id,
      source: s3Source(undefined, { ...SOURCE_KEYS, secretAccessKey: 'wrong' }),
      destination: R2_KEYS,
    });
    expect(await photos.get('fish.txt')).toBeNull();
  });

  it('refuses an S3 source without its URL or key pair, or with a URL that names no bucket (10040)', async () => {
    for (const source of [
      { ...s3Source(), bucketUrl: undefined },
      { ...s3Source(), accessKeyId: undefined },
      { ...s3Source(), secretAccessKey: '' },
      s3Source('not a url'),
      s3Source('ftp://s3.provider.example/legacy'),
      s3Source('http://127.0.0.1:9000'),
      s3Source('http://localhost:9000/'),
    ]) {
      const res = await raw('PUT', { source, destination: R2_KEYS });
      expect([res.status, (await res.json()).errors[0]?.code], JSON.stringify(source)).toEqual([400, 10040]);
    }
    expect((await raw('GET')).status).toBe(404);
  });
});

describe('reads with Sippy on', () => {
  beforeEach(async () => {
    await legacy.put('cat.txt', 'meow', {
      httpMetadata: { contentType: 'text/plain', cacheControl: 'max-age=60' },
      customMetadata: { from: 'aws' },
    });
    await legacy.put('dog.txt', 'woof');
    await legacy.put('fish.txt', 'blub');
  });

  it('the binding gets a missing key from the source, which is copied in with its metadata and stays', async () => {
    expect(await photos.get('cat.txt')).toBeNull(); // off: nothing fetched
    await cf.r2.buckets.sippy.update('photos', { account_id, source: aws(), destination: R2_KEYS });
    const got = await photos.get('cat.txt');
    expect(await got!.text()).toBe('meow');
    expect(got!.httpMetadata).toMatchObject({ contentType: 'text/plain', cacheControl: 'max-age=60' });
    expect(got!.customMetadata).toEqual({ from: 'aws' });
    await legacy.delete('cat.txt');
    await cf.r2.buckets.sippy.delete('photos', { account_id });
    expect(await (await photos.get('cat.txt'))!.text()).toBe('meow'); // copied, not proxied
    expect(await photos.get('dog.txt')).toBeNull(); // off again
  });

  it('through the S3 view, the API object route and the public host too; a key the source lacks stays missing', async () => {
    await legacy.put('bird.txt', 'tweet');
    await cf.r2.buckets.sippy.update('photos', { account_id, source: aws(), destination: R2_KEYS });
    await cf.r2.buckets.domains.managed.update('photos', { account_id, enabled: true });
    const pub = await api.public.fetch(`https://${api.public.managedDomain('photos')}/bird.txt`);
    expect([pub.status, await pub.text()]).toEqual([200, 'tweet']);
    const s3 = sdk(new S3Api({ api, credentials: [CREDENTIALS] }).fetch);
    expect(
      await (await s3.send(new GetObjectCommand({ Bucket: 'photos', Key: 'dog.txt' }))).Body!.transformToString(),
    ).toBe('woof');
    const viaApi = await cf.r2.buckets.objects.get('fish.txt', { account_id, bucket_name: 'photos' });
    expect(await (viaApi as Response).text()).toBe('blub');
    expect((await photos.list()).objects.map((o) => o.key)).toEqual(['bird.txt', 'dog.txt', 'fish.txt']);
    await expect(s3.send(new GetObjectCommand({ Bucket: 'photos', Key: 'nowhere.txt' }))).rejects.toMatchObject({
      name: 'NoSuchKey',
    });
  });

  it('the source is read with the key pair Sippy was given: a wrong secret fetches nothing', async () => {
    await cf.r2.buckets.sippy.update('photos', {
      account_id,
      source: aws('legacy', { ...SOURCE_KEYS, secretAccessKey: 'wrong' }),
      destination: R2_KEYS,
    });
    expect(await photos.get('cat.txt')).toBeNull();
  });

  it('reads of one missing key at once fetch it once', async () => {
    await cf.r2.buckets.sippy.update('photos', { account_id, source: aws(), destination: R2_KEYS });
    const texts = await Promise.all([1, 2, 3].map(async () => (await photos.get('cat.txt'))!.text()));
    expect(texts).toEqual(['meow', 'meow', 'meow']);
    expect((await photos.list()).objects.map((o) => o.key)).toEqual(['cat.txt']);
  });
});

describe('wrangler r2 bucket sippy, against api serve, with r2 serve as the source', () => {
  let w: WranglerHarness;
  let source: Awaited<ReturnType<typeof startS3Server>>;
  let files: Bucket;

  beforeAll(async () => {
    const old = new Bucket();
    await old.put('photos/2019/beach.jpg', 'jpeg bytes', { httpMetadata: { contentType: 'image/jpeg' } });
    source = await startS3Server({ buckets: { 'old-bucket': old }, credentials: [SOURCE_KEYS] });
    const served = new CloudflareApi({ buckets: ['files'] });
    useSippySource(served, { endpoint: source.endpoint });
    w = await startWrangler({ api: served });
    files = served.account.bucket('files')!;
  }, WRANGLER_TIMEOUT);
  afterAll(async () => {
    await w?.close();
    await source?.close();
  });

  it(
    'enable (AWS), get, then a binding read copies the object in; disable stops it',
    async () => {
      await w.ok(
        'r2',
        'bucket',
        'sippy',
        'enable',
        'files',
        '--provider',
        'AWS',
        '--bucket',
        'old-bucket',
        '--region',
        'us-east-1',
        '--access-key-id',
        SOURCE_KEYS.accessKeyId,
        '--secret-access-key',
        SOURCE_KEYS.secretAccessKey,
        '--r2-access-key-id',
        'r2-key-id',
        '--r2-secret-access-key',
        'r2-secret',
      );
      expect((await w.ok('r2', 'bucket', 'sippy', 'get', 'files')).output).toContain('old-bucket');
      const got = await files.get('photos/2019/beach.jpg');
      expect([await got!.text(), got!.httpMetadata?.contentType]).toEqual(['jpeg bytes', 'image/jpeg']);
      await w.ok('r2', 'bucket', 'sippy', 'disable', 'files');
      expect((await w.ok('r2', 'bucket', 'sippy', 'get', 'files')).output).toContain(
        "No Sippy configuration found for the 'files' bucket.",
      );
    },
    WRANGLER_TIMEOUT,
  );
});

describe('api serve --sippy-endpoint', () => {
  it('names the source for the served account: a bucket with Sippy on reads a missing key from it', async () => {
    const old = new Bucket();
    await old.put('a.txt', 'from the old store');
    const source = await startS3Server({ buckets: { old } });
    const out: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => stopped };
    const running = runCli(
      ['api', 'serve', '--port', '0', '--bucket', 'files', '--sippy-endpoint', source.endpoint],
      io,
    );
    try {
      for (let i = 0; i < 500 && !out.some((l) => l.startsWith('sippy source')); i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(out).toContain(`sippy source ${source.endpoint}`);
      const baseURL = /listening on (\S+)/.exec(out[0]!)![1]!;
      const account = /^account (\w+)/.exec(out.find((l) => l.startsWith('account '))!)![1]!;
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${baseURL}/accounts/${account}/r2/buckets/files/${path}`, {
          method,
          headers: { authorization: 'Bearer any-token-0123456789' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      expect((await call('PUT', 'sippy', { source: aws('old'), destination: R2_KEYS })).status).toBe(200);
      const got = await call('GET', 'objects/a.txt');
      expect([got.status, await got.text()]).toEqual([200, 'from the old store']);
    } finally {
      stop();
      await running;
      await source.close();
    }
  });

  it('refuses a value that is not an http(s) URL', async () => {
    const io: CliIo = { out: () => {}, err: () => {}, stopped: () => Promise.resolve() };
    await expect(runCli(['api', 'serve', '--port', '0', '--sippy-endpoint', 'old-bucket'], io)).rejects.toThrow(
      '--sippy-endpoint must be an http(s) URL, got old-bucket',
    );
  });
});
