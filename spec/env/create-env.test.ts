import { describe, expect, it, vi } from 'vitest';
import {
  Account,
  Bucket,
  CloudflareApi,
  createEnv,
  ManualClock,
  WranglerConfigError,
  type WranglerConfig,
} from '../../lib/index.js';
import type { MessageBatch, Queue } from '../../lib/queue.js';
import { IndexedDbStorage } from '../../lib/bucket.js';
import { IDBFactory } from 'fake-indexeddb';

const quiet = { onWarning: () => {} };

describe('createEnv: bucket bindings', () => {
  it('gives each r2_buckets entry a Bucket under its binding', async () => {
    const { env, unfaked } = createEnv({ r2_buckets: [{ binding: 'FILES', bucket_name: 'files' }] }, quiet);
    expect(env.FILES).toBeInstanceOf(Bucket);
    await env.FILES!.put('a', 'hello');
    expect(await (await env.FILES!.get('a'))!.text()).toBe('hello');
    expect(unfaked).toEqual([]);
  });

  it("takes the documents' neutral store_buckets as well", () => {
    const { env } = createEnv({ store_buckets: [{ binding: 'STORE', bucket_name: 'store' }] }, quiet);
    expect(env.STORE).toBeInstanceOf(Bucket);
  });

  it('bindings of one local bucket are one Bucket: preview_bucket_name ?? bucket_name ?? binding', async () => {
    const { env, buckets } = createEnv(
      {
        r2_buckets: [
          { binding: 'A', bucket_name: 'prod-a', preview_bucket_name: 'shared' },
          { binding: 'B', bucket_name: 'shared' },
          { binding: 'C', bucket_name: 'prod-a' },
          { binding: 'shared' },
          { binding: 'D' },
        ],
      },
      quiet,
    );
    expect(env.A).toBe(env.B);
    expect(env.A).toBe(env.shared);
    expect(env.C).not.toBe(env.A); // C's local store is prod-a: A uses its preview bucket
    expect(env.D).not.toBe(env.A);
    await env.A!.put('k', 'v');
    expect(await env.B!.head('k')).not.toBeNull();
    expect(await env.C!.head('k')).toBeNull();
    expect([...buckets.keys()]).toEqual(['shared', 'prod-a', 'D']);
    expect(buckets.get('shared')).toBe(env.A);
  });

  it('ignores jurisdiction locally, as Miniflare does', () => {
    const { env } = createEnv(
      {
        r2_buckets: [
          { binding: 'EU', bucket_name: 'logs', jurisdiction: 'eu' },
          { binding: 'US', bucket_name: 'logs' },
        ],
      },
      quiet,
    );
    expect(env.EU).toBe(env.US);
  });

  // Before 2022-08-04 `list` ignores `include` and always returns metadata: a visible effect of the date.
  const listedMetadata = async (bucket: Bucket) => {
    await bucket.put('k', 'v', { customMetadata: { a: '1' } });
    return (await bucket.list()).objects[0]!.customMetadata;
  };

  it('passes compatibility_date to every bucket', async () => {
    const config = (date: string): WranglerConfig => ({
      compatibility_date: date,
      r2_buckets: [{ binding: 'B' }, { binding: 'C' }],
    });
    const old = createEnv(config('2022-01-01'), quiet).env;
    expect(await listedMetadata(old.B!)).toEqual({ a: '1' });
    expect(await listedMetadata(old.C!)).toEqual({ a: '1' });
    expect(await listedMetadata(createEnv(config('2024-01-01'), quiet).env.B!)).toBeUndefined();
  });

  it('passes compatibility_flags to every bucket', async () => {
    const { env } = createEnv(
      {
        compatibility_date: '2022-01-01',
        compatibility_flags: ['r2_list_honor_include'],
        r2_buckets: [{ binding: 'B' }],
      },
      quiet,
    );
    await env.B!.put('k', 'v', { customMetadata: { a: '1' } });
    expect((await env.B!.list({ include: ['customMetadata'] })).objects[0]!.customMetadata).toEqual({ a: '1' });
  });

  it('passes a clock to every bucket', async () => {
    const { env } = createEnv({ r2_buckets: [{ binding: 'B' }] }, { clock: () => Date.UTC(2030, 0, 1) });
    expect((await env.B!.put('k', 'v')).uploaded.toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it("turns every bucket's call log on with log: true, and leaves it off by default", async () => {
    const logged = createEnv({ r2_buckets: [{ binding: 'A' }, { binding: 'B' }] }, { log: true }).env;
    await logged.A!.put('k', 'v');
    await logged.B!.head('k');
    expect(logged.A!.log.all()).toMatchObject([{ op: 'put', key: 'k' }]);
    expect(logged.B!.log.all()).toMatchObject([{ op: 'head', key: 'k' }]);

    const quiet = createEnv({ r2_buckets: [{ binding: 'A' }] }).env;
    await quiet.A!.put('k', 'v');
    expect(quiet.A!.log.recording).toBe(false);
    expect(quiet.A!.log.all()).toEqual([]);
  });
});

describe('createEnv: environments', () => {
  const config: WranglerConfig = {
    compatibility_date: '2024-01-01',
    compatibility_flags: ['nodejs_compat'],
    r2_buckets: [{ binding: 'TOP', bucket_name: 'top' }],
    env: {
      staging: { compatibility_date: '2022-01-01', r2_buckets: [{ binding: 'STAGING', bucket_name: 'staging' }] },
      bare: {},
    },
  };

  it("uses [env.<name>]'s bindings and none of the top level's", () => {
    const warnings: string[] = [];
    const { env } = createEnv(config, { environment: 'staging', onWarning: (m) => warnings.push(m) });
    expect(Object.keys(env)).toEqual(['STAGING']);
    expect(warnings.join('\n')).toContain(
      'There is a r2_buckets binding with name "TOP" at the top level, but not on "env.staging".',
    );
  });

  it("gives an environment without r2_buckets no buckets, with wrangler's warning", () => {
    const { env, warnings } = createEnv(config, { ...quiet, environment: 'bare' });
    expect(env).toEqual({});
    expect(warnings).toContain(
      '"r2_buckets" exists at the top level, but not on "env.bare".\n' +
        'This is not what you probably want, since "r2_buckets" is not inherited by environments.\n' +
        'Please add "r2_buckets" to "env.bare".',
    );
  });

  it('inherits compatibility_date and flags unless the environment replaces them', async () => {
    // staging's own date (2022) makes list return metadata it was not asked for.
    const { env } = createEnv(config, { ...quiet, environment: 'staging' });
    await env.STAGING!.put('k', 'v', { customMetadata: { a: '1' } });
    expect((await env.STAGING!.list()).objects[0]!.customMetadata).toEqual({ a: '1' });
    const inherited = createEnv(
      {
        compatibility_date: '2022-01-01',
        compatibility_flags: ['r2_list_honor_include'],
        env: { x: { r2_buckets: [{ binding: 'B' }] } },
      },
      { ...quiet, environment: 'x' },
    ).env;
    await inherited.B!.put('k', 'v', { customMetadata: { a: '1' } });
    expect((await inherited.B!.list()).objects[0]!.customMetadata).toBeUndefined();
  });

  it('replaces compatibility_flags, never concatenates them', async () => {
    const { env } = createEnv(
      {
        compatibility_date: '2022-01-01',
        compatibility_flags: ['r2_list_honor_include'],
        env: { x: { compatibility_flags: ['nodejs_compat'], r2_buckets: [{ binding: 'B' }] } },
      },
      { ...quiet, environment: 'x' },
    );
    await env.B!.put('k', 'v', { customMetadata: { a: '1' } });
    expect((await env.B!.list()).objects[0]!.customMetadata).toEqual({ a: '1' }); // the top's flag is gone
  });

  it('an unknown environment is an error when environments exist', () => {
    expect(() => createEnv(config, { ...quiet, environment: 'prod' })).toThrow(
      'No environment found in configuration with name "prod".\n' +
        '    Before using `--env=prod` there should be an equivalent environment section in the configuration.\n' +
        '    The available configured environment names are: ["staging","bare"]',
    );
  });

  it('an unknown environment is only a warning when none exist, and the top level is used', () => {
    const { env, warnings } = createEnv({ r2_buckets: [{ binding: 'TOP' }] }, { ...quiet, environment: 'prod' });
    expect(Object.keys(env)).toEqual(['TOP']);
    expect(warnings[0]).toMatch(/^No environment found in configuration with name "prod"\./);
  });
});

describe('createEnv: validation', () => {
  const errorOf = (config: unknown, options = {}) => {
    try {
      createEnv(config as WranglerConfig, { ...quiet, ...options });
    } catch (e) {
      expect(e).toBeInstanceOf(WranglerConfigError);
      return e as WranglerConfigError;
    }
    throw new Error('no error');
  };

  it("a malformed bucket name is an error, with wrangler's text", () => {
    const e = errorOf({ r2_buckets: [{ binding: 'B', bucket_name: 'Bad_Name' }] });
    expect(e.message).toBe(
      'Processing wrangler configuration:\n' +
        '  - r2_buckets[0].bucket_name="Bad_Name" is invalid. Bucket names must begin and end with an alphanumeric character, only contain lowercase letters, numbers, and hyphens, and be between 3 and 63 characters long.',
    );
  });

  it('a duplicate binding is an error', () => {
    const e = errorOf({
      r2_buckets: [
        { binding: 'B', bucket_name: 'one' },
        { binding: 'B', bucket_name: 'two' },
      ],
    });
    expect(e.errors).toEqual([
      'B assigned to multiple R2 Bucket bindings.',
      'Bindings must have unique names, so that they can all be referenced in the worker.\nPlease change your bindings to have unique names.',
    ]);
  });

  it('a name shared across binding types is an error', () => {
    const e = errorOf({ r2_buckets: [{ binding: 'X' }], kv_namespaces: [{ binding: 'X', id: '1' }] });
    expect(e.errors[0]).toBe('X assigned to KV Namespace and R2 Bucket bindings.');
  });

  it('accepts what wrangler accepts: no bucket_name, a binding that is not an identifier', () => {
    const { env } = createEnv({ r2_buckets: [{ binding: 'my-files' }] }, quiet);
    expect(env['my-files']).toBeInstanceOf(Bucket);
  });

  it('unknown fields are warnings, not errors', () => {
    const onWarning = vi.fn();
    const { env, warnings } = createEnv(
      { r2_buckets: [{ binding: 'B', bucket_nmae: 'typo' } as never], colour: 'blue' },
      { onWarning },
    );
    expect(env.B).toBeInstanceOf(Bucket);
    expect(warnings).toEqual([
      'Unexpected fields found in r2_buckets[0] field: "bucket_nmae"',
      'Unexpected fields found in top-level field: "colour"',
    ]);
    expect(onWarning).toHaveBeenCalledTimes(1);
    expect(onWarning.mock.calls[0]![0]).toBe(
      'Processing wrangler configuration:\n' +
        '  - Unexpected fields found in r2_buckets[0] field: "bucket_nmae"\n' +
        '  - Unexpected fields found in top-level field: "colour"',
    );
  });

  it('warnings go to console.warn by default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      createEnv({ colour: 'blue' });
      expect(warn).toHaveBeenCalledWith(
        'Processing wrangler configuration:\n  - Unexpected fields found in top-level field: "colour"',
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("reports the errors of an environment under its own heading, after the top level's", () => {
    const e = errorOf(
      { compatibility_date: 'soon', env: { staging: { r2_buckets: [{ binding: 1 }] } } },
      { environment: 'staging' },
    );
    expect(e.message).toBe(
      'Processing wrangler configuration:\n' +
        '  - "compatibility_date" field should be a valid ISO-8601 date (YYYY-MM-DD), but got "soon".\n' +
        '  - "env.staging" environment configuration\n' +
        '    - "env.staging.r2_buckets[0]" bindings should have a string "binding" field but got {"binding":1}.',
    );
  });

  it('refuses what is not an object', () => {
    expect(() => createEnv([] as never)).toThrow(TypeError);
  });
});

describe('createEnv: bindings it does not fake', () => {
  const config: WranglerConfig = {
    r2_buckets: [{ binding: 'FILES' }],
    kv_namespaces: [{ binding: 'CACHE', id: 'x' }],
    d1_databases: [{ binding: 'DB', database_id: 'y' }],
    vars: { GREETING: 'hi' },
  };

  it('lists them and leaves them out of env (vars are not fakes: they are in env)', () => {
    const { env, unfaked } = createEnv(config, quiet);
    expect(Object.keys(env)).toEqual(['FILES', 'GREETING']);
    expect(unfaked).toEqual([
      { binding: 'CACHE', field: 'kv_namespaces', kind: 'KV Namespace' },
      { binding: 'DB', field: 'd1_databases', kind: 'D1 Database' },
    ]);
  });

  it("unsupported: 'warn' reports them", () => {
    const onWarning = vi.fn();
    createEnv(config, { unsupported: 'warn', onWarning });
    expect(onWarning).toHaveBeenCalledWith(
      'createEnv: these bindings are not faked by edge-doubles and are missing from env: CACHE (KV Namespace, kv_namespaces), DB (D1 Database, d1_databases)',
    );
  });

  it("unsupported: 'error' throws", () => {
    expect(() => createEnv(config, { unsupported: 'error' })).toThrow(/missing from env: CACHE \(KV Namespace/);
    expect(() => createEnv({ r2_buckets: [{ binding: 'FILES' }] }, { unsupported: 'error' })).not.toThrow();
    expect(() =>
      createEnv({ r2_buckets: [{ binding: 'FILES' }], vars: { HOST: 'x' } }, { unsupported: 'error' }),
    ).not.toThrow();
  });
});

describe('createEnv: bindings named by `name`, by a nested list, or not at all', () => {
  // wrangler's config schema: send_email and ratelimits entries are named by `name`, durable objects
  // and unsafe bindings by `bindings[].name`, queue producers by `producers[].binding`; `assets`
  // binds only when it sets `binding` (spec/env/binding-kinds.test.ts checks every kind).
  const config: WranglerConfig = {
    send_email: [{ name: 'MAILER', destination_address: 'ops@example.com' }],
    ratelimits: [{ name: 'LIMITER', namespace_id: '1001', simple: { limit: 100, period: 60 } }],
    durable_objects: { bindings: [{ name: 'ROOMS', class_name: 'Room' }] },
    queues: { producers: [{ binding: 'JOBS', queue: 'jobs' }], consumers: [{ queue: 'jobs' }] },
    assets: { directory: './public' },
  };

  it('lists each under the name the Worker reads it by', () => {
    expect(createEnv(config, quiet).unfaked).toEqual([
      { binding: 'ROOMS', field: 'durable_objects', kind: 'Durable Object' },
      { binding: 'MAILER', field: 'send_email', kind: 'Send Email' },
      // Queue producers are faked (spec/queue/env.test.ts): JOBS is in env, not here.
      { binding: 'LIMITER', field: 'ratelimits', kind: 'Rate Limit' },
    ]);
    expect(createEnv({ assets: { directory: './public', binding: 'ASSETS' } }, quiet).unfaked).toEqual([
      { binding: 'ASSETS', field: 'assets', kind: 'Assets' },
    ]);
  });

  it("unsupported: 'error' throws for a rate limiter or an email sender alone", () => {
    expect(() => createEnv({ ratelimits: config.ratelimits }, { unsupported: 'error' })).toThrow(
      'createEnv: this binding is not faked by edge-doubles and is missing from env: LIMITER (Rate Limit, ratelimits)',
    );
    expect(() => createEnv({ send_email: config.send_email }, { unsupported: 'error' })).toThrow(
      'MAILER (Send Email, send_email)',
    );
    expect(() => createEnv({ assets: { directory: './public' } }, { unsupported: 'error' })).not.toThrow();
  });
});

describe('createEnv: vars', () => {
  const config: WranglerConfig = {
    r2_buckets: [{ binding: 'FILES' }],
    vars: { HOST: 'files.example.com', RETRIES: 2, LIMITS: { max: [1, 2] } },
    env: { staging: { r2_buckets: [{ binding: 'FILES' }], vars: { HOST: 'staging.example.com' } }, bare: {} },
  };

  it('are in env as wrangler binds them: a string as it is, any other value as its JSON', () => {
    const { env } = createEnv<{ FILES: Bucket; HOST: string; RETRIES: number; LIMITS: { max: number[] } }>(
      config,
      quiet,
    );
    expect(env.FILES).toBeInstanceOf(Bucket);
    expect([env.HOST, env.RETRIES, env.LIMITS]).toEqual(['files.example.com', 2, { max: [1, 2] }]);
  });

  it('are copies: a test changing one changes neither the config nor the next env', () => {
    const first = createEnv<{ LIMITS: { max: number[] } }>(config, quiet).env;
    first.LIMITS.max.push(3);
    expect(createEnv<{ LIMITS: { max: number[] } }>(config, quiet).env.LIMITS).toEqual({ max: [1, 2] });
    expect((config.vars as { LIMITS: unknown }).LIMITS).toEqual({ max: [1, 2] });
  });

  it("are not inherited: an environment has its own, with wrangler's warning for those it lacks", () => {
    const warnings: string[] = [];
    const staging = createEnv(config, { environment: 'staging', onWarning: (m) => warnings.push(m) }).env as Record<
      string,
      unknown
    >;
    expect(Object.keys(staging)).toEqual(['FILES', 'HOST']);
    expect(staging.HOST).toBe('staging.example.com');
    expect(warnings.join('\n')).toContain('The following vars exist at the top level, but not on "env.staging.vars".');
    const bare = createEnv(config, { ...quiet, environment: 'bare' }).env;
    expect(Object.keys(bare)).toEqual([]);
  });

  it("that are not an object are an error, with wrangler's text", () => {
    expect(() => createEnv({ vars: 'HOST' as never }, quiet)).toThrow(
      'The field "vars" should be an object but got "HOST".',
    );
  });
});

describe("createEnv over an account: clock and the user's own bindings (issue 24)", () => {
  const config: WranglerConfig = {
    compatibility_date: '2025-01-01',
    r2_buckets: [{ binding: 'FILES', bucket_name: 'files' }],
    kv_namespaces: [{ binding: 'CACHE', id: 'x' }],
    queues: { producers: [{ binding: 'JOBS', queue: 'jobs' }], consumers: [{ queue: 'jobs' }] },
  };

  it("a bucket the account already has runs on createEnv's clock when it is the account's", async () => {
    const clock = new ManualClock(Date.UTC(2031, 4, 6));
    const api = new CloudflareApi({ clock, buckets: ['files'] });
    const { env } = createEnv<{ FILES: Bucket }>(config, { api, clock, ...quiet });
    expect((await env.FILES.put('k', 'v'))!.uploaded.toISOString()).toBe('2031-05-06T00:00:00.000Z');
  });

  it('throws, saying why, when an account bucket or queue runs on another clock', () => {
    const clock = new ManualClock(Date.UTC(2031, 4, 6));
    const api = new CloudflareApi({ buckets: ['files'] }); // Date.now()
    expect(() => createEnv(config, { api, clock, ...quiet })).toThrow(
      /account's bucket files \(binding FILES\) runs on Date\.now\(\), not the clock given to createEnv.*new CloudflareApi\(\{ clock \}\)/,
    );
    const account = new Account();
    createEnv({ queues: config.queues }, { account, clock: new ManualClock(0), ...quiet }); // makes the account's queue on that clock
    expect(() => createEnv({ queues: config.queues }, { account, clock, ...quiet })).toThrow(
      /account's queue jobs runs on another clock/,
    );
    expect(() => createEnv({ queues: config.queues }, { account, ...quiet })).not.toThrow(); // no clock asked: the queue's own stands
  });

  it('the same holds for an IndexedDB bucket the account has', async () => {
    const clock = new ManualClock(Date.UTC(2031, 4, 6));
    const account = new Account();
    account.addBucket(
      'files',
      new Bucket({ clock, storage: new IndexedDbStorage({ name: 'files', indexedDB: new IDBFactory() }) }),
    );
    const { env } = createEnv<{ FILES: Bucket }>({ r2_buckets: config.r2_buckets }, { account, clock, ...quiet });
    expect((await env.FILES.put('k', 'v'))!.uploaded.toISOString()).toBe('2031-05-06T00:00:00.000Z');
    expect(() =>
      createEnv({ r2_buckets: config.r2_buckets }, { account, clock: new ManualClock(0), ...quiet }),
    ).toThrow(/runs on another clock/);
  });

  it("bindings: the consumer's env carries the user's KV, which is no longer unfaked", async () => {
    const written = new Map<string, string>();
    const kv = { put: async (k: string, v: string) => void written.set(k, v) };
    const worker = {
      async queue(batch: MessageBatch<string>, env: { CACHE: typeof kv }) {
        for (const m of batch.messages) await env.CACHE.put(m.body, 'seen');
      },
    };
    const { env, queues, unfaked } = createEnv<{ JOBS: Queue<string>; CACHE: typeof kv }>(config, {
      worker,
      bindings: { CACHE: kv },
      unsupported: 'error',
      ...quiet,
    });
    expect(env.CACHE).toBe(kv);
    expect(unfaked).toEqual([]);
    await env.JOBS.send('job-1');
    await queues.get('jobs')!.drain();
    expect(written.get('job-1')).toBe('seen');
  });

  it('bindings may not take the name of a binding createEnv makes', () => {
    expect(() => createEnv(config, { bindings: { FILES: {} }, ...quiet })).toThrow(
      /bindings\.FILES names the config's R2 Bucket binding FILES/,
    );
    expect(() => createEnv(config, { bindings: { JOBS: {} }, ...quiet })).toThrow(/bindings\.JOBS names the config's/);
  });
});
