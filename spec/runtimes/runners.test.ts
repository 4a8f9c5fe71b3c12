/**
 * The built package on Bun and Deno, and the bucket conformance suite under runners other than
 * Vitest: `bun test` and `node:test` (on Node and under `deno test`), each registered with the
 * runner's own describe/it/expect through edge-doubles/conformance/portable (Jest's two modes are in
 * spec/jest/jest.test.ts). The files in ./runners are copied next to a build of the package in
 * .runners-package (gitignored), where they find it by name, as a user's project does. Bun and Deno
 * are the npm packages `bun` and `deno` (dev dependencies; scripts/runtimes.ts finds their binaries).
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runtimeBinary } from '../../scripts/runtimes.js';
import { installBuiltPackage, repoRoot } from '../helpers/built-package.js';
import { expectSuitePassed } from '../helpers/suite-output.js';

const consumer = `${repoRoot}.runners-package/`;
const sources = new URL('./runners/', import.meta.url).pathname;
const bun = runtimeBinary('bun');
const deno = runtimeBinary('deno');

beforeAll(async () => {
  await installBuiltPackage('.runners-package');
  // Its own package.json, so `edge-doubles` is the installed build, not this repository by self-reference.
  writeFileSync(
    `${consumer}package.json`,
    JSON.stringify({ name: 'edge-doubles-runners-consumer', private: true, type: 'module' }),
  );
  for (const f of readdirSync(sources)) copyFileSync(`${sources}${f}`, `${consumer}${f}`);
  // The package's bin, linked as npm links it, for `bunx edge-doubles` and `deno run -A npm:edge-doubles`.
  rmSync(`${consumer}node_modules/.bin`, { recursive: true, force: true });
  mkdirSync(`${consumer}node_modules/.bin`);
  symlinkSync('../edge-doubles/dist/cli.js', `${consumer}node_modules/.bin/edge-doubles`);
}, 120_000);

// Bun and Deno are dev dependencies: a missing binary skips (saying why) only outside CI.
const absent = (r: { path?: string }) => !r.path && process.env.CI !== 'true';
const binary = (r: { path?: string; missing?: string }) => {
  if (!r.path) throw new Error(r.missing);
  return r.path;
};

/** Runs a binary in the consumer folder; resolves with its exit code and output, never rejects. */
function run(bin: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      bin,
      args,
      { cwd: consumer, env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' }, maxBuffer: 64 << 20 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

// Node, browsers and workerd show one difference here (a JS-built byte stream is read); Bun and Deno
// also the ones of their default-stream bodies (5 cases) and, on Bun, JavaScriptCore's Error properties.
describe('the bucket conformance suite under other runners', () => {
  it('node:test on this Node, with the expect package', async () => {
    expectSuitePassed(await run(process.execPath, ['--test', './bucket.node-test.mjs']), 2);
  }, 180_000);

  it.skipIf(absent(bun))(
    `bun test, with bun:test's describe/it/expect${bun.missing ? ` (skipped: ${bun.missing})` : ''}`,
    async () => {
      expectSuitePassed(await run(binary(bun), ['test', './bucket.bun.mjs']), 8);
    },
    180_000,
  );

  it.skipIf(absent(deno))(
    `deno test, through Deno's node:test${deno.missing ? ` (skipped: ${deno.missing})` : ''}`,
    async () => {
      expectSuitePassed(await run(binary(deno), ['test', '-A', '--no-check', './bucket.node-test.mjs']), 7);
    },
    180_000,
  );
});

/** What package.smoke.mjs saw, from its one JSON line. */
async function smoke(bin: string, args: string[]): Promise<Record<string, unknown>> {
  const { code, out } = await run(bin, args);
  expect(code, out).toBe(0);
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

/** What every runtime shows, whatever it does with a stream built in JS. */
const everywhere = {
  requestBody: 'accepted',
  responseBody: 'accepted',
  blobStream: 'accepted',
  teeBranch: 'accepted',
  multipartSize: 5 * 1024 * 1024 + 4,
  stored: ['from a request', 'from a response', 'from a blob', 'teed'],
  createEnvObject: ['test', 'x'],
  createEnvFile: '415290769594460e2e485922904f345d', // md5 of "y"
  s3: ['over s3', 'from a response'],
  dns: ['A www.example.com 198.51.100.4'],
  apiServer: ['photos'],
  assertionFailure: 'AssertionError',
};

const UNKNOWN_LENGTH =
  'TypeError: Provided readable stream must have a known length (request/response body or readable half of FixedLengthStream)';

describe('the whole package, as a script', () => {
  it('on Node: the Worker patterns as on workerd, a stream built in JS refused', async () => {
    expect(await smoke(process.execPath, ['./package.smoke.mjs'])).toEqual({ ...everywhere, jsStream: UNKNOWN_LENGTH });
  }, 60_000);

  // There a stream built in JS cannot be told from a body: accepted, the declared double-default-stream-bodies.
  it.skipIf(absent(bun))(
    `on Bun${bun.missing ? ` (skipped: ${bun.missing})` : ''}: the Worker patterns accepted, createEnv, S3, DNS, a server`,
    async () => {
      expect(await smoke(binary(bun), ['./package.smoke.mjs'])).toEqual({ ...everywhere, jsStream: 'accepted' });
    },
    60_000,
  );

  it.skipIf(absent(deno))(
    `on Deno${deno.missing ? ` (skipped: ${deno.missing})` : ''}: the Worker patterns accepted, createEnv, S3, DNS, a server`,
    async () => {
      expect(await smoke(binary(deno), ['run', '-A', './package.smoke.mjs'])).toEqual({
        ...everywhere,
        jsStream: 'accepted',
      });
    },
    60_000,
  );

  it.skipIf(absent(bun))(
    `the matchers on bun test's expect${bun.missing ? ` (skipped: ${bun.missing})` : ''}`,
    async () => {
      const { code, out } = await run(binary(bun), ['test', './matchers.bun.mjs']);
      expect(out).toMatch(/1 pass\s+0 fail/);
      expect(code, out).toBe(0);
    },
    60_000,
  );

  // The command as a user runs it, served on loopback until this test stops it.
  const serve = async (bin: string, args: string[]) => {
    const child = spawn(bin, [...args, 'api', 'serve', '--port', '0', '--bucket', 'photos'], {
      cwd: consumer,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    try {
      let out = '';
      const base = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d;
          const m = /listening on (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.stderr.on('data', (d: Buffer) => (out += d));
        child.on('exit', (code) => reject(new Error(`exited ${code} before listening:\n${out}`)));
      });
      const account =
        /account (\w+)/.exec(out)?.[1] ??
        (await new Promise<string>((r) => setTimeout(() => r(/account (\w+)/.exec(out)![1]!), 200)));
      const listed = await (
        await fetch(`${base}/accounts/${account}/r2/buckets`, { headers: { Authorization: 'Bearer t' } })
      ).json();
      return (listed as { result: { buckets: { name: string }[] } }).result.buckets.map((b) => b.name);
    } finally {
      child.kill();
    }
  };

  it.skipIf(absent(bun))(
    `bunx edge-doubles api serve${bun.missing ? ` (skipped: ${bun.missing})` : ''}`,
    async () => {
      expect(await serve(binary(bun), ['x', 'edge-doubles'])).toEqual(['photos']);
    },
    60_000,
  );

  it.skipIf(absent(deno))(
    `deno run -A npm:edge-doubles api serve${deno.missing ? ` (skipped: ${deno.missing})` : ''}`,
    async () => {
      expect(await serve(binary(deno), ['run', '-A', 'npm:edge-doubles'])).toEqual(['photos']);
    },
    60_000,
  );
});
