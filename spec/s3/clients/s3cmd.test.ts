/**
 * s3cmd (Debian package `s3cmd`) against the S3 view over HTTP: `expire` writes a lifecycle rule
 * (PutBucketLifecycleConfiguration; s3cmd sends the older top-level `<Prefix>`), `getlifecycle`
 * reads the rules back (GetBucketLifecycleConfiguration), `dellifecycle` removes them. Each step is
 * checked on the bucket itself: its rules, and objects written through the binding expiring on the
 * bucket's clock.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bucket } from 'edge-doubles/bucket';
import { startS3Server } from 'edge-doubles/node';
import { bucketLayer } from '../../../lib/bucket/internal.js';
import { ManualClock } from '../../../lib/clock.js';
import { CREDENTIALS } from '../support.js';
import { debianCommand } from '../../helpers/debian-command.js';

const run = promisify(execFile);
const s3cmd = debianCommand('s3cmd', 's3cmd');
const DAY = 86_400_000;

describe.skipIf(!s3cmd)(
  `s3cmd expire / getlifecycle / dellifecycle ${s3cmd ? '' : '(skipped: the Debian package s3cmd is not installed)'}`,
  () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const photos = new Bucket({ clock });
    const config = bucketLayer(photos)!.config;
    let server: Awaited<ReturnType<typeof startS3Server>>;
    let home: string;
    let cmd: (...args: string[]) => Promise<string>;

    beforeAll(async () => {
      server = await startS3Server({ buckets: { photos }, credentials: [CREDENTIALS] });
      home = mkdtempSync(join(tmpdir(), 'edge-doubles-s3cmd-'));
      const host = new URL(server.endpoint).host;
      const configFile = join(home, 's3cfg');
      // Path-style requests (host_bucket without %(bucket)s), plain HTTP, SigV4 in region auto.
      writeFileSync(
        configFile,
        [
          '[default]',
          `access_key = ${CREDENTIALS.accessKeyId}`,
          `secret_key = ${CREDENTIALS.secretAccessKey}`,
          `host_base = ${host}`,
          `host_bucket = ${host}`,
          'use_https = False',
          'bucket_location = auto',
          'signature_v2 = False',
          '',
        ].join('\n'),
      );
      cmd = async (...args) =>
        (
          await run(s3cmd!, ['-c', configFile, ...args], {
            env: { PATH: process.env.PATH, HOME: home },
            cwd: home,
            timeout: 30_000,
          })
        ).stdout;
    });

    afterAll(async () => {
      await server?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it('expire sets one rule (replacing the default one); objects under its prefix expire on the clock', async () => {
      await cmd('expire', 's3://photos', '--expiry-days=3', '--expiry-prefix=logs/');
      expect(config.lifecycle).toEqual([
        expect.objectContaining({
          enabled: true,
          conditions: { prefix: 'logs/' },
          deleteObjectsTransition: { condition: { type: 'Age', maxAge: 3 * 86400 } },
        }),
      ]);
      await photos.put('logs/a', 'a');
      await photos.put('keep', 'k');
      clock.advance(3 * DAY);
      expect(await photos.head('logs/a')).toBeNull();
      expect(await photos.head('keep')).not.toBeNull();
    }, 30_000);

    it('getlifecycle prints the rules as a LifecycleConfiguration', async () => {
      const out = await cmd('getlifecycle', 's3://photos');
      expect(out).toContain('<Prefix>logs/</Prefix>');
      expect(out).toContain('<Days>3</Days>');
      expect(out).toContain('<Status>Enabled</Status>');
    }, 30_000);

    it('dellifecycle removes every rule', async () => {
      await cmd('dellifecycle', 's3://photos');
      expect(config.lifecycle).toEqual([]);
    }, 30_000);
  },
);
