/**
 * The assertions and matchers read an object as a call would (issue 24): after the clock passes a
 * lifecycle expiry, `assertNoObject`, `assertObject` and `toHaveObject` see it gone, as `head` does,
 * and a transition's storage class, on memory and on IndexedDB storage.
 */
import 'edge-doubles/vitest';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { assertNoObject, assertObject } from 'edge-doubles';
import { Bucket, IndexedDbStorage, MemoryStorage, type BucketStorage } from '../../lib/bucket.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { lifecycleRules } from '../../lib/bucket/lifecycle.js';
import { ManualClock } from '../../lib/clock.js';

const DAY = 86_400_000;
const rules = lifecycleRules([
  {
    id: 'expire',
    enabled: true,
    conditions: { prefix: 'tmp/' },
    deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
  },
  {
    id: 'cool',
    enabled: true,
    conditions: { prefix: 'cold/' },
    storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass: 'InfrequentAccess' }],
  },
]);

const storages: [string, () => BucketStorage][] = [
  ['memory', () => new MemoryStorage()],
  ['IndexedDB', () => new IndexedDbStorage({ name: 'db', indexedDB: new IDBFactory() })],
];

describe.each(storages)('assertions through the lifecycle, on %s', (_, storage) => {
  it('an expired object is gone for assertNoObject, assertObject and toHaveObject, as for head', async () => {
    const clock = new ManualClock(Date.parse('2030-01-01'));
    const bucket = new Bucket({ clock, storage: storage() });
    bucketLayer(bucket)!.settingsNow('api', 'putBucketLifecycle', (c) => (c.lifecycle = rules)); // as the API's PUT
    await bucket.put('tmp/a', 'x');
    await bucket.put('keep', 'y');
    assertObject(bucket, 'tmp/a');
    clock.advance(DAY);
    assertNoObject(bucket, 'tmp/a'); // before any call noticed the expiry
    expect(() => assertObject(bucket, 'tmp/a')).toThrow(/there is none/);
    expect(bucket).not.toHaveObject('tmp/a');
    expect(bucket).toHaveObject('keep');
    expect(await bucket.head('tmp/a')).toBeNull();
    assertNoObject(bucket, 'tmp/a');
  });

  it("a transition's storage class is what the matchers see once it falls due", async () => {
    const clock = new ManualClock(Date.parse('2030-01-01'));
    const bucket = new Bucket({ clock, storage: storage() });
    bucketLayer(bucket)!.settingsNow('api', 'putBucketLifecycle', (c) => (c.lifecycle = rules)); // as the API's PUT
    await bucket.put('cold/b', 'z');
    expect(bucket).toHaveObject('cold/b', { storageClass: 'Standard' });
    clock.advance(DAY);
    expect(bucket).toHaveObject('cold/b', { storageClass: 'InfrequentAccess' });
    expect((await bucket.head('cold/b'))!.storageClass).toBe('InfrequentAccess');
  });
});
