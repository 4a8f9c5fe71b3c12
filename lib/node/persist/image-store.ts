/**
 * The key-value view of the persisted image (`--persist`): what the engine hands the account image
 * (account-image.ts), and what its parts write through. Values are plain data (the Store keeps
 * them as structured clones; Uint8Array allowed).
 */
import { digestHex } from '../../hash.js';

/** The engine's key-value view of the Store's image space. */
export interface ImageStore {
  /** Undefined when absent. */
  get(key: string): unknown;
  /** Part of the current write transaction. */
  put(key: string, value: unknown): void;
  remove(key: string): void;
  /** Every stored key starting with `prefix`, sorted. */
  keys(prefix: string): string[];
  /** The values of those keys, in their order, in one read (`valuesUnder` reads a key at a time without it). */
  scan?(prefix: string): unknown[];
}

/** The values under the keys that start with `prefix`, in key order: one range read where the store has one. */
export function valuesUnder(store: ImageStore, prefix: string): unknown[] {
  return store.scan ? store.scan(prefix) : store.keys(prefix).map((k) => store.get(k));
}

/** One kind of account state, written as what changed since its last write. */
export interface ImagePart {
  /** Writes what changed since the last write (or since load); whether it wrote anything. */
  write(store: ImageStore): boolean;
}

/**
 * A name as one segment of a key: no `/` inside, so a prefix never reaches another name's keys, and
 * bounded (a dead-letter queue's name is any string a consumer names, and a key is copied into the
 * Store's index): a long name is its SHA-256 (the value holds the name itself).
 */
export function segment(name: string): string {
  const encoded = encodeURIComponent(name);
  return encoded.length <= 200 ? encoded : `%%${digestHex('sha256', name)}`; // `%%` is never an encoding
}

/**
 * Whether two plain values hold the same data, as a store gives them back: a field whose value is
 * undefined counts as absent (a store may drop it), bytes compare by content.
 */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.byteLength !== b.byteLength) return false;
    for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => sameData(x, bs[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!sameData(ao[k], bo[k])) return false;
  return true;
}

/**
 * A store that keeps the writes asked of it (its reads see them) until `flush` stores them in
 * another: the engine gathers a commit's writes in one, so that a commit with none writes nothing
 * (persistence.ts).
 */
export class PendingWrites implements ImageStore {
  /** By key: the value written, or undefined for a removal. */
  readonly #writes = new Map<string, { value: unknown } | undefined>();

  constructor(protected readonly stored: ImageStore) {}

  /** How many keys are to be written or removed. */
  get size(): number {
    return this.#writes.size;
  }

  get(key: string): unknown {
    return this.#writes.has(key) ? this.#writes.get(key)?.value : this.stored.get(key);
  }

  put(key: string, value: unknown): void {
    this.#writes.set(key, { value });
  }

  remove(key: string): void {
    this.#writes.set(key, undefined);
  }

  keys(prefix: string): string[] {
    const keys = new Set(this.stored.keys(prefix));
    for (const [k, w] of this.#writes) if (k.startsWith(prefix)) w ? keys.add(k) : keys.delete(k);
    return [...keys].sort();
  }

  /** Writes what was kept into `store`, then forgets it; whether there was anything. */
  flush(store: ImageStore): boolean {
    if (this.#writes.size === 0) return false;
    for (const [k, w] of this.#writes) w ? store.put(k, w.value) : store.remove(k);
    this.#writes.clear();
    return true;
  }
}

/**
 * Pending writes that keep only what would change the stored image (a value that differs from the
 * stored one, a key to remove that is there): after a load, the parts write through it once, so they
 * start from what is persisted, and whatever the load added on top (a server's own credentials or
 * buckets, given again at start) is left for the first real write.
 */
export class Differences extends PendingWrites {
  override put(key: string, value: unknown): void {
    if (!sameData(this.stored.get(key), value)) super.put(key, value);
  }

  override remove(key: string): void {
    if (this.stored.get(key) !== undefined) super.remove(key);
  }
}
