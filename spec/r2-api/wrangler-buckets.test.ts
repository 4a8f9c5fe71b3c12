/**
 * `wrangler r2 bucket create/list/info/update storage-class/delete` against `api serve`, each checked
 * by its effect on a Worker's binding (createEnv over the same API) or the S3 view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListBucketsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createEnv, S3Api, type Bucket } from '../../lib/index.js';
import { CREDENTIALS, sdk } from '../s3/support.js';
import { startWrangler, WRANGLER_TIMEOUT, type WranglerHarness } from '../helpers/wrangler.js';

const quiet = { onWarning: () => {} };
const worker = { compatibility_date: '2025-01-01', r2_buckets: [{ binding: 'LOGS', bucket_name: 'logs' }] };

describe('wrangler r2 bucket, against api serve', () => {
  let w: WranglerHarness;
  beforeAll(async () => {
    w = await startWrangler({ buckets: ['existing'] });
  });
  afterAll(() => w?.close());

  it(
    'create makes the bucket a Worker binds and the S3 view lists; list shows it',
    async () => {
      const made = await w.ok(
        'r2',
        'bucket',
        'create',
        'logs',
        '--location',
        'weur',
        '--storage-class',
        'InfrequentAccess',
      );
      // 4.86 repeats the hint as given (weur), the newest wrangler upper-cases it (WEUR).
      expect(made.output).toMatch(
        /Created bucket 'logs' with location hint weur and default storage class of InfrequentAccess\./i,
      );
      const { env } = createEnv<{ LOGS: Bucket }>(worker, { ...quiet, api: w.api });
      await env.LOGS.put('a.txt', 'from the worker');
      // The bucket's default storage class, set by wrangler, is what the binding's put takes.
      expect((await env.LOGS.head('a.txt'))!.storageClass).toBe('InfrequentAccess');
      const s3 = sdk(new S3Api({ api: w.api, credentials: [CREDENTIALS] }).fetch);
      expect((await s3.send(new ListBucketsCommand({}))).Buckets!.map((b) => b.Name)).toEqual(['existing', 'logs']);
      const listed = await w.ok('r2', 'bucket', 'list');
      expect(listed.stdout).toMatch(/name:\s+existing[\s\S]*name:\s+logs/);

      const again = await w.run('r2', 'bucket', 'create', 'logs');
      expect(again.code).not.toBe(0);
      expect(again.output).toContain('The bucket you tried to create already exists, and you own it. [code: 10004]');
    },
    WRANGLER_TIMEOUT,
  );

  it(
    'info shows the location, the storage class, and the object count and size the binding wrote',
    async () => {
      const { env } = createEnv<{ LOGS: Bucket }>(worker, { ...quiet, api: w.api });
      await env.LOGS.put('b.txt', 'x'.repeat(2000));
      const info = await w.ok('r2', 'bucket', 'info', 'logs', '--json');
      const shown = JSON.parse(info.stdout.slice(info.stdout.indexOf('{')));
      expect(shown).toMatchObject({
        name: 'logs',
        location: 'WEUR',
        default_storage_class: 'InfrequentAccess',
        object_count: '2',
      });
      // payload 15 + 2000 bytes, metadata the keys' 5 + 5 bytes: 2,025 bytes, which prettyBytes shows as 2.02 kB.
      expect(shown.bucket_size).toBe('2.02 kB');
    },
    WRANGLER_TIMEOUT,
  );

  it(
    'update storage-class changes what later puts default to',
    async () => {
      await w.ok('r2', 'bucket', 'update', 'storage-class', 'logs', '--storage-class', 'Standard');
      const { env } = createEnv<{ LOGS: Bucket }>(worker, { ...quiet, api: w.api });
      await env.LOGS.put('c.txt', 'later');
      expect((await env.LOGS.head('c.txt'))!.storageClass).toBe('Standard');
      expect((await env.LOGS.head('a.txt'))!.storageClass).toBe('InfrequentAccess');
    },
    WRANGLER_TIMEOUT,
  );

  it(
    'delete is refused while the bucket holds objects (10008), then removes it from the S3 view',
    async () => {
      const refused = await w.run('r2', 'bucket', 'delete', 'logs');
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain('[code: 10008]');
      const { env } = createEnv<{ LOGS: Bucket }>(worker, { ...quiet, api: w.api });
      await env.LOGS.delete(['a.txt', 'b.txt', 'c.txt']);
      await w.ok('r2', 'bucket', 'delete', 'logs');
      const s3 = sdk(new S3Api({ api: w.api, credentials: [CREDENTIALS] }).fetch);
      expect((await s3.send(new ListBucketsCommand({}))).Buckets!.map((b) => b.Name)).toEqual(['existing']);
      await expect(s3.send(new PutObjectCommand({ Bucket: 'logs', Key: 'k', Body: 'v' }))).rejects.toMatchObject({
        name: 'NoSuchBucket',
      });
    },
    WRANGLER_TIMEOUT,
  );

  it(
    '-J eu addresses a bucket of its own: the same name in two jurisdictions',
    async () => {
      await w.ok('r2', 'bucket', 'create', 'existing', '-J', 'eu');
      const info = await w.ok('r2', 'bucket', 'info', 'existing', '-J', 'eu', '--json');
      expect(JSON.parse(info.stdout.slice(info.stdout.indexOf('{')))).toMatchObject({
        name: 'existing',
        location: 'WEUR',
      });
      const eu = await w.ok('r2', 'bucket', 'list', '-J', 'eu');
      expect(eu.stdout).toMatch(/name:\s+existing/);
      await w.ok('r2', 'bucket', 'delete', 'existing', '-J', 'eu');
      expect(w.api.account.bucket('existing')).toBeDefined();
    },
    WRANGLER_TIMEOUT,
  );
});
