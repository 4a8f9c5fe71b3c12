/**
 * `--persist DIR` when things go wrong, as users meet it over HTTP (the server in a process of its
 * own): a full disk, a directory that is not ours, bytes damaged on disk, snapshots' disk space, a
 * pulled message's lease across a kill. Each answered as a database's users expect: an error for
 * what failed, everything answered before intact, nothing damaged served, the server still up.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AwsClient } from 'aws4fetch';
import { afterAll, describe, expect, it } from 'vitest';
import { node, spawnCli, start, type Served } from '../helpers/persisted-server.js';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'edge-doubles-persist-fail-'));
  dirs.push(d);
  return d;
};
// No retries: a 500 is what these tests look for, once.
const aws = new AwsClient({ accessKeyId: 'id', secretAccessKey: 'secret', service: 's3', region: 'auto', retries: 0 });
const url = (s: Served, key: string) => `${s.origin}/photos/${key}`;

/** What a server that refuses to start printed, and its exit code. */
async function refusal(args: string[]): Promise<{ code: number; err: string }> {
  const child = spawnCli(args);
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, err };
}

const maybe = node.missing ? describe.skip : describe;

maybe(`--persist DIR when things go wrong${node.missing ? ` (skipped: ${node.missing})` : ''}`, () => {
  it('a DIR that is a file, or that holds files not ours, or a database not ours: refused at start in one line, left as it was', async () => {
    const file = join(tempDir(), 'state');
    writeFileSync(file, 'mine');
    const notDir = await refusal(['r2', 'serve', '--bucket', 'photos', '--persist', file]);
    expect(notDir.code).toBe(1);
    expect(notDir.err.trim().split('\n')).toHaveLength(1);
    expect(notDir.err).toContain(`--persist ${file}: not a directory`);

    const foreign = tempDir();
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    const held = await refusal(['r2', 'serve', '--bucket', 'photos', '--persist', foreign]);
    expect(held.code).toBe(1);
    expect(held.err).toContain('notes.txt');

    const garbage = tempDir();
    const bytes = Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 131 + 7) % 256));
    writeFileSync(join(garbage, 'edge-doubles.sqlite'), bytes);
    const bad = await refusal(['api', 'serve', '--persist', garbage]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(join(garbage, 'edge-doubles.sqlite'));
    expect(bad.err).not.toMatch(/SIGSEGV|Segmentation/);
    expect(readFileSync(join(garbage, 'edge-doubles.sqlite')).equals(bytes)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('mine');
  }, 60_000);

  it('an object whose bytes were damaged on disk is answered with an error, never its old ETag; the others are served', async () => {
    const dir = tempDir();
    const first = await start(['r2', 'serve', '--bucket', 'photos', '--persist', dir]);
    // A small body is kept with its object's record, a larger one in chunk records: both damaged.
    const small = Buffer.from('THESE-BYTES-GET-DAMAGED-'.repeat(40));
    const large = Buffer.from('THESE-LARGER-BYTES-ARE-DAMAGED-TOO-'.repeat(2000));
    expect((await aws.fetch(url(first, 'hit.bin'), { method: 'PUT', body: small })).status).toBe(200);
    expect((await aws.fetch(url(first, 'large.bin'), { method: 'PUT', body: large })).status).toBe(200);
    expect((await aws.fetch(url(first, 'ok.txt'), { method: 'PUT', body: 'fine' })).status).toBe(200);
    await first.stop();

    const file = join(dir, 'edge-doubles.sqlite');
    const stored = readFileSync(file);
    for (const marker of [small, large]) {
      const at = stored.indexOf(marker.subarray(0, 200));
      expect(at).toBeGreaterThan(0);
      stored.write('0123456789abcdef', at + 300); // 16 bytes inside the object's data
    }
    writeFileSync(file, stored);

    const second = await start(['r2', 'serve', '--persist', dir]);
    try {
      for (const key of ['hit.bin', 'large.bin']) {
        const damaged = await aws.fetch(url(second, key));
        expect(damaged.status).toBe(500);
        expect(await damaged.text()).toContain('<Code>InternalError</Code>'); // R2's own answer
      }
      // Reported to the operator: the record that holds the bytes.
      expect(second.stderr()).toMatch(/the record bucket\/\S+\/o\/hit\.bin is damaged/);
      expect(second.stderr()).toMatch(/the record bucket\/\S+\/c\/\S+ is damaged/);
      expect(await (await aws.fetch(url(second, 'ok.txt'))).text()).toBe('fine');
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('snapshots over test support keep no disk past a reset or a restart', async () => {
    const dir = tempDir();
    const MiB = 1024 * 1024;
    const server = await start(['r2', 'serve', '--bucket', 'photos', '--persist', dir]);
    try {
      const body = Buffer.alloc(MiB, 1);
      for (let i = 0; i < 20; i++) {
        body[0] = i;
        expect((await aws.fetch(url(server, 'big'), { method: 'PUT', body })).status).toBe(200);
        expect((await fetch(`${server.origin}/_edge-doubles/snapshot`, { method: 'POST' })).status).toBe(200);
      }
      expect(diskUse(dir)).toBeGreaterThan(20 * MiB); // every snapshot's bytes, while it may be restored
      expect((await fetch(`${server.origin}/_edge-doubles/reset`, { method: 'POST' })).status).toBe(200);
      // The server gives the freed pages back when idle (at most once a second).
      await until(() => diskUse(dir) < 2 * MiB);
      expect((await aws.fetch(url(server, 'big'), { method: 'PUT', body })).status).toBe(200);
      for (let i = 0; i < 5; i++) {
        expect((await fetch(`${server.origin}/_edge-doubles/snapshot`, { method: 'POST' })).status).toBe(200);
        expect((await aws.fetch(url(server, 'big'), { method: 'PUT', body })).status).toBe(200);
      }
    } finally {
      await server.stop('SIGKILL');
    }
    // Started again, the snapshots are gone, and so are the bytes only they held.
    const again = await start(['r2', 'serve', '--persist', dir]);
    try {
      expect((await aws.fetch(url(again, 'big'))).status).toBe(200);
      await until(() => diskUse(dir) < 3 * MiB);
    } finally {
      await again.stop();
    }
  }, 60_000);

  it('a pulled message whose server was killed comes back at once, with its attempts; its old lease is unknown (docs/servers.md says so)', async () => {
    const dir = tempDir();
    const headers = { authorization: 'Bearer any-token', 'content-type': 'application/json' };
    const api = async (s: Served, method: string, path: string, body?: unknown) => {
      const r = await fetch(`${s.origin}/client/v4${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
      return (await r.json()) as { success: boolean; result: any; errors: { message: string }[] };
    };
    const first = await start(['api', 'serve', '--persist', dir]);
    const account = first.lines.find((l) => l.startsWith('account '))!.split(' ')[1]!;
    const queues = `/accounts/${account}/queues`;
    const id = (await api(first, 'POST', queues, { queue_name: 'jobs' })).result.queue_id as string;
    await api(first, 'POST', `${queues}/${id}/consumers`, { type: 'http_pull' });
    await api(first, 'POST', `${queues}/${id}/messages`, { body: 'job', content_type: 'text' });
    const pull = { batch_size: 10, visibility_timeout_ms: 60_000 };
    const leased = (await api(first, 'POST', `${queues}/${id}/messages/pull`, pull)).result.messages;
    expect(leased).toHaveLength(1);
    await first.stop('SIGKILL');

    const second = await start(['api', 'serve', '--persist', dir]);
    try {
      const again = (await api(second, 'POST', `${queues}/${id}/messages/pull`, pull)).result.messages;
      expect(again.map((m: { body: string; attempts: number }) => [m.body, m.attempts])).toEqual([
        ['job', leased[0].attempts],
      ]);
      const ack = await api(second, 'POST', `${queues}/${id}/messages/ack`, {
        acks: [{ lease_id: leased[0].lease_id }],
      });
      expect(JSON.stringify(ack)).toContain('lease not found');
    } finally {
      await second.stop();
    }
  }, 60_000);

  const mountable = process.getuid?.() === 0;
  (mountable || process.env.CI ? it : it.skip)(
    `a full disk: the write that does not fit is answered with an error, the server stays up, and takes writes again once there is room${mountable ? '' : ' (skipped: mounting a tmpfs needs root)'}`,
    async () => {
      const mount = tempDir();
      await run('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mount]);
      try {
        const dir = join(mount, 'state');
        mkdirSync(dir);
        const server = await start(['r2', 'serve', '--bucket', 'photos', '--persist', dir]);
        try {
          expect((await aws.fetch(url(server, 'kept.txt'), { method: 'PUT', body: 'kept' })).status).toBe(200);
          writeFileSync(join(mount, 'room'), Buffer.alloc(2 * 1024 * 1024));
          let failed: Response | undefined;
          for (let i = 0; i < 100 && !failed; i++) {
            const r = await aws.fetch(url(server, `fill-${i}`), { method: 'PUT', body: Buffer.alloc(256 * 1024, i) });
            if (r.status !== 200) failed = r;
          }
          expect(failed?.status).toBe(500);
          expect(await failed!.text()).toContain('<Code>InternalError</Code>'); // R2's own answer
          expect(server.stderr()).toContain('database or disk is full'); // reported to the operator
          expect(await (await aws.fetch(url(server, 'kept.txt'))).text()).toBe('kept');
          rmSync(join(mount, 'room'));
          expect((await aws.fetch(url(server, 'after.txt'), { method: 'PUT', body: 'room again' })).status).toBe(200);
        } finally {
          await server.stop();
        }
        const again = await start(['r2', 'serve', '--persist', dir]);
        try {
          expect(await (await aws.fetch(url(again, 'kept.txt'))).text()).toBe('kept');
          expect(await (await aws.fetch(url(again, 'after.txt'))).text()).toBe('room again');
        } finally {
          await again.stop();
        }
      } finally {
        await run('umount', [mount]);
      }
    },
    60_000,
  );
});

/** The database's bytes on disk, its write-ahead log included. */
function diskUse(dir: string): number {
  const size = (name: string) => {
    try {
      return statSync(join(dir, name)).size;
    } catch {
      return 0;
    }
  };
  return size('edge-doubles.sqlite') + size('edge-doubles.sqlite-wal');
}

/** Waits (up to 10 s) for `ok`. */
async function until(ok: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`still not so after 10 s: ${ok}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
