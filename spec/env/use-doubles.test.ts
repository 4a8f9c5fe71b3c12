import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Bucket, createEnv, useDoubles } from '../../lib/index.js';

describe('useDoubles', () => {
  it('assigns the doubles and returns the function that puts the previous values back', () => {
    const real = { name: 'real' };
    const env: Record<string, unknown> = { FILES: real, OTHER: 1 };
    const double = new Bucket();
    const restore = useDoubles(env, { FILES: double, NEW: 2 });
    expect(env).toEqual({ FILES: double, OTHER: 1, NEW: 2 });
    restore();
    expect(env).toEqual({ FILES: real, OTHER: 1 });
    expect('NEW' in env).toBe(false);
  });

  it('restores once: a second call changes nothing', () => {
    const env: Record<string, unknown> = { FILES: 'real' };
    const restore = useDoubles(env, { FILES: 'double' });
    restore();
    env.FILES = 'set later';
    restore();
    expect(env.FILES).toBe('set later');
  });

  it('nested swaps unwind in order', () => {
    const env: Record<string, unknown> = { FILES: 'real' };
    const outer = useDoubles(env, { FILES: 'outer' });
    const inner = useDoubles(env, { FILES: 'inner' });
    inner();
    expect(env.FILES).toBe('outer');
    outer();
    expect(env.FILES).toBe('real');
  });

  it('works through a Proxy over the env, as cloudflare:workers exposes it', () => {
    const target: Record<string, unknown> = { FILES: 'real' };
    const env = new Proxy({} as Record<string, unknown>, {
      get: (_, k) => target[k as string],
      set: (_, k, v) => ((target[k as string] = v), true),
      has: (_, k) => k in target,
      deleteProperty: (_, k) => delete target[k as string],
    });
    const restore = useDoubles(env, { FILES: 'double', NEW: 1 });
    expect(target).toEqual({ FILES: 'double', NEW: 1 });
    restore();
    expect(target).toEqual({ FILES: 'real' });
  });

  describe("as Vitest's beforeEach cleanup", () => {
    const env: Record<string, unknown> = { FILES: 'real' };
    beforeEach(() => useDoubles(env, createEnv({ r2_buckets: [{ binding: 'FILES' }] }).env));
    let first: unknown;
    afterAll(() => expect(env.FILES).toBe('real')); // every test's cleanup put it back

    it('swaps for the test', () => {
      first = env.FILES;
      expect(first).toBeInstanceOf(Bucket);
    });

    it('gives the next test a fresh double (the cleanup ran in between)', () => {
      expect(env.FILES).toBeInstanceOf(Bucket);
      expect(env.FILES).not.toBe(first);
    });
  });
});
