/**
 * Bucket lock rules enforced by the bucket's layer (lib/bucket/locks.ts): a locked object refuses
 * deletion and overwrite through the binding with R2's 10069, until its lock ends; the longest
 * retention wins; lifecycle deletion waits for the lock. The S3 view's answer is in spec/s3/lifecycle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Bucket } from '../../lib/bucket.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { lifecycleRules } from '../../lib/bucket/lifecycle.js';
import { lockRules, LockRuleError } from '../../lib/bucket/locks.js';
import { ManualClock } from '../../lib/clock.js';

const DAY = 86_400_000;
const START = Date.UTC(2030, 0, 1);

function setup(locks: unknown[]) {
  const clock = new ManualClock(START);
  const bucket = new Bucket({ clock });
  const config = bucketLayer(bucket)!.config;
  config.locks = lockRules(locks);
  return { clock, bucket, config };
}

const age = (id: string, prefix: string | undefined, days: number) => ({
  id,
  enabled: true,
  ...(prefix !== undefined ? { prefix } : {}),
  condition: { type: 'Age', maxAgeSeconds: days * 86400 },
});
const LOCKED = (action: string) =>
  `${action}: The object is locked by a bucket lock rule and cannot be deleted or overwritten. (10069)`;

describe('a locked object, through the binding', () => {
  it('refuses delete and put with 10069 until its lock ends, then allows both', async () => {
    const { clock, bucket } = setup([age('a', 'docs/', 2)]);
    await bucket.put('docs/k', 'v1');
    await expect(bucket.delete('docs/k')).rejects.toThrow(LOCKED('delete'));
    await expect(bucket.put('docs/k', 'v2')).rejects.toThrow(LOCKED('put'));
    expect(await (await bucket.get('docs/k'))!.text()).toBe('v1');
    clock.advance(2 * DAY - 1);
    await expect(bucket.delete('docs/k')).rejects.toThrow('(10069)');
    clock.advance(1);
    await bucket.put('docs/k', 'v2'); // a new object: locked afresh from now
    await expect(bucket.delete('docs/k')).rejects.toThrow('(10069)');
    clock.advance(2 * DAY);
    await bucket.delete('docs/k');
    expect(await bucket.head('docs/k')).toBeNull();
  });

  it('the message is a plain Error, as the binding shows R2 errors', async () => {
    const { bucket } = setup([age('a', undefined, 1)]);
    await bucket.put('k', 'v');
    const e = await bucket.delete('k').catch((x: unknown) => x);
    expect(Object.getPrototypeOf(e)).toBe(Error.prototype);
  });

  it('keys outside the prefix, new keys, and disabled rules are not locked', async () => {
    const { bucket } = setup([age('a', 'docs/', 2), { ...age('off', '', 100), enabled: false }]);
    await bucket.put('other', 'v');
    await bucket.put('other', 'w');
    await bucket.delete('other');
    await bucket.put('docs/new', 'v'); // nothing was there to overwrite
  });

  it('a delete of several keys with one locked deletes none', async () => {
    const { bucket } = setup([age('a', 'docs/', 2)]);
    await bucket.put('free', 'v');
    await bucket.put('docs/k', 'v');
    await expect(bucket.delete(['free', 'docs/k'])).rejects.toThrow('(10069)');
    expect(await bucket.head('free')).not.toBeNull();
  });

  it('the longest retention wins; Date and Indefinite conditions', async () => {
    const { clock, bucket, config } = setup([
      age('short', '', 1),
      { id: 'until', enabled: true, condition: { type: 'Date', date: '2030-01-05T00:00:00Z' } },
    ]);
    await bucket.put('k', 'v');
    clock.set(Date.UTC(2030, 0, 5) - 1);
    await expect(bucket.delete('k')).rejects.toThrow('(10069)');
    clock.set(Date.UTC(2030, 0, 5));
    await bucket.put('k', 'w');
    config.locks = lockRules([{ id: 'forever', enabled: true, prefix: 'k', condition: { type: 'Indefinite' } }]);
    clock.advance(10_000 * DAY);
    await expect(bucket.delete('k')).rejects.toThrow('(10069)');
  });

  it('completing an upload over a locked object is refused', async () => {
    const { bucket } = setup([age('a', '', 1)]);
    await bucket.put('k', 'v');
    const u = await bucket.createMultipartUpload('k');
    const part = await u.uploadPart(1, 'new');
    await expect(u.complete([part])).rejects.toThrow(LOCKED('completeMultipartUpload'));
  });
});

describe('locks over lifecycle', () => {
  it('a lifecycle expiry waits for the lock, then deletes (docs: a 30-day delete waits for a 90-day lock)', async () => {
    const { clock, bucket, config } = setup([age('lock', '', 90)]);
    config.lifecycle = lifecycleRules([
      {
        id: 'exp',
        enabled: true,
        conditions: {},
        deleteObjectsTransition: { condition: { type: 'Age', maxAge: 30 * 86400 } },
      },
    ]);
    await bucket.put('k', 'v');
    clock.advance(30 * DAY);
    expect(await bucket.head('k')).not.toBeNull();
    clock.advance(60 * DAY - 1);
    expect(await bucket.head('k')).not.toBeNull();
    clock.advance(1);
    expect(await bucket.head('k')).toBeNull();
  });

  it('snapshot/restore carry the lock rules', async () => {
    const { bucket, config } = setup([]);
    const s = bucket.snapshot();
    config.locks = lockRules([age('a', '', 1)]);
    await bucket.put('k', 'v');
    await expect(bucket.delete('k')).rejects.toThrow('(10069)');
    bucket.restore(s);
    expect(config.locks).toEqual([]);
  });
});

describe('validation (lockRules)', () => {
  it.each([
    ['not an array', 'x'],
    ['no condition', [{ id: 'a', enabled: true }]],
    ['an unknown condition type', [{ id: 'a', enabled: true, condition: { type: 'Forever' } }]],
    ['maxAge instead of maxAgeSeconds', [{ id: 'a', enabled: true, condition: { type: 'Age', maxAge: 10 } }]],
    ['a prefix not a string', [{ ...age('a', '', 1), prefix: 3 }]],
    ['two rules with one id', [age('a', '', 1), age('a', 'x', 1)]],
    ['1001 rules', Array.from({ length: 1001 }, (_, i) => age(`r${i}`, '', 1))],
  ])('refuses %s', (_, input) => {
    expect(() => lockRules(input)).toThrow(LockRuleError);
  });
});
