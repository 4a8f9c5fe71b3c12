/**
 * wrangler (the npm dev dependency, 4.86.0, or another: WRANGLER_PACKAGE) driven against `edge-doubles api serve` in process.
 *
 * Usage: `const w = await startWrangler({ buckets: ['photos'] })` starts a `CloudflareApi` over HTTP
 * on loopback (any option of `startApiServer`, e.g. `api` to serve one you made) and returns
 * `w.api` (the double: give `w.api` to `createEnv(config, { api: w.api })` or `new S3Api({ api: w.api })`
 * to check a command's effect), `w.run('r2', 'bucket', 'create', 'logs')` (runs wrangler with its
 * `CLOUDFLARE_API_BASE_URL`, `CLOUDFLARE_API_TOKEN` and `CLOUDFLARE_ACCOUNT_ID` pointed at the double,
 * metrics off, `CI=true` so it never prompts, a temporary HOME/XDG_CONFIG_HOME and a temporary cwd
 * with no wrangler config; resolves `{ code, stdout, stderr, output }` and never throws on a non-zero
 * exit), `w.ok(...)` (the same, but fails the test with wrangler's output unless it exits 0),
 * `w.file('rules.json', json)` (writes a file in that cwd and returns its path, for `--file`), and
 * `w.close()` (in `afterAll`). wrangler takes 1-2 s to start: keep the runs per file few and give
 * tests a generous timeout (`WRANGLER_TIMEOUT`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startApiServer, type ApiServerOptions } from '../../lib/node/account-server.js';
import type { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';

/** Per-test timeout for tests that run wrangler (each run starts a Node process of ~1-2 s). */
export const WRANGLER_TIMEOUT = 60_000;

/**
 * Which wrangler: the dev dependency `wrangler` (4.86.0) by default; EDGE_DOUBLES_WRANGLER names
 * another installed package of it, as CI runs `wrangler-latest` (the newest, an npm alias; it needs
 * Node 22) on Node 22 and later.
 */
const WRANGLER_PACKAGE = process.env.EDGE_DOUBLES_WRANGLER ?? 'wrangler';
const WRANGLER_BIN = resolve(import.meta.dirname, `../../node_modules/${WRANGLER_PACKAGE}/bin/wrangler.js`);

interface WranglerRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout then stderr, for assertions that do not care which stream wrangler chose. */
  output: string;
}

export interface WranglerHarness {
  api: CloudflareApi;
  /** `http://127.0.0.1:<port>/client/v4`. */
  baseURL: string;
  /** The temporary directory wrangler runs in (no wrangler config in it). */
  cwd: string;
  run(...args: string[]): Promise<WranglerRun>;
  /** As `run`, and throws with wrangler's output unless it exits 0. */
  ok(...args: string[]): Promise<WranglerRun>;
  /** Writes `content` (a string, or JSON for anything else) to `name` in `cwd`; returns the path. */
  file(name: string, content: unknown): string;
  close(): Promise<void>;
}

export async function startWrangler(options: ApiServerOptions = {}): Promise<WranglerHarness> {
  const server = await startApiServer(options);
  const cwd = mkdtempSync(join(tmpdir(), 'edge-doubles-wrangler-'));
  const home = join(cwd, '.home');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    CLOUDFLARE_API_BASE_URL: server.baseURL,
    CLOUDFLARE_API_TOKEN: 'edge-doubles-wrangler-token',
    CLOUDFLARE_ACCOUNT_ID: server.api.account.id,
    WRANGLER_SEND_METRICS: 'false',
    CI: 'true',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  const run = (...args: string[]) =>
    new Promise<WranglerRun>((done) => {
      execFile(
        process.execPath,
        [WRANGLER_BIN, ...args],
        { cwd, env, timeout: WRANGLER_TIMEOUT - 5_000, maxBuffer: 16 << 20 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          done({ code, stdout, stderr, output: `${stdout}\n${stderr}` });
        },
      );
    });
  return {
    api: server.api,
    baseURL: server.baseURL,
    cwd,
    run,
    async ok(...args) {
      const r = await run(...args);
      if (r.code !== 0) throw new Error(`wrangler ${args.join(' ')} exited ${r.code}:\n${r.output}`);
      return r;
    },
    file(name, content) {
      const path = join(cwd, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return path;
    },
    async close() {
      await server.close();
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
