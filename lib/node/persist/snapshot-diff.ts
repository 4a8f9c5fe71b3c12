/**
 * What changed between two snapshots of a SnapshotMap (lib/persistent-map.ts), by sorted-btree's
 * `diffAgainst`, which skips the tree nodes both share: the zones part writes a zone's changed
 * records so (zones-image.ts). Here rather than beside the map: sorted-btree's extended entry is
 * CommonJS a browser bundle would keep whole, and only `--persist` needs it.
 */
import * as diffModule from 'sorted-btree/extended/diffAgainst.js';
import type { MapSnapshot, SortedTree } from '../../persistent-map.js';

/** `diffAgainst`'s signature as used here: keys only in `a`, only in `b`, and in both with other values. */
type DiffFn = <T>(
  a: SortedTree<T>,
  b: SortedTree<T>,
  onlyA: (k: string, v: T) => void,
  onlyB: (k: string, v: T) => void,
  different: (k: string, a: T, b: T) => void,
) => unknown;
// CommonJS with `exports.default`, as sorted-btree's main entry (persistent-map.ts): take whichever holds the function.
const diffMod = diffModule as unknown as { default: DiffFn & { default?: DiffFn } };
const diffAgainst: DiffFn = diffMod.default.default ?? diffMod.default;

/**
 * What changed from snapshot `before` to snapshot `after` of maps of one kind: `changed` for each key
 * whose value is new or another object, `removed` for each key gone. O(changes × log n) when `after`
 * was taken from the map `before` was: the trees share every node nothing was written under.
 */
export function diffSnapshots<V>(
  before: MapSnapshot<V>,
  after: MapSnapshot<V>,
  changed: (key: string, value: V) => void,
  removed: (key: string) => void,
): void {
  // A cell `before` holds is never changed in place afterwards (a snapshot starts a new generation,
  // persistent-map.ts): a cell both share holds the same value; another cell may hold the same one.
  diffAgainst(
    after.tree,
    before.tree,
    (k, cell) => changed(k, cell.value),
    (k) => removed(k),
    (k, now, then) => {
      if (now.value !== then.value) changed(k, now.value);
    },
  );
}
