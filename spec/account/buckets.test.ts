/**
 * One account's buckets through every surface: the S3 view serves the account's buckets (and
 * CreateBucket adds to them), a bucket's CORS policy is the bucket's (every S3 view of it reads the
 * same), and Workers of different compatibility dates bind one bucket's objects, each with its own
 * date's behaviour.
 */
import { describe, expect, it } from 'vitest';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  GetBucketCorsCommand,
  GetObjectCommand,
  ListBucketsCommand,
  PutBucketCorsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { Account, Bucket, createEnv, S3Api } from '../../lib/index.js';
import { CREDENTIALS, ENDPOINT, sdk } from '../s3/support.js';

const quiet = { onWarning: () => {} };
const worker = (date: string) => ({
  compatibility_date: date,
  r2_buckets: [{ binding: 'FILES', bucket_name: 'files' }],
});
const APP = 'https://app.example';

describe('the S3 view over an account', () => {
  it("serves the bucket a Worker's binding writes, and the binding reads what S3 puts", async () => {
    const account = new Account();
    const { env } = createEnv<{ FILES: Bucket }>(worker('2025-01-01'), { ...quiet, account });
    const client = sdk(new S3Api({ account, credentials: [CREDENTIALS] }).fetch);
    await client.send(new PutObjectCommand({ Bucket: 'files', Key: 'from-s3', Body: 'via S3' }));
    expect(await (await env.FILES.get('from-s3'))!.text()).toBe('via S3');
    await env.FILES.put('from-worker', 'via the binding');
    const got = await client.send(new GetObjectCommand({ Bucket: 'files', Key: 'from-worker' }));
    expect(await got.Body!.transformToString()).toBe('via the binding');
  });

  it("CreateBucket adds to the account (a later Worker binds it); DeleteBucket takes it out; ListBuckets lists the account's", async () => {
    const account = new Account();
    account.addBucket('made-in-code', new Bucket());
    const client = sdk(new S3Api({ account, credentials: [CREDENTIALS] }).fetch);
    await client.send(new CreateBucketCommand({ Bucket: 'files' }));
    expect(account.buckets).toEqual(['made-in-code', 'files']);
    const listed = await client.send(new ListBucketsCommand({}));
    expect(listed.Buckets!.map((b) => b.Name)).toEqual(['files', 'made-in-code']);
    await client.send(new PutObjectCommand({ Bucket: 'files', Key: 'k', Body: 'v' }));
    const { env } = createEnv<{ FILES: Bucket }>(worker('2025-01-01'), { ...quiet, account });
    expect(env.FILES).toBe(account.bucket('files'));
    await env.FILES.delete('k');
    await client.send(new DeleteBucketCommand({ Bucket: 'files' }));
    expect(account.buckets).toEqual(['made-in-code']);
    // A second view of the account sees the same buckets; addBucket there follows the account's rules.
    const other = new S3Api({ account });
    expect(other.bucket('made-in-code')).toBe(account.bucket('made-in-code'));
    expect(() => other.addBucket('Not_Valid')).toThrow(/invalid/);
    other.addBucket('late');
    expect(account.buckets).toEqual(['made-in-code', 'late']);
    // Given the account's own bucket under its name, a view just serves it; under another, the account refuses.
    const mine = account.bucket('late')!;
    expect(new S3Api({ account, buckets: { late: mine } }).bucket('late')).toBe(mine);
    expect(() => new S3Api({ account, buckets: { again: mine } })).toThrow(/another name/);
    // A binding over an account's bucket is that bucket: it cannot be added under a second name.
    expect(() => account.addBucket('alias', new Bucket({ over: mine, compatibilityDate: '2022-01-01' }))).toThrow(
      /another name/,
    );
  });

  it('without an account, each view keeps its own buckets, as before', async () => {
    const a = new S3Api();
    const b = new S3Api();
    a.addBucket('Any_Name_Goes');
    expect(a.bucket('Any_Name_Goes')).toBeInstanceOf(Bucket);
    expect(b.bucket('Any_Name_Goes')).toBeUndefined();
  });
});

describe("CORS is the bucket's configuration", () => {
  const rules = [{ origins: [APP], methods: ['GET'], headers: ['*'], expose: ['ETag'] }];
  const preflight = (api: S3Api) =>
    api.fetch(`${ENDPOINT}/files/k`, {
      method: 'OPTIONS',
      headers: { origin: APP, 'access-control-request-method': 'GET' },
    });

  it('two S3 views over one account see the same policy, set through either', async () => {
    const account = new Account();
    account.addBucket('files', new Bucket());
    const a = new S3Api({ account, credentials: [CREDENTIALS] });
    const b = new S3Api({ account, credentials: [CREDENTIALS] });
    await sdk(a.fetch).send(
      new PutBucketCorsCommand({
        Bucket: 'files',
        CORSConfiguration: { CORSRules: [{ AllowedOrigins: [APP], AllowedMethods: ['PUT'] }] },
      }),
    );
    const got = await sdk(b.fetch).send(new GetBucketCorsCommand({ Bucket: 'files' }));
    expect(got.CORSRules).toEqual([{ AllowedOrigins: [APP], AllowedMethods: ['PUT'] }]);
    b.setBucketCors('files', rules);
    expect((await preflight(a)).status).toBe(200);
    a.setBucketCors('files', undefined);
    expect((await preflight(b)).status).toBe(403);
  });

  it("two views given the same Bucket (no account) share it too; the caller's rules are copied", async () => {
    const files = new Bucket();
    const a = new S3Api({ buckets: { files } });
    const b = new S3Api({ buckets: { files } });
    const mine = [{ ...rules[0]!, origins: [APP] }];
    a.setBucketCors('files', mine);
    mine[0]!.origins.length = 0; // changing the array given later changes nothing
    expect((await preflight(b)).status).toBe(200);
  });

  it('a snapshot takes the policy with the objects, restore brings it back; reset keeps it', async () => {
    const files = new Bucket();
    const api = new S3Api({ buckets: { files } });
    const none = files.snapshot();
    api.setBucketCors('files', rules);
    const withRules = files.snapshot();
    files.restore(none);
    expect((await preflight(api)).status).toBe(403);
    files.restore(withRules);
    expect((await preflight(api)).status).toBe(200);
    files.reset();
    expect((await preflight(api)).status).toBe(200);
  });
});

describe('one bucket, bound by Workers of different compatibility dates', () => {
  it('an object put through a 2022-dated binding is read through a 2025-dated one, each binding with its date', async () => {
    const account = new Account();
    const old = createEnv<{ FILES: Bucket }>(worker('2022-05-01'), { ...quiet, account }).env.FILES;
    const now = createEnv<{ FILES: Bucket }>(worker('2025-01-01'), { ...quiet, account }).env.FILES;
    expect(now).not.toBe(old);
    expect(account.bucket('files')).toBe(old);
    // Before 2022-06-01, a value put cannot convert counts as null: an empty object.
    await old.put('from-2022', 42 as unknown as string, { httpMetadata: { contentType: 'text/plain' } });
    const read = await now.get('from-2022');
    expect(read!.size).toBe(0);
    expect(read!.httpMetadata).toEqual({ contentType: 'text/plain' });
    await expect(now.put('refused', 42 as unknown as string)).rejects.toThrow(TypeError);
    // Before 2022-08-04 list sends metadata whatever `include` says; from then on it honours it.
    expect((await old.list({ include: [] })).objects[0]!.httpMetadata).toEqual({ contentType: 'text/plain' });
    expect((await now.list({ include: [] })).objects[0]!.httpMetadata).toBeUndefined();
    // Before 2022-10-31 conversion errors throw at once, on the bucket and on its upload handles.
    expect(() => old.list({ prefix: 5 as unknown as string })).toThrow(TypeError);
    await expect(now.list({ prefix: 5 as unknown as string })).rejects.toThrow(TypeError);
    const upload = await now.createMultipartUpload('big');
    const resumed = old.resumeMultipartUpload('big', upload.uploadId);
    expect(() => (resumed.uploadPart as () => unknown)()).toThrow(TypeError);
    await expect((upload.uploadPart as () => Promise<unknown>)()).rejects.toThrow(TypeError);
    // Results report their class from 2024-09-26 only.
    expect(Object.prototype.toString.call(read)).toBe('[object GetResult]');
    expect(Object.prototype.toString.call(await old.head('from-2022'))).toBe('[object Object]');
  });

  it("new Bucket({ over }) shares state, faults and the log; what is the bucket's own cannot be given with it", async () => {
    const first = new Bucket({ log: true, defaultStorageClass: 'InfrequentAccess' });
    const second = new Bucket({ over: first, compatibilityDate: '2022-01-01' });
    await second.put('k', 'v');
    expect((await first.head('k'))!.storageClass).toBe('InfrequentAccess');
    first.faults.add({ op: 'get', error: 'internal' });
    await expect(second.get('k')).rejects.toThrow();
    expect(first.log.all().map((c) => c.op)).toEqual(['put', 'head', 'get']);
    for (const own of [
      { storage: undefined, log: true },
      { defaultStorageClass: 'Standard' },
      { seed: {} },
      { clock: () => 0 },
    ]) {
      expect(() => new Bucket({ over: first, ...own })).toThrow(/cannot be given with 'over'/);
    }
    expect(() => new Bucket({ over: {} as Bucket })).toThrow(
      "Bucket option 'over': expected a Bucket made by edge-doubles",
    );
  });
});
