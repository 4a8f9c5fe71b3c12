/**
 * Keys in R2's order: by UTF-8 bytes, i.e. by Unicode code point, which is not JavaScript's UTF-16
 * order ('\uFFFF' sorts before '😀' in R2, after it in JS).
 *
 * Keys live in a B+ tree (sorted-btree: O(log n) seek, ordered iteration, O(1) copy-on-write
 * clones) under a "sort form" whose plain `<` is code-point order: code units D800–FFFF are
 * remapped so surrogates (which encode code points above FFFF) sort after E000–FFFF. Most keys have
 * no unit at or above D800 and are their own sort form.
 */
import { SnapshotMap } from '../persistent-map.js';

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

/**
 * The bucket's objects by sort form: ordered (for listing) and with O(1) point look-ups and O(1)
 * snapshots; see SnapshotMap for how both hold at once.
 */
export class KeyIndex<V> extends SnapshotMap<V> {}
