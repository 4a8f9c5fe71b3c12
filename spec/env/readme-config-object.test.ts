/** docs/create-env.md's snippets that use `createEnv` from `edge-doubles` (a config object, anywhere). */
import { describe, expect, it } from 'vitest';
import { Bucket, createEnv, parseWranglerConfig } from '../../lib/index.js';

describe('README: createEnv from edge-doubles', () => {
  it('refuses what wrangler refuses, with its text', () => {
    // README: errors
    expect(() => createEnv({ r2_buckets: [{ binding: 'FILES', bucket_name: 'My_Files' }] })).toThrow(
      'r2_buckets[0].bucket_name="My_Files" is invalid. Bucket names must begin and end with an alphanumeric character',
    );
    // README: end
  });

  it('parses config text anywhere', () => {
    const text = '[[r2_buckets]]\nbinding = "FILES"\n';
    // README: parse
    const { env } = createEnv(parseWranglerConfig(text, 'wrangler.toml'));
    // README: end
    expect(env.FILES).toBeInstanceOf(Bucket);
  });
});
