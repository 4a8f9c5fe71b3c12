/**
 * Keys in R2's order: by UTF-8 bytes, i.e. by Unicode code point, which is not JavaScript's UTF-16
 * order ('\uFFFF' sorts before '😀' in R2, after it in JS).
 *
 * Keys live in a B+ tree (sorted-btree: O(log n) seek, ordered iteration, O(1) copy-on-write
 * clones) under a "sort form" whose plain `<` is code-point order: code units D800–FFFF are
 * remapped so surrogates (which encode code points above FFFF) sort after E000–FFFF. Most keys have
 * no unit at or above D800 and are their own sort form.
 */
import * as btreeModule from 'sorted-btree';
import type BTreeType from 'sorted-btree';

// sorted-btree is CommonJS with `exports.default`; bundlers and Node's ESM loader disagree on
// which object the default import is, so take whichever holds the class.
type BTreeCtor = typeof BTreeType;
const mod = btreeModule as unknown as { default: BTreeCtor & { default?: BTreeCtor } };
const BTree: BTreeCtor = mod.default.default ?? mod.default;

const HIGH_UNIT = /[\uD800-\uFFFF]/;

/** The sort form of a key (a bijection, so it is also the key's identity in the index). */
export function sortForm(key: string): string {
  if (!HIGH_UNIT.test(key)) return key;
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    // E000–FFFF → D800–F7FF; D800–DFFF (surrogates) → F800–FFFF.
    out += String.fromCharCode(c < 0xd800 ? c : c >= 0xe000 ? c - 0x800 : c + 0x2000);
  }
  return out;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The smallest sort form greater than every string that starts with `p`: where a seek lands to
 * skip a whole prefix group. Undefined when no such string exists (p is all U+FFFF units).
 */
export function afterPrefix(p: string): string | undefined {
  for (let i = p.length - 1; i >= 0; i--) {
    const c = p.charCodeAt(i);
    if (c < 0xffff) return p.slice(0, i) + String.fromCharCode(c + 1);
  }
  return undefined;
}

/** Where an entry's value lives: the tree and the map share it, so replacing a value touches neither. */
interface Cell<V> {
  value: V;
}

/**
 * Ordered entries (the B+ tree, for listing) plus a hash map of the same entries for point look-ups
 * (head, get, put): O(1) instead of a dozen string comparisons down the tree, on the operations
 * tests make most, and an overwrite does not touch the tree at all. (The price, should snapshots
 * come: the tree clones in O(1), the map does not; a snapshot would rebuild it from the tree.)
 */
export class KeyIndex<V> {
  private readonly tree: BTreeType<string, Cell<V>> = new BTree<string, Cell<V>>(undefined, compare);
  private readonly cells = new Map<string, Cell<V>>();

  get(sortKey: string): V | undefined {
    return this.cells.get(sortKey)?.value;
  }

  set(sortKey: string, value: V): void {
    const cell = this.cells.get(sortKey);
    if (cell) {
      cell.value = value;
      return;
    }
    const fresh = { value };
    this.cells.set(sortKey, fresh);
    this.tree.set(sortKey, fresh);
  }

  delete(sortKey: string): boolean {
    if (!this.cells.delete(sortKey)) return false;
    this.tree.delete(sortKey);
    return true;
  }

  /** Entries from `low` (inclusive) in order. */
  entriesFrom(low: string): Iterator<readonly [string, V]> {
    const inner = this.tree.entries(low);
    return {
      next() {
        const n = inner.next();
        return n.done ? n : { done: false, value: [n.value[0], n.value[1].value] };
      },
    };
  }

  /** The greatest entry strictly below `high` (for the last key of a prefix group). */
  lastBefore(high: string | undefined): readonly [string, V] | undefined {
    const pair = this.tree.nextLowerPair(high); // undefined: the greatest entry
    return pair && [pair[0], pair[1].value];
  }
}
