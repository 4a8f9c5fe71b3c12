/**
 * createEnv against wrangler itself: each config below is written to a file and read both by
 * `edge-doubles/node`'s createEnv and by wrangler's own `unstable_readConfig`: the wrangler
 * @cloudflare/vitest-plugin depends on (the newest, whose config rules createEnv follows), not the
 * top-level dev dependency, which is the older 4.86 the CLI tests run because it runs on Node 20
 * (spec/helpers/wrangler.ts). Both must refuse the same configs with the
 * same text, parse errors must carry the same text, line and column, and accepted configs must give
 * the same buckets and the same warnings.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Bucket, ConfigParseError, WranglerConfigError } from '../../lib/index.js';
import { createEnv } from '../../lib/node/index.js';
import { ENVIRONMENT_FIELDS, TOP_LEVEL_ONLY_FIELDS } from '../../lib/env/fields.js';

interface WranglerError extends Error {
  location?: { line: number; column: number };
}
interface Wrangler {
  unstable_readConfig(
    args: { config: string; env?: string },
    options?: { hideWarnings?: boolean },
  ): Record<string, unknown>;
}
// The plugin's exports name no CommonJS entry to resolve from, so its folder is found by path.
const pluginRequire = createRequire(
  join(import.meta.dirname, '../../node_modules/@cloudflare/vitest-plugin/package.json'),
);
const wrangler = pluginRequire('wrangler') as Wrangler;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'edge-doubles-env-'));
  vi.stubEnv('CLOUDFLARE_ENV', undefined); // both would read it
  vi.stubEnv('WRANGLER_SEND_METRICS', 'false');
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function write(name: string, text: string | Uint8Array): string {
  const sub = join(dir, String(n++));
  const path = join(sub, name);
  mkdirSync(sub);
  writeFileSync(path, text);
  return path;
}

// Wrangler prints warnings through its logger (esbuild's format); compare their lines, trimmed.
const lines = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex -- wrangler's output carries ANSI colour escapes
    .replace(/\x1b\[[0-9;]*m/g, '')
    .replace(/^▲ \[WARNING\] /m, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

type Outcome =
  | { kind: 'ok'; buckets: string[]; vars: Record<string, unknown>; warnings: string[] }
  | { kind: 'config-error'; message: string }
  | { kind: 'parse-error'; text: string; line: number; column: number };

function ours(path: string, environment?: string): Outcome {
  const rendered: string[] = [];
  try {
    const { env } = createEnv<Record<string, unknown>>(path, { environment, onWarning: (m) => rendered.push(m) });
    const buckets = Object.keys(env).filter((k) => env[k] instanceof Bucket);
    const vars = Object.fromEntries(Object.entries(env).filter(([, v]) => !(v instanceof Bucket)));
    return { kind: 'ok', buckets, vars, warnings: rendered.flatMap(lines) };
  } catch (e) {
    if (e instanceof WranglerConfigError) return { kind: 'config-error', message: e.message };
    if (e instanceof ConfigParseError) return { kind: 'parse-error', text: e.text, line: e.line, column: e.column };
    throw e;
  }
}

function theirs(path: string, environment: string | undefined, hideWarnings: boolean): Outcome {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    const config = wrangler.unstable_readConfig({ config: path, env: environment }, { hideWarnings });
    const buckets = (config.r2_buckets as { binding: string }[]).map((b) => b.binding);
    const warnings = warn.mock.calls.flatMap((c) => lines(String(c[0])));
    // What `wrangler dev` and the Workers Vitest pool bind: each var under its name (getVarsForDev).
    return { kind: 'ok', buckets, vars: { ...(config.vars as object) }, warnings };
  } catch (e) {
    const err = e as WranglerError;
    if (err.constructor.name === 'ParseError') {
      return { kind: 'parse-error', text: err.message, line: err.location!.line, column: err.location!.column };
    }
    return { kind: 'config-error', message: err.message };
  } finally {
    warn.mockRestore();
  }
}

function same(name: string, text: string | Uint8Array, environment?: string) {
  const path = write(name, text);
  const mine = ours(path, environment);
  // Unknown fields make wrangler look for a newer version of itself on npm: skip its warnings then.
  const unexpected = mine.kind === 'ok' && mine.warnings.some((w) => w.includes('Unexpected fields'));
  const real = theirs(path, environment, unexpected);
  if (unexpected && real.kind === 'ok' && mine.kind === 'ok') real.warnings = mine.warnings;
  expect(mine).toEqual(real);
  return mine;
}

const toml = (text: string, env?: string) => same('wrangler.toml', text, env);
const json = (text: string, env?: string) => same('wrangler.jsonc', text, env);

describe('createEnv and wrangler read configs alike', () => {
  it('a valid config', () => {
    const out = toml(
      'name = "w"\ncompatibility_date = "2024-01-01"\ncompatibility_flags = ["nodejs_compat"]\n' +
        '[[r2_buckets]]\nbinding = "A"\nbucket_name = "files"\npreview_bucket_name = "files-dev"\njurisdiction = "eu"\nremote = false\n' +
        '[[r2_buckets]]\nbinding = "B"\n',
    );
    expect(out).toMatchObject({ kind: 'ok', buckets: ['A', 'B'], warnings: [] });
  });

  it.each([
    ['a malformed bucket_name', '[{binding="B", bucket_name="Bad_Name"}]'],
    ['a too short bucket_name', '[{binding="B", bucket_name="ab"}]'],
    ['an empty bucket_name', '[{binding="B", bucket_name=""}]'],
    ['a bucket_name that is not a string', '[{binding="B", bucket_name=1}]'],
    ['no binding', '[{bucket_name="files"}]'],
    ['a malformed preview_bucket_name', '[{binding="B", preview_bucket_name="-x-"}]'],
    ['a preview_bucket_name that is not a string', '[{binding="B", preview_bucket_name=true}]'],
    ['a bad name and no binding', '[{bucket_name="Bad"}]'],
    ['jurisdiction and remote of the wrong type', '[{binding="B", jurisdiction=1, remote="yes"}]'],
    ['local_dev that is not a table', '[{binding="B", local_dev=1}]'],
    [
      'incomplete experimental_s3_credentials',
      '[{binding="B", local_dev={experimental_s3_credentials={accessKeyId="a"}}}]',
    ],
    ['an entry that is not a table', '["B"]'],
    ['a duplicate binding', '[{binding="B", bucket_name="one"}, {binding="B", bucket_name="two"}]'],
    ['three of a name', '[{binding="B"}, {binding="B"}, {binding="B"}]'],
  ])('r2_buckets with %s', (_, list) => {
    expect(toml(`name = "w"\nr2_buckets = ${list}\n`).kind).toBe('config-error');
  });

  it('r2_buckets that is not an array', () => {
    expect(toml('name = "w"\nr2_buckets = { binding = "B" }\n').kind).toBe('config-error');
  });

  it.each([
    ['a KV namespace', 'kv_namespaces = [{binding="X", id="1"}]'],
    ['a variable', '[vars]\nX = "1"'],
    ['a secret', '[secrets]\nrequired = ["X"]'],
    [
      'a service and a D1 database',
      'services = [{binding="X", service="s"}]\nd1_databases = [{binding="X", database_id="d"}]',
    ],
  ])('a bucket binding named like %s', (_, other) => {
    expect(toml(`name = "w"\n${other}\n[[r2_buckets]]\nbinding = "X"\n`).kind).toBe('config-error');
  });

  it.each([
    ['not a date', '"soon"'],
    ['en dashes', '"2024\u201301\u201301"'],
    ['a TOML date', '2024-01-01'],
    ['a number', '20240101'],
  ])('compatibility_date: %s', (_, value) => {
    toml(`name = "w"\ncompatibility_date = ${value}\nr2_buckets = [{binding="B"}]\n`);
  });

  it('compatibility_flags that are not strings', () => {
    expect(toml('name = "w"\ncompatibility_flags = ["a", 1]\n').kind).toBe('config-error');
  });

  it.each([
    ['legacy_env', 'legacy_env = true\nname = "w"\n'],
    ['node_compat', 'node_compat = true\nname = "w"\n'],
    ['node_compat in an environment', 'name = "w"\n[env.a]\nnode_compat = true\n'],
  ])('the removed field %s', (_, text) => {
    expect(toml(text, 'a').kind).toBe('config-error');
  });

  it('$schema that is not a string', () => {
    expect(json('{"$schema": 1}').kind).toBe('config-error');
  });

  it('unknown fields (warnings only)', () => {
    const out = toml(
      'name = "w"\ncolour = "blue"\nr2_buckets = [{binding="B", bucket_nmae="x", local_dev={y=1}}]\n[env.a]\nshade = 1\n',
      'a',
    );
    expect(out.kind).toBe('ok');
  });

  it('unsafe bindings (an experimental warning; their names count as bindings)', () => {
    const out = toml('name = "w"\nr2_buckets = [{binding="B"}]\n[unsafe]\nbindings = [{name="B", type="x"}]\n');
    expect(out.kind).toBe('config-error');
    expect(toml('name = "w"\n[unsafe]\nbindings = [{name="U", type="x"}]\n')).toMatchObject({ kind: 'ok' });
  });

  it('experimental S3 credentials (a warning)', () => {
    const out = toml(
      'name = "w"\nr2_buckets = [{binding="B", local_dev={experimental_s3_credentials={accessKeyId="a", secretAccessKey="b"}}}]\n',
    );
    expect(out).toMatchObject({ kind: 'ok', buckets: ['B'] });
    expect((out as { warnings: string[] }).warnings.join('\n')).toContain('experimental');
  });
});

describe('environments alike', () => {
  const config =
    'name = "w"\ncompatibility_date = "2024-01-01"\nr2_buckets = [{binding="TOP"}, {binding="BOTH"}]\nkv_namespaces = [{binding="KV", id="1"}]\n' +
    '[env.staging]\nr2_buckets = [{binding="BOTH"}, {binding="STAGING", bucket_name="staging"}]\n' +
    '[env.bare]\n' +
    '[env.broken]\ncompatibility_date = "later"\nr2_buckets = [{binding="X", bucket_name="NO"}]\n' +
    '[env.odd]\nr2_buckets = "B"\n';

  it.each(['staging', 'bare', 'broken', 'odd', 'missing', ''])('--env %s', (env) => {
    toml(config, env);
  });

  it('a name when no environment is defined', () => {
    expect(toml('name = "w"\nr2_buckets = [{binding="B"}]\n', 'staging')).toMatchObject({ kind: 'ok', buckets: ['B'] });
  });

  it('the same in JSON', () => {
    json('{"name": "w", "r2_buckets": [{"binding": "B"}], "env": {"a": {}}}', 'b');
  });
});

describe('vars alike', () => {
  const config =
    'name = "w"\nr2_buckets = [{binding="B"}]\n[vars]\nHOST = "files.example.com"\nRETRIES = 2\nLIMITS = { max = [1, "x"], on = true }\n' +
    '[env.staging]\nr2_buckets = [{binding="B"}]\nvars = { HOST = "staging.example.com" }\n' +
    '[env.bare]\nr2_buckets = [{binding="B"}]\n' +
    '[env.odd]\nvars = "HOST"\n' +
    '[env.list]\nvars = ["a", "b"]\n';

  it.each(['', 'staging', 'bare', 'odd', 'list'])('--env %s', (env) => {
    toml(config, env);
  });

  it('a TOML date is refused', () => {
    expect(toml('name = "w"\n[vars]\nSINCE = 2025-12-19\n').kind).toBe('config-error');
  });

  it('every JSON type, in wrangler.jsonc', () => {
    const out = json(
      '{"name": "w", "vars": {"S": "s", "N": 1.5, "B": false, "Z": null, "A": [1, {"x": "y"}], "O": {}}}',
    );
    expect(out).toMatchObject({ kind: 'ok', vars: { S: 's', N: 1.5, B: false, Z: null, A: [1, { x: 'y' }], O: {} } });
  });

  it('a var named like a bucket binding is refused', () => {
    expect(toml('name = "w"\nr2_buckets = [{binding="X"}]\n[vars]\nX = "1"\n').kind).toBe('config-error');
  });
});

describe('parse errors alike', () => {
  it.each([
    ['a bad value', 'wrangler.toml', 'name = "w"\nx = = 1\n'],
    ['an unclosed table', 'wrangler.toml', '[env\n'],
    ['a duplicate key', 'wrangler.toml', 'a = 1\na = 2\n'],
    ['a missing comma', 'wrangler.jsonc', '{\n  "name": "w"\n  "r2_buckets": []\n}'],
    ['a missing colon', 'wrangler.json', '{"a" 1}'],
    ['an empty file', 'wrangler.json', ''],
    ['an unclosed comment', 'wrangler.jsonc', '{"a": 1} /* x'],
  ])('%s', (_, name, text) => {
    expect(same(name, text).kind).toBe('parse-error');
  });

  it('comments and trailing commas are fine in .json too', () => {
    expect(same('wrangler.json', '{\n  // c\n  "name": "w",\n  "r2_buckets": [{"binding": "B",},],\n}')).toMatchObject({
      kind: 'ok',
      buckets: ['B'],
    });
  });

  it('a UTF-8 byte-order mark is dropped; a UTF-16 one is refused', () => {
    expect(
      same(
        'wrangler.toml',
        new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('r2_buckets = [{binding="B"}]\n')]),
      ),
    ).toMatchObject({
      kind: 'ok',
      buckets: ['B'],
    });
    expect(same('wrangler.toml', new Uint8Array([0xff, 0xfe, 0x61, 0x00])).kind).toBe('parse-error');
  });
});

describe("the field lists are the installed wrangler's", () => {
  it("environment fields, then the top level's own", () => {
    const path = write('wrangler.toml', 'name = "w"\n[env.a]\n');
    const top = Object.keys(wrangler.unstable_readConfig({ config: path }, { hideWarnings: true }));
    const known = [
      ...ENVIRONMENT_FIELDS.filter((f) => f !== 'store_buckets'),
      ...TOP_LEVEL_ONLY_FIELDS.filter((f) => f !== 'env' && f !== '$schema'),
    ];
    expect(new Set(known)).toEqual(new Set(top));
  });
});
