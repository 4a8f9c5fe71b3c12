/**
 * restic (Debian package `restic`, minio-go inside) drives the S3 view over HTTPS through its whole
 * cycle: init, backup, check --read-data, restore, forget --prune. R2 is HTTPS only, and over plain
 * HTTP minio-go signs chunk by chunk (STREAMING-AWS4-HMAC-SHA256-PAYLOAD), which R2 answers 501:
 * TLS is what makes restic usable against the double at all.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from 'edge-doubles/node';
import { CREDENTIALS } from '../support.js';
import { debianCommand } from '../../helpers/debian-command.js';

const run = promisify(execFile);

const restic = debianCommand('restic', 'restic');

describe.skipIf(!restic)(
  'restic (Debian package restic) against startS3Server({ tls: true }) (skipped where the restic package is not installed)',
  () => {
    let server: Awaited<ReturnType<typeof startS3Server>>;
    let home: string;
    const seen: { method: string; sha256: string | null }[] = [];

    beforeAll(async () => {
      server = await startS3Server({ tls: true, credentials: [CREDENTIALS] });
      server.api.addBucket('backups');
      // Record what restic sends, to check which payload signing it uses over HTTPS.
      const handle = server.api.handle.bind(server.api);
      server.api.handle = (request, target) => {
        seen.push({ method: request.method, sha256: request.headers.get('x-amz-content-sha256') });
        return handle(request, target);
      };
      home = mkdtempSync(join(tmpdir(), 'edge-doubles-restic-'));
      writeFileSync(join(home, 'ca.pem'), server.ca!);
      mkdirSync(join(home, 'data'));
      writeFileSync(join(home, 'data', 'hello.txt'), 'hello from restic\n');
      // Several MiB of varied bytes: more than one pack, so check --read-data and prune have work to do.
      const big = Buffer.alloc(6 * 1024 * 1024);
      for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
      writeFileSync(join(home, 'data', 'big.bin'), big);
    }, 30_000);
    afterAll(async () => {
      await server?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    const cli = (...args: string[]) =>
      run(restic!, ['--cacert', join(home, 'ca.pem'), '--no-cache', ...args], {
        cwd: home,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          RESTIC_REPOSITORY: `s3:${server.origin}/backups`,
          RESTIC_PASSWORD: 'correct horse battery staple',
          AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        },
        timeout: 60_000,
      });

    it('init, backup, check --read-data, restore, forget --prune', async () => {
      await cli('init');
      const first = await cli('backup', '--json', join(home, 'data'));
      const summary = first.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((m) => m.message_type === 'summary');
      expect(summary.files_new).toBe(2);

      expect((await cli('check', '--read-data')).stdout).toContain('no errors were found');

      await cli('restore', 'latest', '--target', join(home, 'restored'));
      const restored = join(home, 'restored', home, 'data');
      expect(readFileSync(join(restored, 'hello.txt'), 'utf8')).toBe('hello from restic\n');
      expect(readFileSync(join(restored, 'big.bin')).equals(readFileSync(join(home, 'data', 'big.bin')))).toBe(true);

      writeFileSync(join(home, 'data', 'hello.txt'), 'changed\n');
      await cli('backup', join(home, 'data'));
      await cli('forget', '--keep-last', '1', '--prune');
      const snapshots = JSON.parse((await cli('snapshots', '--json')).stdout) as unknown[];
      expect(snapshots).toHaveLength(1);
      expect((await cli('check', '--read-data')).stdout).toContain('no errors were found');

      // Over HTTPS minio-go does not sign chunk by chunk: restic 0.14 sends every PUT as UNSIGNED-PAYLOAD.
      const writes = seen.filter((r) => r.method === 'PUT');
      expect(writes.length).toBeGreaterThan(0);
      expect(new Set(writes.map((w) => w.sha256))).toEqual(new Set(['UNSIGNED-PAYLOAD']));
    }, 120_000);
  },
);
