/**
 * The Store: where a product's backend keeps the records it owns beyond the process (ARCHITECTURE.md,
 * "State and the Store"). It knows no product: a record is a value under a key in a space, and a
 * commit writes a batch of them as one transaction. Synchronous, because the engines it stands for
 * are (memory, and SQLite through `node:sqlite` for `--persist`): a backend writes through it inside
 * the request, before the answer, with no await between the change and its record. A value is
 * structured-clone data (plain objects, arrays, strings, numbers, `Uint8Array`, `Date`, `Map`), as
 * IndexedDB keeps; each engine encodes it its own way.
 *
 * A record may also carry bytes (`StoreWrite.bytes`: an object's body) kept beside its value and
 * read apart (`bytes()`), so a scan of values never reads them: one record, one row, one write.
 *
 * Every value and every record's bytes are checked when they are read back (a CRC-32 kept beside
 * each, by the engine): bytes that changed on disk are a `StoreDamagedError`, never served.
 */

/** One write of a commit. */
export type StoreWrite =
  /** The record under `key`, replaced whole: its value, and its bytes (none when absent). */
  | { readonly space: string; readonly key: string; readonly value: unknown; readonly bytes?: Uint8Array }
  | { readonly space: string; readonly key: string; readonly delete: true }
  /** Every key of the space that starts with `prefix` ('' for the whole space). */
  | { readonly space: string; readonly prefix: string; readonly deleteAll: true };

export interface StoreEntry {
  readonly key: string;
  readonly value: unknown;
}

export interface Store {
  /** The value under `key`, or undefined. */
  get(space: string, key: string): unknown;
  /** The bytes written with the record under `key` (`StoreWrite.bytes`), or undefined (none, or no record). */
  bytes(space: string, key: string): Uint8Array | undefined;
  /** The entries of `space` whose key starts with `prefix`, in key order (UTF-8 bytes). */
  scan(space: string, prefix?: string): StoreEntry[];
  /** The keys of `space` that start with `prefix`, in key order, without reading their values. */
  keys(space: string, prefix?: string): string[];
  /** The spaces that hold any record and start with `prefix`. */
  spaces(prefix?: string): string[];
  /** Writes the batch as one transaction: all of it, or (throwing a `StoreError`) none of it. */
  commit(writes: readonly StoreWrite[]): void;
  close(): void;
}

/** Why a Store refused or failed, with what a surface answers for it. */
export class StoreError extends Error {
  override readonly name: string = 'StoreError';
}

/** No room left to write: the batch was not written; what was written before is intact. */
export class StoreFullError extends StoreError {
  override readonly name = 'StoreFullError';
}

/** Stored bytes that are not what was written (a changed value, a damaged file): reported, never served. */
export class StoreDamagedError extends StoreError {
  override readonly name = 'StoreDamagedError';
}

/** UTF-8 byte order (SQLite's BINARY collation): a plain `<` on UTF-16 code units would put U+E000..U+FFFF after the astral planes. */
function byUtf8(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * A Store in memory, with the persistent engine's contract (values cloned in and out, as stored
 * values are): for the tests of what a backend writes and reads back, where a "restart" is a new
 * owner over the same MemoryStore. `failNext` makes the next commit fail as a full disk does.
 */
export class MemoryStore implements Store {
  readonly #spaces = new Map<string, Map<string, unknown>>();
  /** `StoreWrite.bytes` by space, then key. */
  readonly #bytes = new Map<string, Map<string, Uint8Array>>();
  readonly #failures: StoreError[] = [];

  /** The next commit throws `error` (a `StoreFullError` unless given) and writes nothing. */
  failNext(error: StoreError = new StoreFullError('database or disk is full')): void {
    this.#failures.push(error);
  }

  get(space: string, key: string): unknown {
    const space_ = this.#spaces.get(space);
    return space_?.has(key) ? structuredClone(space_.get(key)) : undefined;
  }

  bytes(space: string, key: string): Uint8Array | undefined {
    const found = this.#bytes.get(space)?.get(key);
    return found && found.slice();
  }

  scan(space: string, prefix = ''): StoreEntry[] {
    return this.keys(space, prefix).map((key) => ({ key, value: structuredClone(this.#spaces.get(space)!.get(key)) }));
  }

  keys(space: string, prefix = ''): string[] {
    return [...(this.#spaces.get(space)?.keys() ?? [])].filter((k) => k.startsWith(prefix)).sort(byUtf8);
  }

  spaces(prefix = ''): string[] {
    return [...this.#spaces].filter(([name, m]) => m.size > 0 && name.startsWith(prefix)).map(([name]) => name);
  }

  commit(writes: readonly StoreWrite[]): void {
    const failure = this.#failures.shift();
    if (failure) throw failure;
    const cloned = writes.map((w) =>
      'value' in w ? { ...w, value: structuredClone(w.value), bytes: w.bytes?.slice() } : w,
    );
    for (const w of cloned) {
      let space = this.#spaces.get(w.space);
      if (!space) this.#spaces.set(w.space, (space = new Map()));
      let bytes = this.#bytes.get(w.space);
      if (!bytes) this.#bytes.set(w.space, (bytes = new Map()));
      if ('value' in w) {
        space.set(w.key, w.value);
        if (w.bytes) bytes.set(w.key, w.bytes);
        else bytes.delete(w.key);
      } else if ('key' in w) {
        space.delete(w.key);
        bytes.delete(w.key);
      } else {
        for (const key of [...space.keys()]) {
          if (!key.startsWith(w.prefix)) continue;
          space.delete(key);
          bytes.delete(key);
        }
      }
    }
  }

  close(): void {}
}
