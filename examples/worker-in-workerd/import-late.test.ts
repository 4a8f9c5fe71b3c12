/** The counterpart of import-time.test.ts: a swap per test comes too late for an import-time copy. */
import { env } from 'cloudflare:workers';
import { beforeEach, expect, it } from 'vitest';
import { Bucket, createEnv, parseWranglerConfig, useDoubles } from 'edge-doubles';
import { files } from './files-at-import.js';
import wranglerToml from './wrangler.toml?raw';

beforeEach(() => useDoubles(env, createEnv(parseWranglerConfig(wranglerToml, 'wrangler.toml')).env));

it('a copy taken at import time keeps the real binding when the swap comes per test', () => {
  expect(env.FILES).toBeInstanceOf(Bucket);
  expect(files).not.toBe(env.FILES);
  expect((files as object).constructor.name).toBe('R2Bucket');
});
