/**
 * `--persist DIR`: a server's state kept in DIR's Store (lib/node/store/sqlite-store.ts: one SQLite
 * database through node:sqlite), so it survives a restart and a `kill -9`, and a write that was
 * answered is never lost.
 *
 * ## What goes where
 * - A bucket is a Bucket on `StoreStorage` (lib/bucket/store-storage.ts), one Store space a bucket:
 *   each bucket operation commits what it changed before it resolves.
 * - Everything else an account holds (zones and records, queues and messages, credentials, the
 *   bucket directory, ids) is the account image (account-image.ts), in the Store's `image` space,
 *   written by `commit()`: after every request, before its answer is sent (the server awaits it),
 *   and, for what changes outside a request (a queue's delivery settled), when the Queues backend
 *   says a queue changed (`QUEUE_CHANGED`): nothing polls.
 *
 * ## What a user can expect of it (the Store's header says how)
 * A full disk fails the write that did not fit, with an error answered, and nothing before it is lost;
 * one server per DIR, by the kernel's lock on the database; a DIR, file or record that is not ours or is
 * damaged is refused or reported, never served. Durability: every commit survives the server being
 * killed; `--persist-sync` also waits for the disk, for a power loss.
 */
import { randomHex } from '../../random.js';
import { bucketSpace, StoreStorage } from '../../bucket/store-storage.js';
import type { Bucket } from '../../bucket/bucket.js';
import type { BucketStorage } from '../../bucket/storage.js';
import type { StoreError, StoreWrite } from '../../support/store.js';
import { SqliteStore } from '../store/sqlite-store.js';
import {
  AccountImageWriter,
  loadAccountImage,
  persistedAccount,
  type ImageStore,
  type ImageTarget,
  type OpenBucket,
} from './account-image.js';
import { PendingWrites } from './image-store.js';
import { accountState } from '../../account/state.js';
import { QUEUE_CHANGED } from '../../queue/backend.js';

/** A persisted bucket's own options, as its directory entry keeps them (made again with them). */
export type BucketOptionsKept = Parameters<OpenBucket>[1];

/** How a commit reaches the disk (see the header). */
export type PersistSync = 'commit' | 'fsync';

export interface PersistOptions {
  /** Default `'commit'`. */
  sync?: PersistSync;
  /** How long the server stays idle after a commit before it compacts the Store (ms). Default 100. */
  interval?: number;
  /** Told of each full-disk failure and each damaged record the Store meets (the server prints them). */
  report?: (error: StoreError) => void;
}

/** The key (in the image) of a manual clock's time, so a restarted server resumes it. */
const CLOCK_KEY = 'clock';
/** The Store space of the account image. */
const IMAGE = 'image';
/** How often a server that never idles for a tick compacts all the same (ms). */
const BUSY_COMPACT_MS = 5000;

/** The image's key-value view of the Store's image space; writes wait in `pending` for one commit. */
function imageStore(store: SqliteStore): ImageStore {
  return {
    get: (key) => store.get(IMAGE, key),
    put: () => {
      throw new Error('the image is written through PendingWrites');
    },
    remove: () => {
      throw new Error('the image is written through PendingWrites');
    },
    keys: (prefix) => store.keys(IMAGE, prefix),
    scan: (prefix) => store.scan(IMAGE, prefix).map((e) => e.value),
  };
}

/** A server's persisted state: open it, load the account from it, then `attach` what it serves. */
export class Persistence {
  readonly dir: string;
  readonly sync: PersistSync;
  readonly #store: SqliteStore;
  readonly #image: ImageStore;
  readonly #interval: number;
  #writer: AccountImageWriter | undefined;
  /** The writes a commit gathers before its Store commit (#write). */
  #pending: PendingWrites | undefined;
  #clock: { now(): number } | undefined;
  #lastClock: number | undefined;
  /** The compaction waiting for the server to be idle (#compactSoon). */
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A commit asked for by a change outside a request, not yet run. */
  #changedOutside = false;
  #detach: (() => void) | undefined;
  /** Commits run one at a time. */
  #tail: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(dir: string, store: SqliteStore, options: PersistOptions) {
    this.dir = dir;
    this.sync = options.sync ?? 'commit';
    this.#store = store;
    this.#image = imageStore(store);
    this.#interval = options.interval ?? 100;
  }

  /** Opens (or makes) DIR and takes it for this process; refuses, saying why, what is not ours. */
  static async open(dir: string, options: PersistOptions = {}): Promise<Persistence> {
    const store = SqliteStore.open(dir, {
      sync: options.sync === 'fsync' ? 'full' : 'normal',
      ...(options.report && { report: options.report }),
    });
    return new Persistence(dir, store, options);
  }

  /** The account DIR holds (undefined: a new directory): construct the Account with its id before anything else. */
  savedAccount(): ReturnType<typeof persistedAccount> {
    return persistedAccount(this.#image);
  }

  /** A manual clock's time when the server last committed (undefined: none kept). */
  savedClock(): number | undefined {
    const v = this.#image.get(CLOCK_KEY);
    return typeof v === 'number' ? v : undefined;
  }

  /** A storage for a new bucket: a space of its own in the Store. */
  newBucketStorage(): StoreStorage {
    return new StoreStorage({ store: this.#store, name: `bucket-${randomHex(16)}` });
  }

  /** The storage of a persisted bucket, by the name its directory entry keeps. */
  openBucketStorage(name: string): StoreStorage {
    return new StoreStorage({ store: this.#store, name });
  }

  /**
   * Rebuilds the persisted account into `target` (made over an Account with `savedAccount()`'s id);
   * `newBucket` makes each persisted bucket on its storage in DIR, as the server makes its own.
   */
  async load(
    target: ImageTarget,
    newBucket: (storage: BucketStorage, options: BucketOptionsKept) => Bucket,
  ): Promise<void> {
    const kept = new Set<string>();
    loadAccountImage(this.#image, target, (name, options) => {
      kept.add(bucketSpace(name));
      return newBucket(this.openBucketStorage(name), options);
    });
    // A bucket's space the directory no longer names (the bucket was deleted, or made and never
    // written to the image before the server died) is dropped: a bucket made again under the name
    // gets a space of its own, so nothing of the old one could show through.
    const gone = this.#store.spaces(bucketSpace('')).filter((space) => !kept.has(space));
    this.#store.commit(gone.map((space): StoreWrite => ({ space, prefix: '', deleteAll: true })));
  }

  /**
   * From now on, writes what `target` holds at every commit (and a manual clock's time), and
   * commits when a queue's messages change outside a request. Call after `load` and after the
   * command line's own buckets and zones are made; then commit once before listening.
   */
  attach(target: ImageTarget, clock?: { now(): number }): void {
    this.#writer = new AccountImageWriter(target);
    this.#clock = clock;
    // A delivery settles on a timer of its own, with no request to commit after: the queue says so.
    // Several changes in one turn make one commit.
    this.#detach = accountState(target.account).on(QUEUE_CHANGED, () => {
      if (this.#changedOutside) return;
      this.#changedOutside = true;
      setImmediate(() => {
        this.#changedOutside = false;
        void this.commit().catch(() => undefined);
      });
    });
  }

  /**
   * Writes what changed since the last commit as one Store commit, after the commits already asked
   * for. A server awaits it after each request, before sending the answer. The buckets' own writes
   * are committed by their operations; a restore or reset a request queued runs on a microtask, so
   * it is done by the time this runs.
   */
  commit(): Promise<void> {
    const run = this.#tail.then(() => this.#write());
    this.#tail = run.catch(() => undefined);
    this.#compactSoon();
    return run;
  }

  #write(): void {
    const writer = this.#writer;
    if (!writer || this.#closed) return;
    // The writer's changes are gathered first and committed only when there are any: most requests
    // (every bucket operation: its storage committed it already) change nothing here. A commit that
    // fails (a full disk) keeps its writes for the next one.
    const changes = (this.#pending ??= new PendingWrites(this.#image));
    writer.write(changes);
    const now = this.#clock?.now();
    if (now !== undefined && now !== this.#lastClock) changes.put(CLOCK_KEY, now);
    if (changes.size === 0) return;
    const writes: StoreWrite[] = [];
    changes.flush({
      get: () => undefined,
      keys: () => [],
      put: (key, value) => writes.push({ space: IMAGE, key, value }),
      remove: (key) => writes.push({ space: IMAGE, key, delete: true }),
    });
    try {
      this.#store.commit(writes);
    } catch (e) {
      // Not stored: the same writes go again with the next commit.
      for (const w of writes) 'value' in w ? changes.put(w.key, w.value) : changes.remove((w as { key: string }).key);
      throw e;
    }
    if (now !== undefined) this.#lastClock = now;
  }

  /**
   * Once the server is idle (no commit for `interval` ms after the last), the disk deletes freed
   * given back and the write-ahead log checkpointed (SqliteStore.compact): the checkpoint is where
   * the disk is waited for, so not in the middle of a run of requests. A server never idle that long
   * still compacts every few seconds. The timer runs only after commits: an idle server sleeps.
   */
  #compactSoon(): void {
    if (this.#timer || this.#closed) return;
    this.#commitsSeen = this.#store.commits;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#closed) return;
      const commits = this.#store.commits;
      const busy = commits !== this.#commitsSeen;
      if (busy && Date.now() - this.#compacted < BUSY_COMPACT_MS) return this.#compactSoon();
      this.#compacted = Date.now();
      this.#store.compact();
    }, this.#interval);
    this.#timer.unref();
  }

  #compacted = Date.now();
  #commitsSeen = 0;

  /** The last commit, then the Store closed and DIR released. */
  async close(): Promise<void> {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#detach?.();
    await this.commit().catch(() => undefined);
    this.#closed = true;
    this.#store.close();
  }
}
