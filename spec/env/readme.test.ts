/**
 * docs/create-env.md's snippets, as passing tests (spec/docs.test.ts checks that the page holds each
 * `// README: <name>` region verbatim, and the wrangler.toml fixture whole).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Bucket } from '../../lib/index.js';
import { createEnv } from '../../lib/node/index.js';

interface Env {
  FILES: Bucket;
  UPLOADS: Bucket;
}

const project = mkdtempSync(join(tmpdir(), 'edge-doubles-readme-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
// docs/create-env.md shows this file as it is.
const fixture = readFileSync(new URL('./fixtures/wrangler.toml', import.meta.url), 'utf8');
writeFileSync(join(project, 'wrangler.toml'), fixture);

describe('README: env from the wrangler config', () => {
  it('builds env from wrangler.toml', async () => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    // README: create-env
    const { env, unfaked } = createEnv<Env>('wrangler.toml'); // or createEnv() to find it as wrangler does
    await env.FILES.put('a.txt', 'hello');
    // UPLOADS is the same local bucket (files-dev): one Bucket, one state.
    expect(env.UPLOADS).toBe(env.FILES);
    expect(unfaked).toEqual([{ binding: 'CACHE', field: 'kv_namespaces', kind: 'KV Namespace' }]);
    // README: end
    expect(await (await env.UPLOADS.get('a.txt'))!.text()).toBe('hello');
    vi.restoreAllMocks();
  });

  it('takes an environment', () => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    const warnings: string[] = [];
    // README: environment
    const { env } = createEnv<Env>('wrangler.toml', {
      environment: 'staging', // as `wrangler --env staging`: [env.staging]'s bindings only
      onWarning: (message) => warnings.push(message), // default: console.warn
    });
    expect(Object.keys(env)).toEqual(['FILES']);
    // README: end
    expect(warnings[0]).toContain('"kv_namespaces" exists at the top level, but not on "env.staging".');
    vi.restoreAllMocks();
  });
});
