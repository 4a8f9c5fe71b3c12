/**
 * The R2 backend (lib/bucket/backend.ts): the account's buckets, captured, restored and reset with
 * the account's other backends (lib/support/backend.ts), each bucket by its own snapshot.
 */
import { describe, expect, it } from 'vitest';
import { Account } from '../../lib/account/account.js';
import { accountState } from '../../lib/account/state.js';
import { Bucket } from '../../lib/bucket.js';
import { R2 } from '../../lib/bucket/backend.js';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { ManualClock } from '../../lib/clock.js';

const text = async (b: Bucket, key: string) => (await b.get(key))?.text();

describe('the R2 backend', () => {
  it("is made on the account's first bucket, not by reading its names", () => {
    const account = new Account();
    expect(account.buckets).toEqual([]);
    expect(account.bucket('photos')).toBeUndefined();
    expect(accountState(account).made(R2)).toBeUndefined();
    account.addBucket('photos', new Bucket());
    expect(accountState(account).made(R2)?.buckets().has('photos')).toBe(true);
  });

  it("the account's snapshot holds its buckets: one made since goes, a deleted one is back with what it held", async () => {
    const api = new CloudflareApi();
    const kept = api.addBucket('kept');
    const eu = api.addBucket('kept', { jurisdiction: 'eu', locationHint: 'weur' });
    await kept.put('a', 'before');
    const state = accountState(api.account);
    const taken = state.backends.snapshot();
    await kept.put('a', 'after');
    api.addBucket('later');
    expect(await state.backend(R2).delete('kept', 'api', 'eu')).toBe(undefined);
    state.backends.restore(taken);
    expect(api.account.buckets).toEqual(['kept']);
    expect(await text(kept, 'a')).toBe('before');
    const r2 = state.backend(R2);
    expect(r2.buckets('eu').get('kept')).toBe(eu);
    expect(r2.entry('kept', 'eu')?.info).toEqual({ jurisdiction: 'eu', location: 'weur' });
  });

  it('restores only its own snapshot', () => {
    const one = accountState(new Account()).backend(R2);
    const other = accountState(new Account()).backend(R2);
    expect(() => one.restore(other.snapshot())).toThrow(TypeError);
    expect(() => one.restore({})).toThrow(TypeError);
  });

  it('reset empties every bucket; the buckets stay', async () => {
    const account = new Account();
    const photos = account.addBucket('photos', new Bucket());
    await photos.put('a', 'x');
    accountState(account).backend(R2).reset();
    expect(account.buckets).toEqual(['photos']);
    expect(await photos.head('a')).toBeNull();
  });

  it("records when each bucket was made, by the account's clock", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 2));
    const account = new Account({ clock });
    account.addBucket('photos', new Bucket({ clock }));
    expect(accountState(account).backend(R2).entry('photos')?.created).toBe(Date.UTC(2026, 0, 2));
  });
});
