/**
 * Lifecycle rules acting on a bucket on the double's clock (lib/bucket/lifecycle.ts, the layer's
 * pass): the default multipart rule, expiry and InfrequentAccess transitions by age and date, their
 * precedence, the 'daily' timing, and the bucket's test support (log, snapshot, reset). Rules are set
 * on the bucket's configuration directly here; the REST API and the S3 view set them in their own tests.
 */
import { describe, expect, it } from 'vitest';
import { Bucket } from '../../lib/bucket.js';
import { CloudflareApi } from '../../lib/cloudflare-api/index.js';
import { createEnv } from '../../lib/env/create-env.js';
import { S3Api } from '../../lib/s3.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import {
  DEFAULT_LIFECYCLE_RULES,
  FatesUnder,
  lifecycleRules,
  LifecycleRuleError,
  objectFate,
  passPrefixes,
} from '../../lib/bucket/lifecycle.js';
import { ManualClock } from '../../lib/clock.js';

const DAY = 86_400_000;
const START = Date.UTC(2030, 0, 1, 12); // noon, so 'daily' timing differs from 'exact'

function setup(rules?: unknown[], log = false) {
  const clock = new ManualClock(START);
  const bucket = new Bucket({ clock, log });
  const config = bucketLayer(bucket)!.config;
  if (rules) config.lifecycle = lifecycleRules(rules);
  return { clock, bucket, config };
}

const expireAfter = (id: string, prefix: string, days: number) => ({
  id,
  enabled: true,
  conditions: { prefix },
  deleteObjectsTransition: { condition: { type: 'Age', maxAge: days * 86400 } },
});
const keys = async (b: Bucket) => (await b.list()).objects.map((o) => o.key);

describe('the default rule', () => {
  it('a new bucket has the "Default Multipart Abort Rule" (7 days), in the API\'s JSON', () => {
    const { config } = setup();
    // The JSON third-party repositories recorded from the API (docs/sources/r2-api.md#lifecycle).
    expect(JSON.parse(JSON.stringify(config.lifecycle))).toEqual([
      {
        id: 'Default Multipart Abort Rule',
        enabled: true,
        conditions: {},
        abortMultipartUploadsTransition: { condition: { type: 'Age', maxAge: 604800 } },
      },
    ]);
  });

  it('rules without it: an upload outlives the week', async () => {
    const { clock, bucket } = setup([expireAfter('logs', 'logs/', 30)]);
    const upload = await bucket.createMultipartUpload('big');
    const part = await upload.uploadPart(1, 'still here');
    clock.advance(30 * DAY);
    const done = await upload.complete([part]);
    expect(done.size).toBe('still here'.length);
  });

  it('an abort rule of its own: 1 day under tmp/, while the rest keep no limit', async () => {
    const { clock, bucket } = setup([
      {
        id: 'tmp',
        enabled: true,
        conditions: { prefix: 'tmp/' },
        abortMultipartUploadsTransition: { condition: { type: 'Age', maxAge: 86400 } },
      },
    ]);
    const tmp = await bucket.createMultipartUpload('tmp/a');
    const other = await bucket.createMultipartUpload('keep/a');
    clock.advance(DAY - 1);
    await tmp.uploadPart(1, 'x');
    clock.advance(1);
    await expect(tmp.uploadPart(2, 'y')).rejects.toThrow(
      'uploadPart: The specified multipart upload does not exist. (10024)',
    );
    clock.advance(10 * DAY);
    await expect(other.uploadPart(1, 'z')).resolves.toMatchObject({ partNumber: 1 });
  });

  it('overlapping abort rules: the earlier expiry wins (docs, object-lifecycles)', async () => {
    const { clock, bucket } = setup([
      ...DEFAULT_LIFECYCLE_RULES,
      {
        id: 'short',
        enabled: true,
        conditions: { prefix: 'a/' },
        abortMultipartUploadsTransition: { condition: { type: 'Age', maxAge: 3600 } },
      },
    ]);
    const u = await bucket.createMultipartUpload('a/x');
    clock.advance(3600_000);
    await expect(u.uploadPart(1, 'late')).rejects.toThrow('(10024)');
  });
});

describe('object rules on the clock (exact timing, the default)', () => {
  it('expiry by age: there at maxAge − 1 ms, gone at maxAge, for head, get and list', async () => {
    const { clock, bucket } = setup([expireAfter('logs', 'logs/', 1)]);
    await bucket.put('logs/a', 'a');
    await bucket.put('keep/b', 'b');
    clock.advance(DAY - 1);
    expect(await keys(bucket)).toEqual(['keep/b', 'logs/a']);
    clock.advance(1);
    expect(await bucket.head('logs/a')).toBeNull();
    expect(await bucket.get('logs/a')).toBeNull();
    expect(await keys(bucket)).toEqual(['keep/b']);
  });

  it('an object written after a pass gets its own due time', async () => {
    const { clock, bucket } = setup([expireAfter('all', '', 2)]);
    await bucket.put('first', '1');
    clock.advance(DAY);
    await bucket.put('second', '2'); // due at START + 3 days
    clock.advance(DAY);
    expect(await keys(bucket)).toEqual(['second']);
    clock.advance(DAY);
    expect(await keys(bucket)).toEqual([]);
  });

  it('expiry by date, whatever the age', async () => {
    const { clock, bucket } = setup([
      {
        id: 'd',
        enabled: true,
        conditions: {},
        deleteObjectsTransition: { condition: { type: 'Date', date: '2030-01-02T00:00:00.000Z' } },
      },
    ]);
    await bucket.put('k', 'v');
    clock.set(Date.UTC(2030, 0, 2) - 1);
    expect(await bucket.head('k')).not.toBeNull();
    clock.set(Date.UTC(2030, 0, 2));
    expect(await bucket.head('k')).toBeNull();
  });

  it('a transition to InfrequentAccess shows in head, get and list; bytes, etag and upload time stay', async () => {
    const { clock, bucket } = setup([
      {
        id: 'ia',
        enabled: true,
        conditions: { prefix: 'cold/' },
        storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass: 'InfrequentAccess' }],
      },
    ]);
    const put = await bucket.put('cold/k', 'bytes');
    clock.advance(DAY);
    const head = (await bucket.head('cold/k'))!;
    expect(head.storageClass).toBe('InfrequentAccess');
    expect(head.etag).toBe(put.etag);
    expect(head.uploaded.getTime()).toBe(put.uploaded.getTime());
    const got = (await bucket.get('cold/k'))!;
    expect([got.storageClass, await got.text()]).toEqual(['InfrequentAccess', 'bytes']);
    expect((await bucket.list()).objects[0]!.storageClass).toBe('InfrequentAccess');
  });

  it('a transitioned object keeps version, metadata, checksums and multipart etag; a snapshot from before keeps Standard', async () => {
    const { clock, bucket } = setup([
      {
        id: 'ia',
        enabled: true,
        conditions: {},
        storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass: 'InfrequentAccess' }],
      },
    ]);
    const sha256 = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('bytes'));
    const put = await bucket.put('k', 'bytes', {
      httpMetadata: { contentType: 'text/plain' },
      customMetadata: { a: '1' },
      sha256,
    });
    const upload = await bucket.createMultipartUpload('m');
    const part = await upload.uploadPart(1, 'part');
    const multi = await upload.complete([part]);
    const before = bucket.snapshot();
    clock.advance(DAY);
    const shape = (
      o: {
        storageClass: string;
        version: string;
        etag: string;
        httpMetadata?: unknown;
        customMetadata?: unknown;
        checksums: { toJSON(): unknown };
      } | null,
    ) =>
      o && {
        storageClass: o.storageClass,
        version: o.version,
        etag: o.etag,
        http: o.httpMetadata,
        custom: o.customMetadata,
        checksums: o.checksums.toJSON(),
      };
    const moved = shape(await bucket.head('k'));
    expect(moved).toEqual({ ...shape(put), storageClass: 'InfrequentAccess' });
    expect(shape(await bucket.head('m'))).toEqual({ ...shape(multi), storageClass: 'InfrequentAccess' });
    bucket.restore(before);
    clock.set(clock.now() - DAY);
    expect(shape(await bucket.head('k'))).toEqual({ ...moved, storageClass: 'Standard' });
  });

  it('a deletion due with a transition wins (docs: "the delete wins")', async () => {
    const { clock, bucket, config } = setup([
      {
        id: 'both',
        enabled: true,
        conditions: {},
        deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
        storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass: 'InfrequentAccess' }],
      },
    ]);
    config.lifecycleTiming = 'exact';
    await bucket.put('k', 'v');
    clock.advance(DAY);
    expect(await bucket.head('k')).toBeNull();
  });

  it('a disabled rule does nothing', async () => {
    const { clock, bucket } = setup([{ ...expireAfter('off', '', 1), enabled: false }]);
    await bucket.put('k', 'v');
    clock.advance(10 * DAY);
    expect(await bucket.head('k')).not.toBeNull();
  });

  it('new rules act on objects already there, at once when already due', async () => {
    const { clock, bucket, config } = setup();
    await bucket.put('old', 'v');
    clock.advance(5 * DAY);
    expect(await bucket.head('old')).not.toBeNull();
    config.lifecycle = lifecycleRules([expireAfter('x', '', 1)]);
    expect(await bucket.head('old')).toBeNull();
  });
});

describe("'daily' timing: production's batch, within 24 hours", () => {
  it('an expiry holding at noon is applied at the next 00:00 UTC', async () => {
    const { clock, bucket, config } = setup([expireAfter('all', '', 1)]);
    config.lifecycleTiming = 'daily';
    await bucket.put('k', 'v'); // holds at START + 1 day (noon)
    clock.advance(DAY);
    expect(await bucket.head('k')).not.toBeNull();
    clock.set(Date.UTC(2030, 0, 3) - 1);
    expect(await bucket.head('k')).not.toBeNull();
    clock.set(Date.UTC(2030, 0, 3));
    expect(await bucket.head('k')).toBeNull();
  });
});

describe('the lifecycleTiming option: new Bucket, CloudflareApi, createEnv and S3Api', () => {
  /** When `bucket` (clock at START, noon) drops an object whose 1-day expiry holds at noon the next day. */
  async function droppedAt(bucket: Bucket, clock: ManualClock): Promise<'exact' | 'daily'> {
    bucketLayer(bucket)!.config.lifecycle = lifecycleRules([expireAfter('all', '', 1)]);
    await bucket.put('k', 'v');
    clock.set(START + DAY);
    if ((await bucket.head('k')) === null) return 'exact';
    clock.set(Date.UTC(2030, 0, 3)); // the next 00:00 UTC
    expect(await bucket.head('k')).toBeNull();
    return 'daily';
  }

  it("new Bucket({ lifecycleTiming }): 'daily' acts at the next 00:00 UTC, 'exact' (the default) at the moment", async () => {
    for (const lifecycleTiming of ['daily', 'exact', undefined] as const) {
      const clock = new ManualClock(START);
      expect(await droppedAt(new Bucket({ clock, lifecycleTiming }), clock)).toBe(lifecycleTiming ?? 'exact');
    }
  });

  it('a binding over a bucket shares its timing, and cannot give its own', async () => {
    const clock = new ManualClock(START);
    const bucket = new Bucket({ clock, lifecycleTiming: 'daily' });
    expect(await droppedAt(new Bucket({ over: bucket, compatibilityDate: '2024-01-01' }), clock)).toBe('daily');
    expect(() => new Bucket({ over: bucket, lifecycleTiming: 'exact' })).toThrow(
      "Bucket option 'lifecycleTiming' cannot be given with 'over': it is a setting of the bucket, which is the one 'over' names.",
    );
  });

  it('CloudflareApi({ lifecycleTiming }) gives it to the buckets it makes, through the API or addBucket', async () => {
    const clock = new ManualClock(START);
    const api = new CloudflareApi({ clock, lifecycleTiming: 'daily', buckets: ['first'] });
    expect(await droppedAt(api.account.bucket('first')!, clock)).toBe('daily');
    clock.set(START);
    const res = await api.fetch(`https://api.cloudflare.com/client/v4/accounts/${api.account.id}/r2/buckets`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'made' }),
    });
    expect(res.status).toBe(200);
    expect(await droppedAt(api.account.bucket('made')!, clock)).toBe('daily');
    const exact = new CloudflareApi({ clock });
    clock.set(START);
    expect(await droppedAt(exact.addBucket('plain'), clock)).toBe('exact');
  });

  it('createEnv(config, { lifecycleTiming }) gives it to the buckets it makes', async () => {
    const clock = new ManualClock(START);
    const config = { compatibility_date: '2025-01-01', r2_buckets: [{ binding: 'B', bucket_name: 'logs' }] };
    const { env } = createEnv<{ B: Bucket }>(config, { clock, lifecycleTiming: 'daily' });
    expect(await droppedAt(env.B, clock)).toBe('daily');
  });

  it('S3Api({ lifecycleTiming }) gives it to the buckets it makes (addBucket without one)', async () => {
    const clock = new ManualClock(START);
    expect(await droppedAt(new S3Api({ clock, lifecycleTiming: 'daily' }).addBucket('made'), clock)).toBe('daily');
  });

  it('any other value is a TypeError naming the option, whoever takes it', () => {
    const expected = (owner: string, got: string) =>
      `${owner} option 'lifecycleTiming': expected 'exact' (the default: a rule acts at the moment its condition holds) or 'daily' (at the next 00:00 UTC, as production's "within 24 hours"), got ${got}.`;
    expect(() => new Bucket({ lifecycleTiming: 'Daily' as never })).toThrow(
      new TypeError(expected('Bucket', '"Daily"')),
    );
    expect(() => new CloudflareApi({ lifecycleTiming: 24 as never })).toThrow(
      new TypeError(expected('CloudflareApi', '24')),
    );
    expect(() => createEnv({ r2_buckets: [] }, { lifecycleTiming: null as never })).toThrow(
      new TypeError(expected('createEnv', 'null')),
    );
    expect(() => new S3Api({ lifecycleTiming: {} as never })).toThrow(new TypeError(expected('S3Api', 'an object')));
  });
});

describe('test support', () => {
  it('a lifecycle deletion is logged as such: op delete, surface lifecycle', async () => {
    const { clock, bucket } = setup([expireAfter('all', '', 1)], true);
    await bucket.put('k', 'v');
    clock.advance(DAY);
    await bucket.head('k');
    // The deletion is applied when the head arrives, so it is logged just after that call began.
    expect(bucket.log.all().map((c) => [c.op, c.surface, c.key, c.status])).toEqual([
      ['put', 'binding', 'k', 'ok'],
      ['head', 'binding', 'k', 'ok'],
      ['delete', 'lifecycle', 'k', 'ok'],
    ]);
    expect(bucket.log.all()[1]!.result).toBeNull();
  });

  it('snapshot/restore bring the rules back with the objects; reset keeps them', async () => {
    const { clock, bucket, config } = setup();
    await bucket.put('k', 'v');
    const before = bucket.snapshot();
    config.lifecycle = lifecycleRules([expireAfter('all', '', 1)]);
    clock.advance(DAY);
    expect(await bucket.head('k')).toBeNull();
    bucket.restore(before);
    expect(config.lifecycle).toEqual(DEFAULT_LIFECYCLE_RULES);
    expect(await bucket.head('k')).not.toBeNull(); // the restored rules keep it
    config.lifecycle = lifecycleRules([expireAfter('all', '', 100)]);
    bucket.reset();
    expect(config.lifecycle.map((r) => r.id)).toEqual(['all']);
  });
});

describe('validation (lifecycleRules)', () => {
  it.each([
    ['not an array', {}],
    ['a rule without id', [{ enabled: true, conditions: {} }]],
    ['two rules with one id', [expireAfter('a', '', 1), expireAfter('a', 'x', 1)]],
    ['enabled not a boolean', [{ id: 'a', enabled: 'yes', conditions: {} }]],
    [
      'a Date abort',
      [
        {
          id: 'a',
          enabled: true,
          conditions: {},
          abortMultipartUploadsTransition: { condition: { type: 'Date', date: '2030-01-01' } },
        },
      ],
    ],
    [
      'a negative age',
      [{ ...expireAfter('a', '', 1), deleteObjectsTransition: { condition: { type: 'Age', maxAge: -1 } } }],
    ],
    [
      'another storage class',
      [
        {
          id: 'a',
          enabled: true,
          conditions: {},
          storageClassTransitions: [{ condition: { type: 'Age', maxAge: 1 }, storageClass: 'Glacier' }],
        },
      ],
    ],
    [
      'a bad date',
      [
        {
          id: 'a',
          enabled: true,
          conditions: {},
          deleteObjectsTransition: { condition: { type: 'Date', date: 'soon' } },
        },
      ],
    ],
    ['1001 rules', Array.from({ length: 1001 }, (_, i) => expireAfter(`r${i}`, '', 1))],
  ])('refuses %s', (_, input) => {
    expect(() => lifecycleRules(input)).toThrow(LifecycleRuleError);
  });

  it("keeps nothing of the caller's objects", () => {
    const input = [expireAfter('a', 'p/', 1)];
    const rules = lifecycleRules(input);
    input[0]!.conditions.prefix = 'changed/';
    expect(rules[0]!.conditions.prefix).toBe('p/');
    expect(Object.isFrozen(rules[0])).toBe(true);
  });
});

describe('a pass works out fates per prefix (FatesUnder)', () => {
  it("gives objectFate's answer for every key, under overlapping, disabled, Age and Date rules, exact and daily", () => {
    const age = (days: number) => ({ type: 'Age', maxAge: days * 86400 + 17 });
    const date = (d: string) => ({ type: 'Date', date: d });
    const rules = lifecycleRules([
      {
        id: 'all',
        enabled: true,
        conditions: {},
        storageClassTransitions: [{ condition: age(30), storageClass: 'InfrequentAccess' }],
      },
      { id: 'logs', enabled: true, conditions: { prefix: 'logs/' }, deleteObjectsTransition: { condition: age(7) } },
      {
        id: 'logs-old',
        enabled: true,
        conditions: { prefix: 'logs/old/' },
        deleteObjectsTransition: { condition: age(1) },
        storageClassTransitions: [{ condition: date('2030-01-03T00:00:00Z'), storageClass: 'InfrequentAccess' }],
      },
      { id: 'off', enabled: false, conditions: { prefix: 'logs/' }, deleteObjectsTransition: { condition: age(0) } },
      {
        id: 'tmp',
        enabled: true,
        conditions: { prefix: 'tmp' },
        deleteObjectsTransition: { condition: date('2030-02-01T00:00:00Z') },
        storageClassTransitions: [{ condition: age(2), storageClass: 'InfrequentAccess' }],
      },
      { id: 'tmp2', enabled: true, conditions: { prefix: 'tmp/x' }, deleteObjectsTransition: { condition: age(40) } },
    ] as never);
    const keys = ['a', 'logs/', 'logs/a', 'logs/old/b', 'logs/olds', 'tmp', 'tmp/', 'tmp/x', 'tmp/xy', 'tmq', 'zz'];
    const uploads = [Date.UTC(2030, 0, 1), Date.UTC(2030, 0, 1, 13, 5, 7, 9), Date.UTC(2029, 11, 31, 23, 59, 59)];
    // Every sweep prefix a pass uses, and the narrower ones a rule names, each over the keys under it.
    const prefixes = [...new Set([...passPrefixes(rules), 'logs/', 'logs/old/', 'tmp/x'])];
    let compared = 0;
    for (const timing of ['exact', 'daily'] as const) {
      for (const prefix of prefixes) {
        const fates = new FatesUnder(rules, prefix, timing);
        for (const key of keys.filter((k) => k.startsWith(prefix))) {
          for (const uploaded of uploads) {
            const want = objectFate(rules, key, uploaded, timing);
            expect({
              key,
              prefix,
              timing,
              deleteAt: fates.deleteAt(key, uploaded),
              infrequentAt: fates.infrequentAt(key, uploaded),
            }).toEqual({ key, prefix, timing, ...want });
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(60);
  });
});
