/**
 * Where a bucket's state lives: the storage interface under the model.
 *
 * ## The design, and why
 *
 * R2's rules (model.ts) are written once, as synchronous code over two maps: the objects by sort
 * form in key order (KeyIndex) and the multipart uploads by id (SnapshotMap). A storage provides
 * those maps (`ModelState`). That is the whole interface the model sees, and it is synchronous on
 * purpose: a 1 KiB put, get or head on the memory storage is a few hundred nanoseconds, and an
 * `await` per storage access (or a generator per operation) would cost more than the operation.
 *
 * - `MemoryStorage` (the default) is those maps and nothing else: the bucket layer (layer.ts) calls the model
 *   directly, as it always did, so the memory path is unchanged in speed and behaviour.
 * - A persistent storage (`IndexedDbStorage`) also provides those maps, but as a cache of the
 *   database's object and upload records (metadata only: bodies stay in the database), and adds
 *   `transact`: the bucket layer runs each model operation inside it, whichever surface asked. `transact` opens one IndexedDB
 *   transaction, brings the cache up to date in it (a sequence number says whether anything wrote
 *   since; if so the records are reloaded), runs the model operation synchronously, and writes what
 *   the operation changed (the maps journal the keys they were asked to write) in the same
 *   transaction. So every operation is atomic (all its writes in one transaction, or none of them,
 *   and the cache is rolled back with an O(1) snapshot when the transaction aborts) and two buckets
 *   on one database are strongly consistent (IndexedDB serialises transactions over the same stores,
 *   and each starts by checking the sequence number).
 *
 * The async boundary is where the surface already awaits: every binding method returns a promise,
 * so a persistent storage only turns a synchronous body into an awaited one. The model, its checks
 * and its error order are the same code on both storages; the conformance suite runs on both.
 */
import { SnapshotMap } from '../persistent-map.js';
import { KeyIndex } from './key-index.js';
import type { BucketConfig, ConfigSnapshot } from './config.js';
import type { ModelSnapshot, Upload } from './model.js';
import type { StoredObject } from './stored.js';

/** The state the model reads and writes, synchronously. */
export interface ModelState {
  readonly objects: KeyIndex<StoredObject>;
  readonly uploads: SnapshotMap<Upload>;
}

/** What a Bucket does with the model's state when it is kept outside memory. */
export interface PersistentState {
  /**
   * Runs one model operation as one transaction: the state is current when `run` starts, and
   * either everything it changed is stored or nothing is. `then` runs inside the same transaction
   * with what `run` returned (a get reads its body there).
   */
  transact<R, X = R>(write: boolean, run: () => R, then?: (r: R, reader: BodyReader) => Promise<X>): Promise<X>;
  /**
   * Takes the bucket's settings in its keeping (config.ts): loaded with the objects, stored by a
   * transaction whose `run` changed them, so another Bucket on the same storage reads them back.
   */
  holdSettings(config: BucketConfig): void;
  /**
   * Counts the times the cached state was read again because another writer changed it: whatever
   * the layer derived from the objects (the lifecycle due index) is stale when it moved.
   */
  readonly reloads: number;
  /** The state now (after the operations already started), for Bucket.snapshot. */
  snapshot(): Promise<ModelSnapshot>;
  /** Replaces the stored state, and the stored settings, with a snapshot's (after the operations already started). */
  restore(s: Promise<ModelSnapshot>, settings: ConfigSnapshot): void;
  /** Empties the stored state (after the operations already started). */
  clear(): void;
  /** Reports an error of a queued write nobody awaits (a seeded put): the next operation rejects with it. */
  fail(e: unknown): void;
}

/** Reads an object's bytes from a persistent storage, for a get. */
export interface BodyReader {
  /** The bytes of `range` of `object`: read now when small, else a source read as it is pulled. */
  read(object: StoredObject, offset: number, length: number): Promise<BodyBytes>;
}

export type BodyBytes =
  | { readonly kind: 'chunks'; readonly chunks: readonly Uint8Array[] }
  | { readonly kind: 'pieces'; readonly pieces: () => AsyncIterator<Uint8Array> };

/** A storage, as a Bucket takes it over. */
export interface AttachedStorage {
  readonly state: ModelState;
  /** Undefined for memory: the bucket layer then calls the model directly, synchronously. */
  readonly persistent?: PersistentState;
}

/**
 * What `new Bucket({ storage })` takes. A storage serves one Bucket: the Bucket keeps the model's
 * working state in it.
 */
export abstract class BucketStorage {
  #attached = false;

  /** @internal called once, by the Bucket that takes this storage */
  attach(): AttachedStorage {
    if (this.#attached)
      throw new TypeError(
        `Bucket option 'storage': this ${this.constructor.name} already serves another Bucket; make one per Bucket.`,
      );
    this.#attached = true;
    return this.open();
  }

  /** @internal */
  protected abstract open(): AttachedStorage;
}

/** The default: the state in memory, in persistent maps with O(1) snapshots. */
export class MemoryStorage extends BucketStorage {
  protected open(): AttachedStorage {
    return { state: { objects: new KeyIndex<StoredObject>(), uploads: new SnapshotMap<Upload>() } };
  }
}
