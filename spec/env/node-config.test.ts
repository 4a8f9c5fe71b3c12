import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Bucket, ConfigParseError, WranglerConfigError } from '../../lib/index.js';
import { createEnv, findWranglerConfig, readWranglerConfig } from '../../lib/node/index.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'edge-doubles-config-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const quiet = { onWarning: () => {} };
let n = 0;
function project(files: Record<string, string>): string {
  const dir = join(root, String(n++));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('createEnv from a file (edge-doubles/node)', () => {
  it('reads wrangler.toml', () => {
    const dir = project({ 'wrangler.toml': '[[r2_buckets]]\nbinding = "FILES"\nbucket_name = "files"\n' });
    const { env } = createEnv(join(dir, 'wrangler.toml'), quiet);
    expect(env.FILES).toBeInstanceOf(Bucket);
  });

  it('reads wrangler.jsonc and wrangler.json, comments and trailing commas included', () => {
    const text = '{\n  // the files\n  "r2_buckets": [{ "binding": "FILES", },],\n}\n';
    for (const name of ['wrangler.jsonc', 'wrangler.json']) {
      const dir = project({ [name]: text });
      expect(Object.keys(createEnv(join(dir, name), quiet).env)).toEqual(['FILES']);
    }
  });

  it('takes a file URL', () => {
    const dir = project({ 'wrangler.toml': 'r2_buckets = [{ binding = "B" }]\n' });
    expect(createEnv(pathToFileURL(join(dir, 'wrangler.toml')), quiet).env.B).toBeInstanceOf(Bucket);
  });

  it('names the file (relative to the working directory) in its messages, as wrangler does', () => {
    const dir = project({ 'wrangler.toml': 'r2_buckets = [{ binding = "B", bucket_name = "B" }]\n' });
    const path = join(dir, 'wrangler.toml');
    expect(() => createEnv(path, quiet)).toThrow(
      new RegExp(`^Processing ${relative(process.cwd(), path).replaceAll('.', '\\.')} configuration:\n`),
    );
    expect(() => createEnv(path, quiet)).toThrow(WranglerConfigError);
  });

  it('throws the first parse error with its line and column', () => {
    const dir = project({ 'wrangler.jsonc': '{\n  "name": "w"\n  "r2_buckets": []\n}\n' });
    const path = join(dir, 'wrangler.jsonc');
    const error = (() => {
      try {
        createEnv(path);
      } catch (e) {
        return e as ConfigParseError;
      }
    })()!;
    expect(error).toBeInstanceOf(ConfigParseError);
    expect([error.text, error.line, error.column, error.lineText]).toEqual([
      'CommaExpected',
      3,
      2,
      '  "r2_buckets": []',
    ]);
    expect(error.message).toBe(`CommaExpected\n\n    ${path}:3:2:\n      3 │   "r2_buckets": []`);
  });

  it("a TOML error keeps the first line of smol-toml's message", () => {
    const dir = project({ 'wrangler.toml': 'name = "w"\nx = = 1\n' });
    expect(() => readWranglerConfig(join(dir, 'wrangler.toml'))).toThrow(
      /^Invalid TOML document: invalid value\n\n.*:2:4:/,
    );
  });

  it('refuses a file that is not a wrangler config, and one that is missing', () => {
    const dir = project({ 'wrangler.yaml': 'r2_buckets: []\n' });
    expect(() => createEnv(join(dir, 'wrangler.yaml'))).toThrow('must end in .toml, .json or .jsonc');
    expect(() => createEnv(join(dir, 'nope.toml'))).toThrow(/^Could not read file: /);
  });

  it('reads a relative path from the working directory, and says so when the file is not there', () => {
    const dir = project({ 'wrangler.toml': 'r2_buckets = [{ binding = "FILES" }]\n', 'test/worker.test.ts': '' });
    vi.spyOn(process, 'cwd').mockReturnValue(dir);
    expect(Object.keys(createEnv('wrangler.toml', quiet).env)).toEqual(['FILES']);
    expect(Object.keys(createEnv('./wrangler.toml', quiet).env)).toEqual(['FILES']);

    vi.spyOn(process, 'cwd').mockReturnValue(join(dir, 'test'));
    expect(() => createEnv('wrangler.toml')).toThrow(
      `createEnv: no wrangler.toml in the working directory, ${join(dir, 'test')}. A relative path is read from the working directory ` +
        `(your project's root when Vitest runs there); for a file beside the test, pass new URL('./wrangler.toml', import.meta.url).`,
    );
    expect(Object.keys(createEnv(pathToFileURL(join(dir, 'wrangler.toml')), quiet).env)).toEqual(['FILES']);
  });

  it('uses CLOUDFLARE_ENV when no environment is given, as wrangler does', () => {
    const dir = project({
      'wrangler.toml': 'r2_buckets = [{ binding = "TOP" }]\n[env.staging]\nr2_buckets = [{ binding = "STAGING" }]\n',
    });
    vi.stubEnv('CLOUDFLARE_ENV', 'staging');
    expect(Object.keys(createEnv(join(dir, 'wrangler.toml'), quiet).env)).toEqual(['STAGING']);
    expect(Object.keys(createEnv(join(dir, 'wrangler.toml'), { ...quiet, environment: '' }).env)).toEqual(['TOP']);
  });
});

describe('finding the config as wrangler does', () => {
  it('looks for wrangler.json up to the root, then wrangler.jsonc, then wrangler.toml', () => {
    const dir = project({
      'wrangler.json': '{}',
      'app/wrangler.toml': '',
      'app/wrangler.jsonc': '{}',
      'app/src/deep/.keep': '',
    });
    expect(findWranglerConfig(join(dir, 'app/src/deep'))).toBe(join(dir, 'wrangler.json'));
    const noJson = project({ 'wrangler.jsonc': '{}', 'app/wrangler.toml': '', 'app/src/.keep': '' });
    expect(findWranglerConfig(join(noJson, 'app/src'))).toBe(join(noJson, 'wrangler.jsonc'));
    const onlyToml = project({ 'app/wrangler.toml': '', 'app/src/.keep': '' });
    expect(findWranglerConfig(join(onlyToml, 'app/src'))).toBe(join(onlyToml, 'app/wrangler.toml'));
  });

  it('createEnv() with no argument starts from the working directory', () => {
    const dir = project({ 'wrangler.toml': 'r2_buckets = [{ binding = "FOUND" }]\n', 'test/.keep': '' });
    vi.spyOn(process, 'cwd').mockReturnValue(join(dir, 'test'));
    expect(Object.keys(createEnv(undefined, quiet).env)).toEqual(['FOUND']);
  });

  it('says where it looked when there is none', () => {
    const dir = project({ '.keep': '' });
    vi.spyOn(process, 'cwd').mockReturnValue(dir);
    // tmpdir's ancestors hold no wrangler config on a sane machine; the message names the start.
    expect(() => createEnv()).toThrow(
      `createEnv: no wrangler.json, wrangler.jsonc, wrangler.toml found in ${dir} or any directory above it`,
    );
  });
});
