/**
 * A string-keyed map with O(1) snapshots, for the doubles' stored state.
 *
 * Entries live in a B+ tree (sorted-btree), whose `clone()` is O(1): it marks the root shared and
 * later writes copy only the nodes on their path (copy-on-write). A snapshot is such a clone, and
 * so is a restore (of the snapshot, so the snapshot itself is never written through).
 *
 * Point look-ups (the operations tests make most) go to a hash map beside the tree first, a cache
 * of the tree's cells: an O(1) look-up instead of a dozen string comparisons down the tree. A
 * snapshot leaves the cache valid (the live tree's contents did not change); a restore starts an
 * empty one, refilled as keys are read, so neither copies it.
 *
 * A cell holds the value, so overwriting a key touches neither the tree nor the cache, as long as
 * the cell belongs to the current generation. Cells made before a snapshot may be shared with it;
 * each snapshot and restore opens a new generation, and the first write to an older cell replaces
 * it (one tree write) instead of mutating it. Values themselves are never mutated once stored:
 * `update` hands out a private copy when a value might be shared.
 */
import * as btreeModule from 'sorted-btree';

/**
 * The part of sorted-btree's `BTree<string, T>` this map uses, written out rather than imported as
 * that class's type: the snapshot type below is public (in the bucket's and zone's snapshots), and
 * a consumer's NodeNext project reads sorted-btree, a CommonJS package, through Node's interop, where
 * its default export is the module object and `BTree<K, V>` is no type (error TS2709).
 * spec/persistent-map.test.ts checks at compile time that the real class still fits it.
 */
export interface SortedTree<T> {
  readonly size: number;
  get(key: string): T | undefined;
  set(key: string, value: T): boolean;
  delete(key: string): boolean;
  entries(low?: string): IterableIterator<[string, T]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<T>;
  nextLowerPair(high: string | undefined): [string, T] | undefined;
  /** Visits [low, high) (high included when `includeHigh`) in order, until `onFound` returns `{ break }`. */
  forRange(
    low: string,
    high: string,
    includeHigh: boolean,
    onFound: (k: string, v: T) => { break?: unknown } | void,
  ): unknown;
  /** Visits [low, high) (high included when `includeHigh`) in order, replacing or deleting as `onFound` says; copies shared nodes it edits. */
  editRange(
    low: string,
    high: string,
    includeHigh: boolean,
    onFound: (k: string, v: T) => { value?: T; delete?: boolean } | void,
  ): unknown;
  /** O(1): copy-on-write. */
  clone(): SortedTree<T>;
}

// sorted-btree is CommonJS with `exports.default`; bundlers and Node's ESM loader disagree on
// which object the default import is, so take whichever holds the class.
type TreeCtor = new <T>(entries: undefined, compare: (a: string, b: string) => number) => SortedTree<T>;
const mod = btreeModule as unknown as { default: TreeCtor & { default?: TreeCtor } };
const BTree: TreeCtor = mod.default.default ?? mod.default;

/** The part of sorted-btree's tree of number keys an index of the models' own uses (lifecycle's due times: lib/bucket/due-index.ts). */
export interface NumberTree<T> {
  get(key: number): T | undefined;
  set(key: number, value: T): boolean;
  delete(key: number): boolean;
  minKey(): number | undefined;
  entries(): IterableIterator<[number, T]>;
}

/** An empty sorted tree of number keys in numeric order. */
export function numberTree<T>(): NumberTree<T> {
  return new (BTree as unknown as new (entries: undefined, compare: (a: number, b: number) => number) => NumberTree<T>)(
    undefined,
    (a, b) => a - b,
  );
}

interface Cell<V> {
  value: V;
  readonly generation: number;
}

/** Generations are unique across maps, so a snapshot restored into another map stays shared. */
let generations = 0;

/** A frozen state of a SnapshotMap: restore it into any map of the same kind, any number of times. */
export interface MapSnapshot<V> {
  /** @internal */
  readonly tree: SortedTree<Cell<V>>;
}

/** What an `editRange` visitor returns to delete the entry it was shown. */
export const REMOVE: unique symbol = Symbol('remove');

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class SnapshotMap<V> {
  private tree: SortedTree<Cell<V>> = new BTree<Cell<V>>(undefined, compare);
  private cache = new Map<string, Cell<V>>();
  /** Whether every entry is in the cache (true until a restore): a cache miss is then an absence. */
  private complete = true;
  private generation = ++generations;

  get size(): number {
    return this.tree.size;
  }

  private cell(key: string): Cell<V> | undefined {
    const hit = this.cache.get(key);
    if (hit || this.complete) return hit;
    const found = this.tree.get(key);
    if (found) this.cache.set(key, found);
    // The cache only ever holds keys the tree has: once it holds as many, it holds them all.
    if (this.cache.size === this.tree.size) this.complete = true;
    return found;
  }

  get(key: string): V | undefined {
    return this.cell(key)?.value;
  }

  has(key: string): boolean {
    return this.cell(key) !== undefined;
  }

  set(key: string, value: V): void {
    const cell = this.cache.get(key);
    if (cell && cell.generation === this.generation) {
      cell.value = value;
      return;
    }
    const fresh = { value, generation: this.generation };
    this.cache.set(key, fresh);
    this.tree.set(key, fresh);
  }

  /**
   * The value at `key`, made safe to mutate in place: when it may be shared with a snapshot, it is
   * replaced by `copy(value)` first. Undefined when the key is absent.
   */
  update(key: string, copy: (shared: V) => V): V | undefined {
    const cell = this.cell(key);
    if (!cell) return undefined;
    if (cell.generation === this.generation) return cell.value;
    const value = copy(cell.value);
    this.set(key, value);
    return value;
  }

  delete(key: string): boolean {
    const cached = this.cache.delete(key);
    if (!cached && this.complete) return false;
    return this.tree.delete(key);
  }

  /** Entries from `low` (inclusive; the first entry when undefined) in key order. */
  entriesFrom(low?: string): Iterator<readonly [string, V]> {
    const inner = this.tree.entries(low);
    return {
      next() {
        const n = inner.next();
        return n.done ? n : { done: false, value: [n.value[0], n.value[1].value] };
      },
    };
  }

  /**
   * Walks the entries from `low` (inclusive) to `high` (exclusive; the last entry when undefined) in
   * key order, once, and applies what `visit` returns for each: a value to store in its place,
   * REMOVE to delete it, undefined to keep it. One pass over the tree's leaves, where a `set` or
   * `delete` per key would each descend from the root (a lifecycle pass edits a whole bucket so:
   * lib/bucket/layer.ts). `visit` must not write to this map.
   */
  editRange(
    low: string,
    high: string | undefined,
    visit: (key: string, value: V) => V | typeof REMOVE | undefined,
  ): void {
    // Read first: an edit walk copies every shared node it passes (after a snapshot or a restore,
    // all of them), so it starts at the first entry that changes, with that entry's answer.
    const last = high ?? this.tree.nextLowerPair(undefined)?.[0];
    if (last === undefined) return; // empty
    let first: { key: string; next: V | typeof REMOVE } | undefined;
    this.tree.forRange(low, last, high === undefined, (key, cell) => {
      const next = visit(key, cell.value);
      if (next === undefined) return;
      first = { key, next };
      return { break: true };
    });
    if (!first) return;
    // The tree reads an answer as soon as it is returned: one object of each kind serves every entry.
    const removal = { delete: true };
    const replacement: { value?: Cell<V> } = {};
    this.tree.editRange(first.key, last, high === undefined, (key, cell) => {
      const next = key === first!.key ? first!.next : visit(key, cell.value);
      if (next === undefined) return;
      if (next === REMOVE) {
        this.cache.delete(key);
        return removal;
      }
      // As `set`: a cell of this generation is changed in place, an older one (maybe shared) replaced.
      if (cell.generation === this.generation) {
        cell.value = next;
        return;
      }
      const fresh = { value: next, generation: this.generation };
      // Only a key the cache holds is updated (all of them when it is complete): filling it with
      // every key the walk changes would cost more than the walk.
      if (this.cache.has(key)) this.cache.set(key, fresh);
      replacement.value = fresh;
      return replacement;
    });
  }

  /** Keys in order. */
  keys(): IterableIterator<string> {
    return this.tree.keys();
  }

  /** Values in key order. */
  *values(): IterableIterator<V> {
    for (const cell of this.tree.values()) yield cell.value;
  }

  /** The greatest entry strictly below `high` (the greatest of all when undefined). */
  lastBefore(high: string | undefined): readonly [string, V] | undefined {
    const pair = this.tree.nextLowerPair(high);
    return pair && [pair[0], pair[1].value];
  }

  /** O(1): the tree is shared, and this map's later writes copy what they touch. */
  snapshot(): MapSnapshot<V> {
    this.generation = ++generations;
    return { tree: this.tree.clone() };
  }

  /** O(1): installs a clone of the snapshot, so later writes never reach it. */
  restore(s: MapSnapshot<V>): void {
    this.tree = s.tree.clone();
    this.cache = new Map();
    this.complete = s.tree.size === 0;
    this.generation = ++generations;
  }

  clear(): void {
    this.tree = new BTree<Cell<V>>(undefined, compare);
    this.cache = new Map();
    this.complete = true;
    this.generation = ++generations;
  }
}

/**
 * sorted-btree's bulk loader (`sorted-btree/extended/bulkLoad`), which the caller passes in: imported
 * here it would be in every browser bundle, for a start of `--persist` only (store-storage.ts).
 */
export type BulkLoad = <T>(
  keys: string[],
  values: T[],
  maxNodeSize: number,
  compare: (a: string, b: string) => number,
) => SortedTree<T>;

/** sorted-btree's default branching factor, the one `new BTree()` gives this module's trees. */
const NODE_SIZE = 64;

/**
 * A snapshot holding `values` under `keys`, built in O(n) by `bulkLoad` where `set` each would
 * descend the tree: restore it into an empty map to fill it (a storage's start). Keys in order as
 * a Store gives them (code point order, which is this map's); sorted here when they are not.
 */
export function sortedSnapshot<V>(keys: string[], values: V[], bulkLoad: BulkLoad): MapSnapshot<V> {
  let ordered = true;
  for (let i = 1; i < keys.length && ordered; i++) ordered = keys[i - 1]! < keys[i]!;
  if (!ordered) {
    const order = keys.map((_, i) => i).sort((a, b) => compare(keys[a]!, keys[b]!));
    keys = order.map((i) => keys[i]!);
    values = order.map((i) => values[i]!);
  }
  // Generation 0 is no map's own (they count from 1): every cell is shared, as a restored one is.
  const cells = values.map((value): Cell<V> => ({ value, generation: 0 }));
  return { tree: bulkLoad(keys, cells, NODE_SIZE, compare) };
}

/** The value a snapshot holds at `key` (a storage reads the state before an operation with it). */
export function valueIn<V>(s: MapSnapshot<V>, key: string): V | undefined {
  return s.tree.get(key)?.value;
}

/** A snapshot's entries in key order. */
export function* entriesIn<V>(s: MapSnapshot<V>): IterableIterator<readonly [string, V]> {
  for (const [k, cell] of s.tree.entries()) yield [k, cell.value];
}
