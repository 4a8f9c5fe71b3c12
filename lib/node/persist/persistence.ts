/**
 * `--persist DIR`: a server's state kept in an LMDB environment in DIR, so it survives a restart and
 * a `kill -9`, and a write that was answered is never lost.
 *
 * ## Why LMDB
 * The issue asks for an embedded store made for this: no daemon, from the npm registry with nothing
 * downloaded at install, crash-safe by design. LMDB (the `lmdb` package: its prebuilt binaries ship
 * in `@lmdb/lmdb-<platform>` packages, so npm's blocked install scripts do not matter) is a
 * copy-on-write B-tree in one memory-mapped file: a transaction commits by writing new pages and
 * then switching one of two meta pages, so a crash at any moment leaves the last committed state,
 * never a half-written one, with no recovery step at start. SQLite would do as well, but Node 20
 * has no built-in SQLite and better-sqlite3 needs an install script or a download; LevelDB (classic-level)
 * the same. Files written by hand would need the journal and fsync discipline LMDB already has.
 *
 * ## What goes where
 * - A bucket is a Bucket on `IndexedDbStorage` (lib/bucket/indexeddb-storage.ts) over
 *   `LmdbIndexedDb`, the IndexedDB subset that storage uses, implemented over LMDB
 *   (lmdb-indexeddb.ts): each bucket operation is one IndexedDB transaction, so one LMDB
 *   transaction, committed before the operation resolves. The storage is the one the conformance
 *   suite already runs on IndexedDB, so persisted buckets have the same rules and atomicity.
 * - Everything else an account holds (zones and records, queues and messages, credentials, the
 *   bucket directory, ids) is the account image (account-image.ts), written by `commit()`: after
 *   every request, before its answer is sent (the server awaits it), and on a short timer for what
 *   changes in the background (queue deliveries).
 *
 * ## Durability policy
 * Both kinds of write are LMDB commits made before the answer leaves. `sync: 'commit'` (the
 * default) commits without waiting for the disk (LMDB `noSync`, pages written in place in the map:
 * `useWritemap`): the write is in the file's pages in the operating system, so it survives the
 * server being killed (`kill -9` included), though not a power loss or a kernel crash, which can
 * lose the last commits (and, LMDB warns, corrupt the file where the file system reorders writes).
 * `sync: 'fsync'` (`--persist-sync`) also flushes every commit to the disk before answering, for
 * those: an fdatasync a write, about 0.4 ms here (bench/persist.ts).
 *
 * One process owns a directory at a time (a lock file with its pid): two servers writing one image
 * would each overwrite the other's account.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { LmdbDatabase, LmdbOpen, LmdbRoot } from './lmdb-types.js';
import { IndexedDbStorage } from '../../bucket/indexeddb-storage.js';
import type { Bucket } from '../../bucket/bucket.js';
import type { BucketStorage } from '../../bucket/storage.js';
import { randomHex } from '../../random.js';
import type { LmdbIndexedDb } from './lmdb-indexeddb.js';
import {
  AccountImageWriter,
  loadAccountImage,
  persistedAccount,
  type ImageStore,
  type ImageTarget,
  type OpenBucket,
} from './account-image.js';
import { PendingWrites } from './image-store.js';

/** A persisted bucket's own options, as its directory entry keeps them (made again with them). */
export type BucketOptionsKept = Parameters<OpenBucket>[1];

/** How a commit reaches the disk (see the header). */
export type PersistSync = 'commit' | 'fsync';

export interface PersistOptions {
  /** Default `'commit'`. */
  sync?: PersistSync;
  /** How often the background commit looks for changes made outside requests (ms). Default 100. */
  interval?: number;
}

/** The key (in the image) of a manual clock's time, so a restarted server resumes it. */
const CLOCK_KEY = 'clock';

/**
 * Loads lmdb and the IndexedDB subset over it (which needs msgpackr, lmdb's own dependency): both
 * optional dependencies, loaded only by a server given --persist, saying what to install when missing.
 */
async function loadLmdb(): Promise<{ open: LmdbOpen; LmdbIndexedDb: typeof LmdbIndexedDb }> {
  // A specifier the compiler does not follow: lmdb's own types stay out of the program (lmdb-types.ts).
  const lmdb = 'lmdb';
  try {
    const [{ open }, { LmdbIndexedDb }] = await Promise.all([
      import(lmdb) as Promise<{ open: LmdbOpen }>,
      import('./lmdb-indexeddb.js'),
    ]);
    return { open, LmdbIndexedDb };
  } catch (e) {
    throw new Error(
      `--persist needs the lmdb package (an optional dependency of edge-doubles): npm install lmdb (${(e as Error).message})`,
      { cause: e },
    );
  }
}

/** Takes DIR for this process; a lock left by a process that is gone (killed) is taken over. */
function lock(dir: string): string {
  const path = join(dir, 'edge-doubles.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(path, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new Error(
          `--persist ${dir}: in use by process ${pid} (another server); stop it or choose another directory`,
          { cause: e },
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`--persist ${dir}: cannot take the lock ${path}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The image's key-value view of an LMDB database (values stored with msgpack). */
function imageStore(db: LmdbDatabase<unknown, string>): ImageStore {
  return {
    get: (key) => db.get(key),
    put: (key, value) => void db.putSync(key, value),
    remove: (key) => void db.removeSync(key),
    // The image's keys are ASCII (names go in as `segment`s, image-store.ts): every key starting with
    // `prefix` sorts in [prefix, prefix + U+FFFF).
    keys: (prefix) =>
      [...db.getKeys({ start: prefix, end: `${prefix}\uffff` })].filter(
        (k): k is string => typeof k === 'string' && k.startsWith(prefix),
      ),
  };
}

/** A server's persisted state: open it, load the account from it, then `attach` what it serves. */
export class Persistence {
  readonly dir: string;
  readonly sync: PersistSync;
  /** The IndexedDB factory every persisted bucket's storage opens. */
  readonly indexedDB: LmdbIndexedDb;
  readonly #root: LmdbRoot;
  readonly #image: LmdbDatabase<unknown, string>;
  readonly #store: ImageStore;
  readonly #lockPath: string;
  readonly #interval: number;
  #writer: AccountImageWriter | undefined;
  /** The writes a commit gathers before its LMDB transaction (#write). */
  #pending: PendingWrites | undefined;
  #clock: { now(): number } | undefined;
  #lastClock: number | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Commits run one at a time. */
  #tail: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(
    dir: string,
    root: LmdbRoot,
    indexedDB: LmdbIndexedDb,
    lockPath: string,
    options: PersistOptions,
  ) {
    this.dir = dir;
    this.sync = options.sync ?? 'commit';
    this.#root = root;
    this.#lockPath = lockPath;
    this.#interval = options.interval ?? 100;
    this.#image = root.openDB('account-image', {});
    this.#store = imageStore(this.#image);
    this.indexedDB = indexedDB;
  }

  /** Opens (or makes) DIR and takes it for this process. */
  static async open(dir: string, options: PersistOptions = {}): Promise<Persistence> {
    const { open, LmdbIndexedDb } = await loadLmdb();
    mkdirSync(dir, { recursive: true });
    const lockPath = lock(dir);
    try {
      const root = open({
        path: join(dir, 'state.mdb'),
        // Two named databases: the buckets' (LmdbIndexedDb's) and the account image.
        maxDbs: 2,
        // 'commit': committed into the OS's pages (written in place in the map: LMDB's WRITEMAP,
        // a third less per put here than copying each page out), not waited on to the disk (see the header).
        ...(options.sync === 'fsync' ? { overlappingSync: false } : { noSync: true, useWritemap: true }),
      });
      return new Persistence(dir, root, new LmdbIndexedDb(root), lockPath, options);
    } catch (e) {
      rmSync(lockPath, { force: true });
      throw e;
    }
  }

  /** The account DIR holds (undefined: a new directory): construct the Account with its id before anything else. */
  savedAccount(): ReturnType<typeof persistedAccount> {
    return persistedAccount(this.#store);
  }

  /** A manual clock's time when the server last committed (undefined: none kept). */
  savedClock(): number | undefined {
    const v = this.#store.get(CLOCK_KEY);
    return typeof v === 'number' ? v : undefined;
  }

  /** A storage for a new bucket: an IndexedDB database of its own in DIR. */
  newBucketStorage(): IndexedDbStorage {
    return new IndexedDbStorage({ name: `bucket-${randomHex(16)}`, indexedDB: this.indexedDB, exclusive: true });
  }

  /** The storage of a persisted bucket, by the name its directory entry keeps. */
  openBucketStorage(name: string): IndexedDbStorage {
    return new IndexedDbStorage({ name, indexedDB: this.indexedDB, exclusive: true });
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
    loadAccountImage(this.#store, target, (name, options) => {
      kept.add(name);
      return newBucket(this.openBucketStorage(name), options);
    });
    // A bucket's database the directory no longer names (the bucket was deleted, or made and never
    // written to the image before the server died) is dropped: a bucket made again under the name
    // gets a database of its own, so nothing of the old one could show through.
    for (const { name } of await this.indexedDB.databases()) {
      if (kept.has(name)) continue;
      await new Promise<void>((resolve, reject) => {
        const r = this.indexedDB.deleteDatabase(name);
        r.onsuccess = () => resolve();
        r.onerror = () => reject(r.error);
      });
    }
  }

  /**
   * From now on, writes what `target` holds at every commit (and a manual clock's time), and
   * commits in the background every `interval` ms. Call after `load` and after the command line's
   * own buckets and zones are made; then commit once before listening.
   */
  attach(target: ImageTarget, clock?: { now(): number }): void {
    this.#writer = new AccountImageWriter(target);
    this.#clock = clock;
    this.#timer = setInterval(() => void this.commit().catch(() => undefined), this.#interval);
    this.#timer.unref();
  }

  /**
   * Waits for the buckets' transactions under way, then writes what else changed since the last
   * commit as one LMDB transaction, after the commits already asked for. A server awaits it after
   * each request, before sending the answer.
   */
  commit(): Promise<void> {
    // The buckets' writes this request started and did not await (a test-support seed, reset or
    // restore queues them) are committed first: the answer then stands for them too.
    const run = this.#tail.then(async () => {
      await this.indexedDB.settled();
      this.#write();
    });
    this.#tail = run.catch(() => undefined);
    return run;
  }

  #write(): void {
    const writer = this.#writer;
    if (!writer || this.#closed) return;
    // The writer's changes are gathered first and stored in one LMDB transaction only when there
    // are any: most requests (every bucket operation: its storage committed it already) change
    // nothing here, and an empty write transaction still costs a commit.
    // One holder for every commit (a commit that failed keeps its writes for the next one).
    const changes = (this.#pending ??= new PendingWrites(this.#store));
    writer.write(changes);
    const now = this.#clock?.now();
    if (now !== undefined && now !== this.#lastClock) changes.put(CLOCK_KEY, now);
    if (changes.size === 0) return;
    this.#root.transactionSync(() => changes.flush(this.#store));
    if (now !== undefined) this.#lastClock = now;
  }

  /** The last commit, then the environment closed and DIR released. */
  async close(): Promise<void> {
    if (this.#closed) return;
    if (this.#timer) clearInterval(this.#timer);
    await this.commit().catch(() => undefined);
    await this.indexedDB.settled();
    this.#closed = true;
    await this.#root.close();
    rmSync(this.#lockPath, { force: true });
  }
}
