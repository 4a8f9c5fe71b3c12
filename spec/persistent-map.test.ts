/** SnapshotMap, the storage under both doubles' snapshots: the cache beside the tree stays right. */
import { describe, expect, it } from 'vitest';
import type BTree from 'sorted-btree';
import { bulkLoad } from 'sorted-btree/extended/bulkLoad.js';
import { REMOVE, SnapshotMap, sortedSnapshot, type BulkLoad, type SortedTree } from '../lib/persistent-map.js';

// Compile-time (npm run typecheck): the map types its tree with SortedTree, written out so the public
// d.ts needs no sorted-btree types; the real class must still have each member as declared there.
export const fitsSortedTree = (tree: BTree<string, number>): SortedTree<number> => tree;

const entries = <V>(m: SnapshotMap<V>) => {
  const out: [string, V][] = [];
  const it = m.entriesFrom();
  for (let n = it.next(); !n.done; n = it.next()) out.push([n.value[0], n.value[1]]);
  return out;
};

describe('SnapshotMap', () => {
  it('filled from a sorted snapshot (a storage\u2019s start): reads, order and writes as if set one by one; keys out of order sorted', () => {
    const keys = ['b', 'a', 'd', 'c', ...Array.from({ length: 300 }, (_, i) => `k${String(i).padStart(3, '0')}`)];
    const built = sortedSnapshot(
      keys,
      keys.map((k) => ({ k })),
      bulkLoad as BulkLoad,
    );
    const m = new SnapshotMap<{ k: string }>();
    m.restore(built);
    expect(entries(m).map(([k, v]) => [k, v.k])).toEqual([...keys].sort().map((k) => [k, k]));
    expect(m.get('c')).toEqual({ k: 'c' });
    expect(m.has('e')).toBe(false);
    m.update('a', (v) => ({ ...v }))!.k = 'changed'; // shared with the built snapshot: copied first
    m.delete('k150');
    m.set('e', { k: 'e' });
    expect(m.size).toBe(keys.length);
    expect(m.get('a')).toEqual({ k: 'changed' });
    const again = new SnapshotMap<{ k: string }>();
    again.restore(built);
    expect([again.get('a'), again.has('k150'), again.has('e')]).toEqual([{ k: 'a' }, true, false]);
  });

  it('a snapshot sees neither later sets nor deletes, nor in-place changes made through update', () => {
    const m = new SnapshotMap<{ n: number }>();
    m.set('a', { n: 1 });
    m.set('b', { n: 2 });
    const s = m.snapshot();
    m.update('a', (v) => ({ ...v }))!.n = 10; // shared with the snapshot: copied first
    m.set('b', { n: 20 });
    m.delete('b');
    m.set('c', { n: 3 });
    m.update('c', () => {
      throw new Error('a value made after the snapshot is not copied');
    })!.n = 30;
    expect(entries(m)).toEqual([
      ['a', { n: 10 }],
      ['c', { n: 30 }],
    ]);
    const other = new SnapshotMap<{ n: number }>();
    other.restore(s);
    expect(entries(other)).toEqual([
      ['a', { n: 1 }],
      ['b', { n: 2 }],
    ]);
  });

  it('after a restore, reads fill the cache, absent keys are found absent, and order is kept', () => {
    const m = new SnapshotMap<number>();
    for (let i = 0; i < 100; i++) m.set(`k${String(i).padStart(3, '0')}`, i);
    const s = m.snapshot();
    m.clear();
    expect(m.size).toBe(0);
    m.restore(s);
    expect(m.get('k050')).toBe(50);
    expect(m.has('nope')).toBe(false);
    expect(m.delete('k051')).toBe(true);
    expect(m.delete('k051')).toBe(false);
    m.set('k052', -52);
    expect(m.size).toBe(99);
    for (let i = 0; i < 100; i++) if (i !== 51) m.get(`k${String(i).padStart(3, '0')}`); // now every key is cached
    expect(m.get('k051')).toBeUndefined();
    expect(m.lastBefore('k010')).toEqual(['k009', 9]);
    expect([...m.keys()].slice(50, 53)).toEqual(['k050', 'k052', 'k053']);
    expect([...m.values()][51]).toBe(-52);
    m.restore(s);
    expect(m.get('k051')).toBe(51);
    expect(m.get('k052')).toBe(52);
  });

  it('editRange: one walk of [low, high) that replaces and removes; snapshots and the cache stay right', () => {
    const m = new SnapshotMap<number>();
    for (let i = 0; i < 200; i++) m.set(`k${String(i).padStart(3, '0')}`, i);
    const before = m.snapshot();
    m.restore(before); // an empty cache, every cell shared with the snapshot
    m.get('k011'); // one cached
    const seen: string[] = [];
    // Even keys in [k010, k020) removed, odd ones negated; nothing outside the range is shown.
    m.editRange('k010', 'k020', (k, v) => (seen.push(k), v % 2 === 0 ? REMOVE : -v));
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `k0${10 + i}`));
    expect(m.size).toBe(195);
    expect([m.get('k010'), m.has('k012'), m.get('k011'), m.get('k013'), m.get('k009'), m.get('k020')]).toEqual([
      undefined,
      false,
      -11,
      -13,
      9,
      20,
    ]);
    expect(entries(m).slice(9, 12)).toEqual([
      ['k009', 9],
      ['k011', -11],
      ['k013', -13],
    ]);
    // A cell made by the edit is this generation's: edited again in place; the snapshot never changes.
    m.editRange('k011', 'k012', () => 111);
    expect(m.get('k011')).toBe(111);
    // To the end when high is undefined; a visitor that keeps everything changes nothing.
    const tail: string[] = [];
    m.editRange('k198', undefined, (k) => void tail.push(k));
    expect(tail).toEqual(['k198', 'k199']);
    m.editRange('k190', undefined, () => REMOVE);
    expect([m.size, m.lastBefore(undefined)]).toEqual([185, ['k189', 189]]);
    new SnapshotMap<number>().editRange('', undefined, () => {
      throw new Error('an empty map has nothing to visit');
    });
    const other = new SnapshotMap<number>();
    other.restore(before);
    expect([other.size, other.get('k010'), other.get('k011'), other.get('k199')]).toEqual([200, 10, 11, 199]);
  });
});
