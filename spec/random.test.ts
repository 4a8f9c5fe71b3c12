/** Identifiers the doubles make (lib/random.ts): object versions, ids of queues, views, consumers. */
import { describe, expect, it } from 'vitest';
import { Bucket } from '../lib/bucket.js';
import { randomHex } from '../lib/random.js';

describe('randomHex', () => {
  it('makes 16 bytes into 32 lowercase hex digits, distinct across blocks of the pool', () => {
    // 8 KiB of random bytes a block: 2,000 ids of 16 bytes draw from four of them.
    const ids = Array.from({ length: 2000 }, () => randomHex(16));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws every digit of a 16-byte id at random: each position takes each of the 16 values', () => {
    // Nothing fixed or counted (a shared prefix, a counter's run): over 2,000 ids a position that
    // missed one value would be a 1-in-10^56 event.
    const ids = Array.from({ length: 2000 }, () => randomHex(16));
    for (let at = 0; at < 32; at++) expect(new Set(ids.map((id) => id[at])).size).toBe(16);
  });

  it('makes other sizes the general way', () => {
    expect(randomHex(8)).toMatch(/^[0-9a-f]{16}$/);
    expect(randomHex(20)).toMatch(/^[0-9a-f]{40}$/);
    expect(randomHex(9000)).toMatch(/^[0-9a-f]{18000}$/); // larger than a block of the pool
  });
});

it("an object's version: 32 hex digits, new for every write, distinct across buckets", async () => {
  const one = new Bucket();
  const two = new Bucket();
  const versions = new Set<string>();
  for (let i = 0; i < 300; i++) {
    for (const bucket of [one, two]) {
      const { version } = await bucket.put('k', `v${i}`);
      expect(version).toMatch(/^[0-9a-f]{32}$/);
      versions.add(version);
    }
  }
  expect(versions.size).toBe(600);
});
