/**
 * rclone (Debian package `rclone`) against the S3 view over HTTP, configured for Cloudflare as its
 * docs say (provider Cloudflare, region auto). rclone is written in Go: its multipart uploads and
 * copies send CompleteMultipartUpload with the ETags escaped as `&#34;`, which the S3 view must read.
 * Every step's effect is checked through the `Bucket` binding, not through rclone's own report.
 * It runs on a bucket in memory and on one kept in IndexedDB (fake-indexeddb): both surfaces go
 * through the bucket's one layer, so what rclone writes the binding reads on either storage.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { Bucket, IndexedDbStorage } from 'edge-doubles/bucket';
import { startS3Server } from 'edge-doubles/node';
import { CREDENTIALS } from '../support.js';
import { debianCommand } from '../../helpers/debian-command.js';

const run = promisify(execFile);

const rclone = debianCommand('rclone', 'rclone');

const MiB = 1024 * 1024;
/** Deterministic bytes that differ from part to part (a part swapped or repeated would show). */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x >>> 16;
  }
  return out;
}
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');
const bodyMd5 = async (bucket: Bucket, key: string) => {
  const o = await bucket.get(key);
  return o ? md5(new Uint8Array(await o.arrayBuffer())) : undefined;
};
const keys = async (bucket: Bucket, prefix: string) => (await bucket.list({ prefix })).objects.map((o) => o.key).sort();

const storages = {
  memory: () => new Bucket(),
  indexeddb: () => new Bucket({ storage: new IndexedDbStorage({ name: 'rclone', indexedDB: new IDBFactory() }) }),
};

(rclone ? describe : describe.skip).each(Object.keys(storages) as (keyof typeof storages)[])(
  `rclone on %s storage ${rclone ? '' : '(skipped: the Debian package rclone is not installed)'}`,
  (storage) => {
    const photos = storages[storage]();
    let server: Awaited<ReturnType<typeof startS3Server>>;
    let home: string;
    let src: string;
    let env: NodeJS.ProcessEnv;
    const big = bytes(11 * MiB + 123, 7); // three 5 MiB parts at most: 5 + 5 + 1
    const rc = (...args: string[]) =>
      run(rclone!, ['--retries', '1', '--low-level-retries', '1', ...args], {
        env,
        cwd: home,
        timeout: 60_000,
        maxBuffer: 64 * MiB,
        encoding: 'buffer',
      });

    beforeAll(async () => {
      server = await startS3Server({ buckets: { photos }, credentials: [CREDENTIALS] });
      home = mkdtempSync(join(tmpdir(), 'edge-doubles-rclone-'));
      src = join(home, 'src');
      mkdirSync(join(src, 'sub'), { recursive: true });
      writeFileSync(join(src, 'big.bin'), big);
      writeFileSync(join(src, 'hello.txt'), 'hello from rclone\n');
      writeFileSync(join(src, `it's "quoted" & <odd>.txt`), 'xml-hostile name\n');
      writeFileSync(join(src, 'sub', 'gone.txt'), 'deleted by sync\n');
      const configFile = join(home, 'rclone.conf');
      writeFileSync(configFile, ''); // a throwaway config: the remote comes from the environment
      env = {
        PATH: process.env.PATH,
        HOME: home,
        RCLONE_CONFIG: configFile,
        RCLONE_CONFIG_R2_TYPE: 's3',
        RCLONE_CONFIG_R2_PROVIDER: 'Cloudflare',
        RCLONE_CONFIG_R2_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        RCLONE_CONFIG_R2_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        RCLONE_CONFIG_R2_ENDPOINT: server.endpoint,
        RCLONE_CONFIG_R2_REGION: 'auto',
        // rclone 1.60 sends CreateBucket before writing to a prefix it has not listed (a server-side
        // copy to a new folder) and takes a 409 as success only for AWS's BucketAlreadyOwnedByYou or
        // BucketAlreadyExists; R2 documents BucketConflict for an existing name (lib/s3/errors.ts).
        // no_check_bucket skips that call, as guides for R2's bucket-scoped tokens advise.
        RCLONE_CONFIG_R2_NO_CHECK_BUCKET: 'true',
      };
    });
    afterAll(async () => {
      await server?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it('copy with 5 MiB chunks: a multipart upload whose Complete carries Go-escaped ETags', async () => {
      await rc('copy', src, 'r2:photos/set', '--s3-chunk-size', '5M', '--s3-upload-cutoff', '5M');
      expect(await keys(photos, 'set/')).toEqual(
        ['set/big.bin', 'set/hello.txt', `set/it's "quoted" & <odd>.txt`, 'set/sub/gone.txt'].sort(),
      );
      const stored = await photos.head('set/big.bin');
      expect(stored?.size).toBe(big.length);
      expect(stored?.etag).toMatch(/-3$/);
      expect(await bodyMd5(photos, 'set/big.bin')).toBe(md5(big));
      expect(await (await photos.get(`set/it's "quoted" & <odd>.txt`))!.text()).toBe('xml-hostile name\n');
    }, 90_000);

    it('check finds the bucket equal to the source', async () => {
      await rc('check', src, 'r2:photos/set');
    }, 60_000);

    it('sync deletes what the source no longer has and uploads what it gained', async () => {
      unlinkSync(join(src, 'sub', 'gone.txt'));
      writeFileSync(join(src, 'new.txt'), 'arrived by sync\n');
      await rc('sync', src, 'r2:photos/set');
      expect(await keys(photos, 'set/')).toEqual(
        ['set/big.bin', 'set/hello.txt', `set/it's "quoted" & <odd>.txt`, 'set/new.txt'].sort(),
      );
      expect(await (await photos.get('set/new.txt'))!.text()).toBe('arrived by sync\n');
    }, 60_000);

    it('copyto within the remote: a server-side copy, multipart (UploadPartCopy) past the copy cutoff', async () => {
      await rc(
        'copyto',
        'r2:photos/set/big.bin',
        'r2:photos/copy/big.bin',
        '--s3-copy-cutoff',
        '5M',
        '--s3-chunk-size',
        '5M',
      );
      const copied = await photos.head('copy/big.bin');
      expect(copied?.size).toBe(big.length);
      expect(copied?.etag).toMatch(/-\d+$/);
      expect(await bodyMd5(photos, 'copy/big.bin')).toBe(md5(big));
      await rc('copyto', 'r2:photos/set/hello.txt', 'r2:photos/copy/hello.txt');
      expect(await (await photos.get('copy/hello.txt'))!.text()).toBe('hello from rclone\n');
    }, 90_000);

    it('cat with --offset and --count reads a range', async () => {
      const { stdout } = await rc('cat', 'r2:photos/set/big.bin', '--offset', String(5 * MiB - 10), '--count', '20');
      expect(md5(new Uint8Array(stdout))).toBe(md5(big.subarray(5 * MiB - 10, 5 * MiB + 10)));
    }, 60_000);

    it('purge removes the prefix and nothing else', async () => {
      await rc('purge', 'r2:photos/set');
      expect(await keys(photos, 'set/')).toEqual([]);
      expect(await keys(photos, 'copy/')).toEqual(['copy/big.bin', 'copy/hello.txt']);
    }, 60_000);
  },
);
