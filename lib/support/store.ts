/**
 * The Store: where a product's backend keeps the records it owns beyond the process (ARCHITECTURE.md,
 * "State and the Store"). It knows no product: a record is bytes under a key in a space, and a
 * commit writes a batch of them as one transaction. Synchronous, because the engines it stands for
 * are (memory, and SQLite through `node:sqlite` for `--persist`): a backend writes through it inside
 * the request, before the answer, with no await between the change and its record.
 *
 * Every value is checked when it is read back (a CRC-32 kept beside it, by the engine): bytes that
 * changed on disk are a `StoreDamagedError`, never served.
 */

/** One write of a commit. */
export type StoreWrite =
  | { readonly space: string; readonly key: string; readonly value: Uint8Array }
  | { readonly space: string; readonly key: string; readonly delete: true }
  /** Every key of the space that starts with `prefix` ('' for the whole space). */
  | { readonly space: string; readonly prefix: string; readonly deleteAll: true };

export interface StoreEntry {
  readonly key: string;
  readonly value: Uint8Array;
}

export interface Store {
  /** The value under `key`, or undefined. */
  get(space: string, key: string): Uint8Array | undefined;
  /** The entries of `space` whose key starts with `prefix`, in key order (UTF-8 bytes). */
  scan(space: string, prefix?: string): StoreEntry[];
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
