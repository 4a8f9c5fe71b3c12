/**
 * Issue 24, "settings are bucket state": a bucket's settings (CORS, lifecycle, locks, notification
 * rules, public access, the default storage class) change only through the bucket's layer, so the
 * bucket's storage keeps them (a second Bucket on the same IndexedDB database sees and enforces
 * them), snapshots hold them, and the call log and fault rules see them with their surface named.
 * Run on memory and on IndexedDB (fake-indexeddb), as spec/bucket/indexeddb.test.ts does.
 */
import {
  GetBucketCorsCommand,
  GetBucketLifecycleConfigurationCommand,
  PutBucketCorsCommand,
  PutBucketLifecycleConfigurationCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { Bucket, IndexedDbStorage, MemoryStorage, type BucketStorage } from '../../lib/bucket.js';
import { ManualClock } from '../../lib/clock.js';
import { S3Api } from '../../lib/s3.js';
import { CREDENTIALS, sdk } from '../s3/support.js';

const DAY = 86_400_000;
const START = Date.UTC(2030, 0, 1);
const BASE = 'https://api.cloudflare.com/client/v4';

const expireAfterADay = {
  Bucket: 'photos',
  LifecycleConfiguration: {
    Rules: [{ ID: 'expire', Status: 'Enabled' as const, Filter: { Prefix: 'logs/' }, Expiration: { Days: 1 } }],
  },
};
const cors = {
  Bucket: 'photos',
  CORSConfiguration: { CORSRules: [{ AllowedOrigins: ['https://app.example'], AllowedMethods: ['GET', 'PUT'] }] },
};
const lockAll = JSON.stringify({ rules: [{ id: 'hold', enabled: true, condition: { type: 'Indefinite' } }] });

/** A storage kind: each call a new, empty storage. */
interface Kind {
  name: string;
  storage(): BucketStorage;
}
const kinds = (): Kind[] => {
  const indexedDB = new IDBFactory();
  let n = 0;
  return [
    { name: 'memory', storage: () => new MemoryStorage() },
    { name: 'IndexedDB', storage: () => new IndexedDbStorage({ name: `settings-${++n}`, indexedDB }) },
  ];
};

function s3(bucket: Bucket) {
  const api = new S3Api({ buckets: { photos: bucket }, credentials: [CREDENTIALS] });
  return { api, client: sdk(api.fetch) };
}

function cloudflare(bucket: Bucket, clock: ManualClock) {
  const api = new CloudflareApi({ clock });
  api.account.addBucket('photos', bucket);
  /** A request on the bucket's routes (`path` '' is the bucket itself). */
  const raw = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    api.fetch(
      new Request(`${BASE}/accounts/${api.account.id}/r2/buckets/photos${path && `/${path}`}`, {
        method,
        body,
        headers: { authorization: 'Bearer any-token', 'content-type': 'application/json', ...headers },
      }),
    );
  return { api, raw };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as S3ServiceException,
  );

describe('settings are kept by the bucket storage: a second Bucket on the same IndexedDB database', () => {
  const same = () => {
    const indexedDB = new IDBFactory();
    return () => new IndexedDbStorage({ name: 'photos', indexedDB });
  };

  it('sees a lifecycle rule set through the S3 view, and expires by it on the clock', async () => {
    const storage = same();
    const clock = new ManualClock(START);
    const first = new Bucket({ clock, storage: storage() });
    await first.put('logs/a', 'a');
    await first.put('keep', 'k');
    await s3(first).client.send(new PutBucketLifecycleConfigurationCommand(expireAfterADay));

    const second = new Bucket({ clock, storage: storage() }); // a reload: a new Bucket on the database
    const got = await s3(second).client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'photos' }));
    expect(got.Rules?.map((r) => r.ID)).toEqual(['expire']);
    clock.advance(DAY);
    expect(await second.head('logs/a')).toBeNull();
    expect(await second.head('keep')).not.toBeNull();
  });

  it('sees a CORS policy set through the S3 view, and answers preflights by it', async () => {
    const storage = same();
    const first = new Bucket({ storage: storage() });
    await s3(first).client.send(new PutBucketCorsCommand(cors));

    const second = new Bucket({ storage: storage() });
    const view = s3(second);
    const got = await view.client.send(new GetBucketCorsCommand({ Bucket: 'photos' }));
    expect(got.CORSRules?.[0]?.AllowedOrigins).toEqual(['https://app.example']);
    const preflight = await view.api.fetch(
      new Request('https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com/photos/x', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT' },
      }),
    );
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('enforces a lock set through the API: a second Bucket, made before the lock, cannot delete the object', async () => {
    const storage = same();
    const clock = new ManualClock(START);
    const first = new Bucket({ clock, storage: storage() });
    const second = new Bucket({ clock, storage: storage() });
    await first.put('contract.pdf', 'signed');
    expect(await second.head('contract.pdf')).not.toBeNull(); // the second Bucket has read the database before the lock
    const res = await cloudflare(first, clock).raw('PUT', 'lock', lockAll);
    expect(res.status).toBe(200);

    await expect(second.delete('contract.pdf')).rejects.toThrow(
      'delete: The object is locked by a bucket lock rule and cannot be deleted or overwritten. (10069)',
    );
    await expect(second.put('contract.pdf', 'forged')).rejects.toThrow('(10069)');
    expect(await (await second.get('contract.pdf'))?.text()).toBe('signed');
  });

  it('a snapshot restored brings back the settings a second Bucket then reads', async () => {
    const storage = same();
    const clock = new ManualClock(START);
    const first = new Bucket({ clock, storage: storage() });
    const { raw } = cloudflare(first, clock);
    await s3(first).client.send(new PutBucketCorsCommand(cors));
    const snapshot = first.snapshot();
    await raw('DELETE', 'cors');
    expect((await raw('PUT', 'lock', lockAll)).status).toBe(200);
    first.restore(snapshot);
    await first.head('x'); // the restore is queued: wait for it

    const second = new Bucket({ clock, storage: storage() });
    const view = s3(second);
    expect((await view.client.send(new GetBucketCorsCommand({ Bucket: 'photos' }))).CORSRules).toHaveLength(1);
    await second.put('free', 'f');
    await second.delete('free'); // no lock any more
    expect(await second.head('free')).toBeNull();
  });
});

describe.each(kinds())('settings are calls of the bucket ($name)', (kind) => {
  it('a setting change is in the call log with its surface: s3 and api', async () => {
    const clock = new ManualClock(START);
    const bucket = new Bucket({ clock, storage: kind.storage(), log: true });
    await s3(bucket).client.send(new PutBucketCorsCommand(cors));
    const { raw } = cloudflare(bucket, clock);
    expect((await raw('PUT', 'lock', lockAll)).status).toBe(200);
    expect((await raw('GET', 'lifecycle')).status).toBe(200);
    expect(bucket.log.filter({ op: 'putBucketCors' })).toMatchObject([{ surface: 's3', status: 'ok' }]);
    expect(bucket.log.filter({ op: 'putBucketLocks' })).toMatchObject([{ surface: 'api', status: 'ok' }]);
    expect(bucket.log.filter({ op: 'getBucketLifecycle' })).toMatchObject([{ surface: 'api', status: 'ok' }]);
  });

  it('a fault rule fails a setting change, which then changes nothing', async () => {
    const clock = new ManualClock(START);
    const bucket = new Bucket({ clock, storage: kind.storage(), log: true });
    const { client } = s3(bucket);
    bucket.faults.add({ op: 'putBucketLifecycle', times: 10 }); // every attempt: the SDK retries a 500
    const e = await failure(client.send(new PutBucketLifecycleConfigurationCommand(expireAfterADay)));
    expect(e?.name).toBe('InternalError');
    expect(e?.$metadata.httpStatusCode).toBe(500);
    const calls = bucket.log.filter({ op: 'putBucketLifecycle' });
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c).toMatchObject({ surface: 's3', status: 'error', injected: { failed: true } });
    bucket.faults.clear();
    const got = await client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'photos' }));
    expect(got.Rules?.map((r) => r.ID)).toEqual(['Default Multipart Abort Rule']);

    const { raw } = cloudflare(bucket, clock);
    bucket.faults.add({ op: 'putBucketLocks', times: 1, error: 'rateLimit' });
    const refused = await raw('PUT', 'lock', lockAll);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { errors: { code: number }[] }).errors[0]?.code).toBe(10058);
    await bucket.put('k', 'v');
    await bucket.delete('k'); // the lock never took
    expect(await bucket.head('k')).toBeNull();
  });

  it('snapshot and restore bring back the settings (lifecycle, locks, storage class)', async () => {
    const clock = new ManualClock(START);
    const bucket = new Bucket({ clock, storage: kind.storage() });
    const { raw } = cloudflare(bucket, clock);
    const snapshot = bucket.snapshot();
    expect((await raw('PUT', 'lock', lockAll)).status).toBe(200);
    const lifecycle = JSON.stringify({
      rules: [
        {
          id: 'x',
          enabled: true,
          conditions: {},
          deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
        },
      ],
    });
    expect((await raw('PUT', 'lifecycle', lifecycle)).status).toBe(200);
    expect((await raw('PATCH', '', undefined, { 'cf-r2-storage-class': 'InfrequentAccess' })).status).toBe(200);
    await bucket.put('a', 'a');
    expect((await bucket.head('a'))?.storageClass).toBe('InfrequentAccess');
    bucket.restore(snapshot);
    await bucket.put('b', 'b');
    expect((await bucket.head('b'))?.storageClass).toBe('Standard');
    const rules = (await (await raw('GET', 'lifecycle')).json()) as { result: { rules: { id: string }[] } };
    expect(rules.result.rules.map((r) => r.id)).toEqual(['Default Multipart Abort Rule']);
    await bucket.delete('b'); // the lock is gone with the restore
    expect(await bucket.head('b')).toBeNull();
  });
});

describe.each(kinds())('lifecycle in time order ($name)', (kind) => {
  it('objects falling due one a second are deleted each at its time, and only they', async () => {
    const clock = new ManualClock(START);
    const bucket = new Bucket({ clock, storage: kind.storage(), log: true });
    const { raw } = cloudflare(bucket, clock);
    const lifecycle = JSON.stringify({
      rules: [
        {
          id: 'x',
          enabled: true,
          conditions: { prefix: 'o/' },
          deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
        },
      ],
    });
    expect((await raw('PUT', 'lifecycle', lifecycle)).status).toBe(200);
    for (let i = 0; i < 20; i++) {
      await bucket.put(`o/${String(i).padStart(2, '0')}`, 'x');
      clock.advance(1000);
    }
    await bucket.put('other', 'y');
    clock.set(START + DAY - 1); // one ms before the first falls due
    expect((await bucket.list({ prefix: 'o/' })).objects).toHaveLength(20);
    for (let i = 0; i < 20; i++) {
      clock.set(START + DAY + i * 1000);
      await bucket.head('other');
      const left = (await bucket.list({ prefix: 'o/' })).objects.map((o) => o.key);
      expect(left).toHaveLength(19 - i);
      expect(left[0]).toBe(i === 19 ? undefined : `o/${String(i + 1).padStart(2, '0')}`);
    }
    expect(bucket.log.filter({ surface: 'lifecycle' }).map((e) => e.key)).toEqual(
      Array.from({ length: 20 }, (_, i) => `o/${String(i).padStart(2, '0')}`),
    );
    expect(await bucket.head('other')).not.toBeNull();
  });

  it('an object overwritten before it fell due is kept until its new time; a locked one until its lock ends', async () => {
    const clock = new ManualClock(START);
    const bucket = new Bucket({ clock, storage: kind.storage() });
    const { raw } = cloudflare(bucket, clock);
    const lifecycle = JSON.stringify({
      rules: [
        {
          id: 'x',
          enabled: true,
          conditions: {},
          deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
        },
      ],
    });
    expect((await raw('PUT', 'lifecycle', lifecycle)).status).toBe(200);
    const lock = JSON.stringify({
      rules: [{ id: 'l', enabled: true, prefix: 'held', condition: { type: 'Age', maxAgeSeconds: 3 * 86400 } }],
    });
    expect((await raw('PUT', 'lock', lock)).status).toBe(200);
    await bucket.put('a', '1');
    await bucket.put('held', 'h');
    clock.advance(DAY / 2);
    await bucket.put('a', '2'); // falls due half a day later than the first write would have
    clock.advance(DAY / 2);
    expect(await (await bucket.get('a'))?.text()).toBe('2');
    clock.advance(DAY / 2);
    expect(await bucket.head('a')).toBeNull();
    expect(await bucket.head('held')).not.toBeNull();
    clock.set(START + 3 * DAY);
    expect(await bucket.head('held')).toBeNull();
  });
});
