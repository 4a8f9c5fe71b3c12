/**
 * `--persist`'s buckets (StoreStorage over the SQLite Store) in a process killed with SIGKILL in the
 * middle of a stream of puts: every put that had resolved (the child printed its key) is there with
 * its exact bytes, and nothing is half-written: every object listed has the size and the md5 etag of
 * the bytes it gives back. Run with both durability settings (a kill loses nothing in either).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteNode } from '../../../scripts/runtimes.js';

const node = sqliteNode();
const writer = new URL('./crash-writer.ts', import.meta.url).pathname;
const root = new URL('../../../', import.meta.url).pathname;
const ANSWERED = 60;

/** Starts the writer, SIGKILLs it once it has printed `answered` keys; returns the keys it printed. */
function writeUntilKilled(dir: string, sync: string, answered: number): Promise<string[]> {
  const child = spawn(node.path!, [...node.args, writer, 'write', dir, sync], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

const maybe = node.missing ? describe.skip : describe;
maybe(
  `a Bucket in the SQLite Store killed with SIGKILL mid-stream${node.missing ? ` (skipped: ${node.missing})` : ''}`,
  () => {
    for (const sync of ['normal', 'full'] as const) {
      it(`keeps every answered put whole, and nothing half-written (synchronous=${sync})`, async () => {
        dir = mkdtempSync(join(tmpdir(), 'edge-doubles-crash-'));
        const printed = await writeUntilKilled(dir, sync, ANSWERED);
        expect(printed.length).toBeGreaterThanOrEqual(ANSWERED);
        const { stdout } = await promisify(execFile)(node.path!, [...node.args, writer, 'check', dir], { cwd: root });
        const listed = JSON.parse(stdout) as { key: string; whole: boolean }[];
        // Every printed key, and perhaps the one whose put committed as the kill came: no other.
        expect(listed.slice(0, printed.length).map((o) => o.key)).toEqual(printed);
        expect(listed.length - printed.length).toBeLessThanOrEqual(1);
        expect(listed.filter((o) => !o.whole)).toEqual([]);
      }, 60_000);
    }
  },
);
