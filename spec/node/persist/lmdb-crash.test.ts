/**
 * Issue 27 (`--persist`): a process writing through a Bucket on IndexedDbStorage over LMDB, killed
 * with SIGKILL in the middle of a stream of puts. Every put that had resolved (the child printed
 * its key) is there with its exact bytes, and nothing is half-written: every object listed has the
 * size and the md5 etag of the bytes it gives back. Run with LMDB's default (a commit is synced to
 * disk) and with noSync (a commit is left to the OS: a killed process loses nothing either, only a
 * machine that goes down may).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Bucket, IndexedDbStorage } from '../../../lib/bucket/index.js';
import { TempLmdb } from '../../helpers/lmdb.js';
import { crashBody, crashKey } from './crash-bodies.js';

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');
const ANSWERED = 60;

/** Starts the writer, SIGKILLs it once it has printed `answered` keys; returns the keys it printed. */
function writeUntilKilled(dir: string, mode: string, answered: number): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./crash-writer.ts', import.meta.url).pathname, dir, mode],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.split('\n').length - 1 >= answered) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`the writer exited (${code}) before it was killed: ${err}`));
      resolve(out.split('\n').filter((l) => l !== ''));
    });
  });
}

let env: TempLmdb | undefined;
afterEach(() => env?.remove());

describe('a Bucket on LMDB killed with SIGKILL mid-stream', () => {
  for (const mode of ['sync', 'nosync'] as const) {
    it(`keeps every answered put whole, and nothing half-written (${mode === 'sync' ? 'default: synced commits' : 'noSync'})`, async () => {
      env = new TempLmdb();
      await env.root.close(); // the child has the environment to itself while it writes
      const printed = await writeUntilKilled(env.dir, mode, ANSWERED);
      expect(printed.length).toBeGreaterThanOrEqual(ANSWERED);
      await env.reopen();

      const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'crash', indexedDB: env.indexedDB() }) });
      const listed: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ cursor });
        listed.push(...page.objects.map((o) => o.key));
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      // Every printed key, and perhaps the one whose put committed as the kill came: no other.
      expect(listed.slice(0, printed.length)).toEqual(printed);
      expect(listed.length - printed.length).toBeLessThanOrEqual(1);
      for (const [i, key] of listed.entries()) {
        expect(key).toBe(crashKey(i));
        const got = await bucket.get(key);
        const bytes = new Uint8Array(await got!.arrayBuffer());
        const want = crashBody(i);
        expect(bytes.byteLength).toBe(want.byteLength);
        expect(got!.size).toBe(bytes.byteLength);
        expect(Buffer.compare(bytes, want)).toBe(0);
        expect(got!.etag).toBe(md5(bytes));
      }
    }, 60_000);
  }
});
