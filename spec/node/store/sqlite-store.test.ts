/**
 * The Store of `--persist` (lib/node/store/sqlite-store.ts) under the failures a database's users
 * expect answered: a full disk, two servers on one directory, a directory or file that is not ours,
 * and bytes damaged on disk. Each step runs in a process of its own (driver.ts), on a Node that has
 * `node:sqlite` (spec/helpers/sqlite-node.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteNode } from '../../../scripts/runtimes.js';

const node = sqliteNode();
const driver = new URL('./driver.ts', import.meta.url).pathname;
const root = new URL('../../../', import.meta.url).pathname;
const run = promisify(execFile);

/** One driver step's JSON answer. */
async function step(dir: string, command: string, ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(node.path!, [...node.args, driver, dir, command, ...args], { cwd: root });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/** A driver holding DIR's store open, until `kill`ed. */
function hold(dir: string): Promise<{ pid: number; kill: () => Promise<void> } | Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(node.path!, [...node.args, driver, dir, 'hold'], { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const answer = JSON.parse(out.split('\n')[0]!);
      if (!answer.holding) return resolve(answer);
      resolve({
        pid: child.pid!,
        kill: () =>
          new Promise<void>((done) => {
            child.on('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
    child.on('error', reject);
  });
}

const maybe = node.missing ? describe.skip : describe;

maybe(`the --persist Store (SQLite)${node.missing ? ` (skipped: ${node.missing})` : ''}`, () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'edge-doubles-store-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('keeps what was committed across processes, in UTF-8 key order', async () => {
    const dir = join(base, 'state');
    expect(await step(dir, 'put', 'b=2', '\u{1F600}=astral', '\uE000=private', 'a=1')).toEqual({ ok: true });
    expect(await step(dir, 'dump')).toEqual({
      entries: [
        ['a', '1'],
        ['b', '2'],
        ['\uE000', 'private'],
        ['\u{1F600}', 'astral'],
      ],
    });
  });

  describe('one server per directory', () => {
    it('refuses a second process, naming the locked file, and takes over at once when the first is killed', async () => {
      const dir = join(base, 'state');
      const first = (await hold(dir)) as { pid: number; kill: () => Promise<void> };
      expect(first.pid).toBeGreaterThan(0);
      const second = await step(dir, 'put', 'x=1');
      expect(second.error).toBe('StoreError');
      expect(second.message).toContain(join(dir, 'edge-doubles.sqlite'));
      expect(second.message).toContain('in use by another server');
      await first.kill();
      expect(await step(dir, 'put', 'x=1')).toEqual({ ok: true });
    });

    it('of eight processes started at once on a fresh directory, exactly one holds it', async () => {
      const dir = join(base, 'state');
      const starters = await Promise.all(Array.from({ length: 8 }, () => hold(dir)));
      const holding = starters.filter((s) => 'kill' in s) as { kill: () => Promise<void> }[];
      expect(holding).toHaveLength(1);
      for (const refused of starters.filter((s) => !('kill' in s))) {
        expect(refused).toMatchObject({ error: 'StoreError' });
      }
      await holding[0]!.kill();
    });
  });

  describe('what is not ours is refused at start, in one line, and left as it was', () => {
    it('DIR that is a file', async () => {
      const dir = join(base, 'file');
      writeFileSync(dir, 'not a directory');
      expect(await step(dir, 'dump')).toEqual({ error: 'StoreError', message: `--persist ${dir}: not a directory` });
      expect(readFileSync(dir, 'utf8')).toBe('not a directory');
    });

    it('DIR that holds other files (an older layout, a user\u2019s folder)', async () => {
      const dir = join(base, 'state');
      mkdirSync(dir);
      writeFileSync(join(dir, 'state.mdb'), 'lmdb');
      const answer = await step(dir, 'dump');
      expect(answer.error).toBe('StoreError');
      expect(answer.message).toContain('state.mdb');
      expect(String(answer.message).split('\n')).toHaveLength(1);
    });

    it.each([
      ['random bytes', Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919 + 13) % 256))],
      ['zeros', Buffer.alloc(8192)],
      ['text', Buffer.from('hello, this is a text file and not a database\n'.repeat(100))],
    ])('a database file of %s', async (_, content) => {
      const dir = join(base, 'state');
      mkdirSync(dir);
      writeFileSync(join(dir, 'edge-doubles.sqlite'), content);
      const answer = await step(dir, 'dump');
      expect(answer.error).toMatch(/^Store(Damaged)?Error$/);
      expect(answer.message).toContain(join(dir, 'edge-doubles.sqlite'));
      expect(readFileSync(join(dir, 'edge-doubles.sqlite')).equals(content)).toBe(true);
    });
  });

  it('gives back values of every form as a structured clone would: plain JSON data, and what JSON cannot keep', async () => {
    const dir = join(base, 'state');
    const answer = await step(dir, 'roundtrip');
    expect(answer.same).toEqual({
      json: true,
      text: true,
      negativeZero: true,
      notANumber: true,
      undefinedField: true,
      date: true,
      map: true,
      bytesInside: true,
      bytesAlone: true,
      sparse: true,
      bigint: true,
      sharedTwice: true,
      cyclic: true,
    });
    expect(answer).toMatchObject({ sharedKept: true, cycleKept: true });
  });

  it('lists the spaces holding records, by prefix', async () => {
    expect(await step(join(base, 'state'), 'spaces')).toEqual({
      all: ['a', 'a/x', 'abc', 'b', 'b/a'],
      a: ['a', 'a/x', 'abc'],
      ab: ['abc'],
      c: [],
    });
  });

  it('keeps a record\u2019s bytes apart from its value: replaced with the record, and damage to them reported when they are read', async () => {
    const dir = join(base, 'state');
    const marker = 'BYTES-TO-DAMAGE-'.repeat(40);
    expect(await step(dir, 'put-bytes', `hit=value=${marker}`, 'plain=only a value=x')).toEqual({ ok: true });
    expect(await step(dir, 'bytes', 'hit')).toEqual({ bytes: marker });
    expect(await step(dir, 'put', 'plain=replaced')).toEqual({ ok: true });
    expect(await step(dir, 'bytes', 'plain')).toEqual({ bytes: null }); // the record was replaced whole
    const file = join(dir, 'edge-doubles.sqlite');
    const stored = readFileSync(file);
    const at = stored.indexOf(marker);
    expect(at).toBeGreaterThan(0);
    stored.write('XXXXXXXXXXXXXXXX', at + 100);
    writeFileSync(file, stored);
    // The values are read without the bytes: whole. The bytes are refused.
    expect(await step(dir, 'dump')).toEqual({
      entries: [
        ['hit', 'value'],
        ['plain', 'replaced'],
      ],
    });
    const damaged = await step(dir, 'bytes', 'hit');
    expect(damaged.error).toBe('StoreDamagedError');
    expect(damaged.message).toContain('s/hit');
  });

  it('a record whose bytes changed on disk is reported, never served; the others still are', async () => {
    const dir = join(base, 'state');
    const marker = 'DAMAGE-ME-'.repeat(50);
    await step(dir, 'put', `whole=kept`, `hit=${marker}`);
    const file = join(dir, 'edge-doubles.sqlite');
    const bytes = readFileSync(file);
    const at = bytes.indexOf(marker);
    expect(at).toBeGreaterThan(0);
    bytes.write('XXXXXXXXXXXXXXXX', at + 100);
    writeFileSync(file, bytes);
    const damaged = await step(dir, 'get', 'hit');
    expect(damaged.error).toBe('StoreDamagedError');
    expect(damaged.message).toContain('s/hit');
    expect(await step(dir, 'get', 'whole')).toEqual({ value: 'kept' });
  });
});

// A full disk, for real: a 2 MiB tmpfs, which needs root to mount. Elsewhere the surfaces' answer
// to a full disk is tested with the in-memory Store's injected failure (MemoryStore.failNext).
const mountable = !node.missing && process.getuid?.() === 0;
const full = mountable || process.env.CI ? describe : describe.skip;

full(`a full disk${mountable ? '' : ' (skipped: mounting a tmpfs needs root)'}`, () => {
  let mount: string;
  beforeEach(async () => {
    mount = mkdtempSync(join(tmpdir(), 'edge-doubles-full-'));
    await run('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount]);
  });
  afterEach(async () => {
    await run('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  it('answers the write that does not fit with StoreFullError, keeps what was written, and writes again once room frees', async () => {
    const dir = join(mount, 'state');
    expect(await step(dir, 'put', 'before=kept')).toEqual({ ok: true });
    writeFileSync(join(mount, 'room'), Buffer.alloc(512 * 1024));
    const answer = await step(dir, 'fill', join(mount, 'room'));
    expect(answer.full).toMatchObject({ error: 'StoreFullError' });
    expect(answer.written).toBeGreaterThan(0);
    expect(answer.kept).toBe(answer.written);
    expect(answer.before).toBe('kept');
    expect(answer.after).toBe('ok');
    // Opened again while the disk is full once more: what was written reads back.
    try {
      writeFileSync(join(mount, 'room'), Buffer.alloc(2 * 1024 * 1024)); // fills whatever is left
    } catch {
      // ENOSPC, once the disk is full: as meant
    }
    expect(await step(dir, 'get', 'after')).toEqual({ value: 'room again' });
    expect(await step(dir, 'get', 'before')).toEqual({ value: 'kept' });
    expect(readdirSync(dir).filter((f) => f.endsWith('-shm'))).toEqual([]);
  });
});
