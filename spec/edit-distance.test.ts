/** editDistance, the one home of the "did you mean" distance (bucket options, toHaveObject's nearest keys). */
import { describe, expect, it } from 'vitest';
import { editDistance } from '../lib/edit-distance.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('flaw', 'lawn')).toBe(2);
    expect(editDistance('seed', 'seeds')).toBe(1);
  });

  it('is symmetric', () => {
    for (const [a, b] of [
      ['defaultStorageClass', 'defaultStorageClas'],
      ['notes/a.txt', 'note/b.txt'],
      ['log', 'clock'],
    ] as const) {
      expect(editDistance(a, b)).toBe(editDistance(b, a));
    }
  });
});
