/**
 * `LmdbIndexedDb`: the part of IndexedDB that IndexedDbStorage uses (bucket/idb-types.ts), kept in
 * an LMDB environment, so a bucket on `--persist` is IndexedDbStorage itself: the same tested code
 * (conformance suite included) over a store that survives a restart and a `kill -9`. Chrome keeps
 * IndexedDB in LevelDB the same way.
 *
 * ## Layout
 * Everything is in one LMDB named database (LMDB_INDEXEDDB_DB: the environment's `maxDbs` counts it)
 * with binary keys and values:
 * - `01 · name` → the database's schema `{ version, stores }`;
 * - `02 · name · store · key` → a record's value, where name and store are encoded as string keys
 *   and key as an IndexedDB key (idb-keys.ts), so LMDB's byte order is IndexedDB's key order and a
 *   store is one contiguous range. A prefix rather than a named database per store: a server makes
 *   buckets on demand (six stores each), and LMDB's named databases are a fixed `maxDbs` set at
 *   open, each slot costing every transaction some words and every open a linear search (LMDB's
 *   mdb_env_set_maxdbs).
 * Values are msgpack (msgpackr, lmdb's own encoder) with structured cloning on, so Date, Map, Set,
 * Uint8Array (as Uint8Array, not Buffer) and undefined fields come back as they went in; encoded at
 * `put`, which is where IndexedDB clones. Each message carries its own record shapes (no shared
 * structures kept in the database to go stale). -0 comes back as 0.
 *
 * ## Transactions
 * As IndexedDB: requests run in the order placed, each completing in a later turn of the event
 * loop, and the transaction stays active while its success callbacks and the microtasks they start
 * place more; when a turn begins with none pending, it commits. Its writes are held in memory (reads
 * see them over the stored records) and reach LMDB at commit as one synchronous write transaction
 * (`transactionSync`: atomic, and with the environment's default sync, on disk) before `oncomplete`
 * fires; so an operation of IndexedDbStorage has resolved only once LMDB has its writes. An abort,
 * or a request that fails, drops them: nothing of an aborted transaction reaches LMDB. Transactions
 * whose scopes overlap run one after another when either writes (readers of a store run together),
 * so a transaction's reads of LMDB are a stable view of its stores.
 *
 * ## Use
 * The engine opens the environment (`open({ path, maxDbs })`, `maxDbs` counting LMDB_INDEXEDDB_DB;
 * lmdb's default syncs every commit to disk, `noSync` leaves it to the OS: a killed process loses
 * nothing either way; with noSync a machine that goes down may lose the last commits, and LMDB's
 * documentation warns it may corrupt the file where the file system reorders writes),
 * makes one LmdbIndexedDb over it (more over the same environment share its ordering; another
 * process on the directory is not ordered with this one), and gives each bucket an
 * `IndexedDbStorage({ name, indexedDB })` with a name that stays the bucket's across restarts.
 * `deleteDatabase(name)` drops a deleted bucket's records, `databases()` lists what is there, and
 * `settled()` is what to await before closing the environment. Import this module dynamically,
 * as lmdb: msgpackr comes with lmdb, both optional dependencies.
 *
 * Left out, as IndexedDbStorage needs none of them: indexes, cursors, key ranges, `add`, Date and
 * binary keys, `onblocked` (an upgrade or delete notifies the open connections with
 * `onversionchange`, waits for their transactions, and goes ahead), and IndexedDB's strictness
 * about a request placed from an unrelated task before the transaction's next turn (accepted here).
 */
import type { LmdbDatabase, LmdbRoot } from './lmdb-types.js';
import { Packr } from 'msgpackr';
import type {
  IdbDatabase,
  IdbFactory,
  IdbObjectStore,
  IdbOpenRequest,
  IdbRequest,
  IdbTransaction,
} from '../../bucket/idb-types.js';
import { AFTER, KeyWriter, MAX_KEY_BYTES, dataError, readKey } from './idb-keys.js';

/** The LMDB named database LmdbIndexedDb keeps everything in (count it in `maxDbs`). */
const LMDB_INDEXEDDB_DB = 'indexeddb';

const SCHEMA = 0x01;
const RECORDS = 0x02;

type Handler = ((ev: never) => unknown) | null;
type Mode = 'readonly' | 'readwrite';

const values = new Packr({ structuredClone: true, copyBuffers: true });

function encodeValue(v: unknown): Buffer {
  try {
    return values.pack(v);
  } catch (e) {
    throw new DOMException(
      `LmdbIndexedDb: the value could not be cloned: ${e instanceof Error ? e.message : String(e)}`,
      'DataCloneError',
    );
  }
}

/** Decodes a stored value (a copy: lmdb's buffers may be reused). Read from a plain Uint8Array view, bytes come back as Uint8Array. */
const decodeValue = (b: Uint8Array): unknown => values.unpack(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Calls an event handler; true when there was one. */
function dispatch(handler: Handler, target: unknown, event: object): boolean {
  if (!handler) return false;
  (handler as (this: unknown, ev: unknown) => unknown).call(target, { target, currentTarget: target, ...event });
  return true;
}

class Request<T = unknown> implements IdbRequest<T> {
  result = undefined as T;
  error: unknown = null;
  readyState: 'pending' | 'done' = 'pending';
  onsuccess: Handler = null;
  onerror: Handler = null;
  constructor(
    readonly source: unknown,
    readonly transaction: Transaction | null,
  ) {}
}

class OpenRequest extends Request<IdbDatabase> implements IdbOpenRequest {
  onupgradeneeded: Handler = null;
  onblocked: Handler = null;
  constructor() {
    super(null, null);
  }
}

/** What holds a database's stores: a transaction, an upgrade or a delete (scope null: every store). */
interface Lock {
  readonly mode: Mode | 'versionchange';
  readonly scope: ReadonlySet<string> | null;
  readonly finished: Promise<void>;
}

function lockOf(mode: Lock['mode'], scope: ReadonlySet<string> | null): Lock & { release(): void } {
  let release!: () => void;
  const finished = new Promise<void>((resolve) => (release = resolve));
  return { mode, scope, finished, release };
}

const overlaps = (a: Lock, b: Lock): boolean => {
  if (a.mode === 'readonly' && b.mode === 'readonly') return false;
  if (!a.scope || !b.scope) return true;
  for (const s of a.scope) if (b.scope.has(s)) return true;
  return false;
};

interface Schema {
  readonly version: number;
  readonly stores: readonly string[];
}

/** A transaction's writes to one store, applied at commit. */
interface StoreWrites {
  cleared: boolean;
  /** By the record's whole LMDB key (latin1, one char a byte: string order is byte order); null: deleted. */
  readonly puts: Map<string, Buffer | null>;
}

/**
 * What orders the transactions of an environment: shared by every LmdbIndexedDb over the same
 * opened environment, so two of them still serialise their writers (another process on the same
 * directory is not: one server per directory).
 */
interface Coordination {
  /** The locks held or waited for, by database name. */
  readonly locks: Map<string, Set<Lock>>;
  readonly connections: Map<string, Set<Connection>>;
  /** Opens and deletes of one name run one after another. */
  readonly queues: Map<string, Promise<void>>;
}
const coordinations = new WeakMap<LmdbRoot, Coordination>();

export class LmdbIndexedDb implements IdbFactory {
  readonly #records: LmdbDatabase<Buffer, Buffer>;
  readonly #keys = new KeyWriter();
  readonly #locks: Map<string, Set<Lock>>;
  readonly #connections: Map<string, Set<Connection>>;
  readonly #queues: Map<string, Promise<void>>;

  /** `root`: an environment opened with lmdb's `open({ path, maxDbs, ... })`; its owner closes it (once the operations on it have settled). */
  constructor(root: LmdbRoot) {
    this.#records = root.openDB(LMDB_INDEXEDDB_DB, { keyEncoding: 'binary', encoding: 'binary' });
    let shared = coordinations.get(root);
    if (!shared) coordinations.set(root, (shared = { locks: new Map(), connections: new Map(), queues: new Map() }));
    this.#locks = shared.locks;
    this.#connections = shared.connections;
    this.#queues = shared.queues;
  }

  open(name: string, version?: number): IdbOpenRequest {
    name = String(name);
    if (version !== undefined && (!Number.isInteger(version) || version < 1 || version > Number.MAX_SAFE_INTEGER)) {
      throw new TypeError(`LmdbIndexedDb.open: the version must be a positive integer, got ${String(version)}`);
    }
    const request = new OpenRequest();
    this.#serially(name, () => this.#open(request, name, version));
    return request;
  }

  /** Deletes a database and its records (IndexedDB's `deleteDatabase`): open connections get `onversionchange` first. */
  deleteDatabase(name: string): IdbRequest<undefined> {
    name = String(name);
    const request = new Request<undefined>(null, null);
    this.#serially(name, async () => {
      await nextTurn();
      const oldVersion = this.#schema(name)?.version ?? 0;
      await this.#takeOver(name, oldVersion, null, (lock) => {
        this.#records.transactionSync(() => {
          this.#records.removeSync(this.#schemaKey(name));
          this.#removeRange(this.#prefix(RECORDS, name));
        });
        lock.release();
      });
      request.readyState = 'done';
      dispatch(request.onsuccess, request, { type: 'success', oldVersion, newVersion: null });
    });
    return request;
  }

  /**
   * Settles once every open, delete and transaction begun on the environment so far has finished:
   * what to await before closing it (a commit is atomic either way; this spares the calls in flight
   * an error from a closed environment).
   */
  async settled(): Promise<void> {
    for (;;) {
      const pending = [
        ...this.#queues.values(),
        ...[...this.#locks.values()].flatMap((held) => [...held].map((l) => l.finished)),
      ];
      if (pending.length === 0) return;
      await Promise.all(pending);
      await nextTurn();
    }
  }

  /** The databases there are, with their versions (IndexedDB's `databases()`). */
  async databases(): Promise<{ name: string; version: number }[]> {
    const start = Buffer.from([SCHEMA]);
    const out: { name: string; version: number }[] = [];
    for (const { key, value } of this.#records.getRange({ start, end: Buffer.from([SCHEMA, AFTER]) })) {
      out.push({ name: readKey(key, 1).key as string, version: (decodeValue(value) as Schema).version });
    }
    return out;
  }

  #serially(name: string, task: () => Promise<void>): void {
    const run = (this.#queues.get(name) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => undefined);
    this.#queues.set(name, tail);
    void tail.then(() => {
      if (this.#queues.get(name) === tail) this.#queues.delete(name);
    });
  }

  async #open(request: OpenRequest, name: string, version: number | undefined): Promise<void> {
    await nextTurn();
    const fail = (error: unknown) => {
      request.readyState = 'done';
      request.error = error;
      request.result = undefined as unknown as IdbDatabase;
      dispatch(request.onerror, request, { type: 'error', preventDefault() {} });
    };
    let schema: Schema | undefined;
    try {
      schema = this.#schema(name);
    } catch (e) {
      return fail(e);
    }
    const oldVersion = schema?.version ?? 0;
    const newVersion = version ?? (oldVersion || 1);
    if (newVersion < oldVersion) {
      return fail(
        new DOMException(
          `The requested version (${newVersion}) is less than the existing version (${oldVersion}).`,
          'VersionError',
        ),
      );
    }
    const conn = new Connection(this, name, newVersion, new Set(schema?.stores ?? []));
    if (newVersion > oldVersion) {
      const upgraded = await this.#takeOver(name, oldVersion, newVersion, async (lock) => {
        try {
          conn.upgrading = true;
          request.result = conn;
          request.readyState = 'done';
          dispatch(request.onupgradeneeded, request, { type: 'upgradeneeded', oldVersion, newVersion });
          await nextTurn(); // the handler's microtasks may create stores too
          const stored: Schema = { version: newVersion, stores: [...conn.stores] };
          this.#records.transactionSync(() => this.#records.putSync(this.#schemaKey(name), encodeValue(stored)));
          return true;
        } catch (e) {
          conn.close();
          fail(
            e instanceof DOMException && e.name === 'AbortError'
              ? e
              : new DOMException(`The upgrade failed: ${String(e)}`, 'AbortError'),
          );
          return false;
        } finally {
          conn.upgrading = false;
          lock.release();
        }
      });
      if (!upgraded) return;
    }
    this.#connectionsOf(name).add(conn);
    request.result = conn;
    request.readyState = 'done';
    dispatch(request.onsuccess, request, { type: 'success' });
  }

  /**
   * Runs `work` holding every store of `name`, once the open connections were told (versionchange)
   * and the transactions already there have finished; the connections still open are closed.
   */
  async #takeOver<T>(
    name: string,
    oldVersion: number,
    newVersion: number | null,
    work: (lock: Lock & { release(): void }) => T | Promise<T>,
  ): Promise<T> {
    for (const c of [...this.#connectionsOf(name)]) {
      try {
        dispatch(c.onversionchange, c, { type: 'versionchange', oldVersion, newVersion });
      } catch (e) {
        // One connection's failing handler neither stops the others' nor the change (as in IndexedDB); it is reported.
        process.emitWarning(e instanceof Error ? e : String(e), { code: 'LMDB_INDEXEDDB_HANDLER' });
      }
    }
    for (const c of [...this.#connectionsOf(name)]) c.close();
    const lock = lockOf('versionchange', null);
    const blockers = this.#hold(name, lock);
    await Promise.all(blockers);
    try {
      return await work(lock);
    } finally {
      lock.release();
    }
  }

  #connectionsOf(name: string): Set<Connection> {
    let set = this.#connections.get(name);
    if (!set) this.#connections.set(name, (set = new Set()));
    return set;
  }

  /** Registers `lock` on `name`; returns what it waits for (the earlier locks it conflicts with). */
  #hold(name: string, lock: Lock): Promise<void>[] {
    let held = this.#locks.get(name);
    if (!held) this.#locks.set(name, (held = new Set()));
    const blockers: Promise<void>[] = [];
    for (const other of held) if (overlaps(lock, other)) blockers.push(other.finished);
    held.add(lock);
    const set = held;
    void lock.finished.then(() => {
      set.delete(lock);
      if (set.size === 0 && this.#locks.get(name) === set) this.#locks.delete(name);
    });
    return blockers;
  }

  /** @internal */
  hold(name: string, lock: Lock): Promise<void>[] {
    return this.#hold(name, lock);
  }

  /** @internal */
  forget(conn: Connection): void {
    this.#connections.get(conn.name)?.delete(conn);
  }

  #schemaKey(name: string): Buffer {
    const w = this.#keys;
    w.length = 0;
    w.byte(SCHEMA);
    w.string(name);
    return w.take();
  }

  #schema(name: string): Schema | undefined {
    const b = this.#records.getBinary(this.#schemaKey(name));
    return b === undefined ? undefined : (decodeValue(b) as Schema);
  }

  /** `tag · name (· store)`: what every key of a database (or of one of its stores) starts with. */
  #prefix(tag: number, name: string, store?: string): Buffer {
    const w = this.#keys;
    w.length = 0;
    w.byte(tag);
    w.string(name);
    if (store !== undefined) w.string(store);
    return w.take();
  }

  /** @internal a record's whole LMDB key; a DataError for what is not a key (or too long a one). */
  recordKey(name: string, store: string, key: unknown): Buffer {
    const w = this.#keys;
    w.length = 0;
    w.byte(RECORDS);
    w.string(name);
    w.string(store);
    w.key(key);
    if (w.length > MAX_KEY_BYTES)
      throw dataError(`LmdbIndexedDb: the key takes ${w.length} bytes, more than LMDB's ${MAX_KEY_BYTES}`);
    return w.take();
  }

  /** @internal */
  storePrefix(name: string, store: string): Buffer {
    return this.#prefix(RECORDS, name, store);
  }

  /** @internal the stored value at a record key. */
  get(key: Buffer): unknown {
    const b = this.#records.getBinary(key);
    return b === undefined ? undefined : decodeValue(b);
  }

  /** @internal a store's records in key order: their keys, or their values. */
  all(prefix: Buffer, what: 'keys' | 'values', writes: StoreWrites | undefined): unknown[] {
    const end = Buffer.concat([prefix, Buffer.from([AFTER])]);
    const stored = !writes?.cleared;
    if (!writes || writes.puts.size === 0) {
      if (!stored) return [];
      if (what === 'keys')
        return Array.from(this.#records.getKeys({ start: prefix, end }), (k) => readKey(k, prefix.length).key);
      return Array.from(this.#records.getRange({ start: prefix, end }), ({ value }) => decodeValue(value));
    }
    // The transaction wrote here: its writes over the stored records, in key order again.
    const merged = new Map<string, Buffer | null>();
    if (stored && what === 'keys')
      for (const k of this.#records.getKeys({ start: prefix, end })) merged.set(k.toString('latin1'), null);
    if (stored && what === 'values')
      for (const { key, value } of this.#records.getRange({ start: prefix, end }))
        merged.set(key.toString('latin1'), Buffer.from(value));
    for (const [k, v] of writes.puts) {
      if (v) merged.set(k, v);
      else merged.delete(k);
    }
    const keys = [...merged.keys()].sort();
    if (what === 'keys') return keys.map((k) => readKey(Buffer.from(k, 'latin1'), prefix.length).key);
    return keys.map((k) => decodeValue(merged.get(k)!));
  }

  /** @internal applies a transaction's writes as one LMDB write transaction (throws when LMDB refuses them: nothing is written then). */
  commit(name: string, writes: ReadonlyMap<string, StoreWrites>): void {
    this.#records.transactionSync(() => {
      for (const [store, w] of writes) {
        if (w.cleared) this.#removeRange(this.storePrefix(name, store));
        for (const [k, v] of w.puts) {
          const key = Buffer.from(k, 'latin1');
          if (v) this.#records.putSync(key, v);
          else this.#records.removeSync(key);
        }
      }
    });
  }

  /** Removes every record whose key starts with `prefix` (inside a write transaction). */
  #removeRange(prefix: Buffer): void {
    const end = Buffer.concat([prefix, Buffer.from([AFTER])]);
    const keys = Array.from(this.#records.getKeys({ start: prefix, end }), (k) => Buffer.from(k));
    for (const k of keys) this.#records.removeSync(k);
  }
}

class Connection implements IdbDatabase {
  onversionchange: Handler = null;
  upgrading = false;
  #closed = false;
  readonly objectStoreNames: { contains(name: string): boolean; readonly length: number };

  constructor(
    readonly factory: LmdbIndexedDb,
    readonly name: string,
    readonly version: number,
    readonly stores: Set<string>,
  ) {
    this.objectStoreNames = {
      contains: (n: string) => stores.has(n),
      get length() {
        return stores.size;
      },
    };
  }

  createObjectStore(name: string): { name: string } {
    if (!this.upgrading)
      throw new DOMException('createObjectStore is allowed only in onupgradeneeded.', 'InvalidStateError');
    name = String(name);
    if (this.stores.has(name))
      throw new DOMException(`An object store named ${JSON.stringify(name)} already exists.`, 'ConstraintError');
    this.stores.add(name);
    return { name };
  }

  transaction(stores: string | string[], mode: Mode = 'readonly'): IdbTransaction {
    if (this.#closed) throw new DOMException('The database connection is closing.', 'InvalidStateError');
    if (mode !== 'readonly' && mode !== 'readwrite')
      throw new TypeError(`LmdbIndexedDb: unknown transaction mode ${String(mode)}`);
    const names = typeof stores === 'string' ? [stores] : [...stores].map(String);
    if (names.length === 0)
      throw new DOMException('The transaction needs at least one object store.', 'InvalidAccessError');
    for (const n of names) {
      if (!this.stores.has(n)) throw new DOMException(`No object store named ${JSON.stringify(n)}.`, 'NotFoundError');
    }
    return new Transaction(this, new Set(names), mode);
  }

  close(): void {
    this.#closed = true;
    this.factory.forget(this);
  }
}

interface Op {
  readonly request: Request;
  readonly run: () => unknown;
}

class Transaction implements IdbTransaction, Lock {
  error: unknown = null;
  oncomplete: Handler = null;
  onabort: Handler = null;
  onerror: Handler = null;
  readonly finished: Promise<void>;
  readonly #release: () => void;
  #state: 'waiting' | 'running' | 'done' = 'waiting';
  /** Whether requests may be placed: until the end of the turn that created it or ran a callback. */
  #active = true;
  #scheduled = false;
  readonly #queue: Op[] = [];
  readonly #stores = new Map<string, ObjectStore>();
  /** The writes, by store, until commit. */
  readonly writes = new Map<string, StoreWrites>();

  constructor(
    readonly db: Connection,
    readonly scope: ReadonlySet<string>,
    readonly mode: Mode,
  ) {
    const lock = lockOf(mode, scope);
    this.finished = lock.finished;
    this.#release = lock.release;
    const blockers = db.factory.hold(db.name, this);
    const start = () => {
      if (this.#state !== 'waiting') return;
      this.#state = 'running';
      this.#schedule();
    };
    if (blockers.length === 0) start();
    else void Promise.all(blockers).then(start);
  }

  get objectStoreNames(): readonly string[] {
    return [...this.scope];
  }

  objectStore(name: string): IdbObjectStore {
    if (this.#state === 'done') throw new DOMException('The transaction has finished.', 'InvalidStateError');
    if (!this.scope.has(name))
      throw new DOMException(
        `The object store ${JSON.stringify(name)} is not in this transaction's scope.`,
        'NotFoundError',
      );
    let store = this.#stores.get(name);
    if (!store) this.#stores.set(name, (store = new ObjectStore(this, name)));
    return store;
  }

  abort(): void {
    if (this.#state === 'done')
      throw new DOMException('The transaction has already committed or aborted.', 'InvalidStateError');
    this.#abort(null);
  }

  /** @internal places a request: `run` computes its result when its turn comes. */
  place<T>(source: ObjectStore, run: () => T): Request<T> {
    if (this.#state === 'done' || !this.#active)
      throw new DOMException('The transaction is not active.', 'TransactionInactiveError');
    const request = new Request<T>(source, this);
    this.#queue.push({ request: request as Request, run });
    if (this.#state === 'running') this.#schedule();
    return request;
  }

  /** @internal */
  writesTo(store: string): StoreWrites {
    let w = this.writes.get(store);
    if (!w) this.writes.set(store, (w = { cleared: false, puts: new Map() }));
    return w;
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#turn());
  }

  /**
   * One turn: runs the pending requests in order up to one with a callback, and calls it (the
   * microtasks it starts run before the next turn, and may place requests); a turn that begins
   * with none pending commits.
   */
  #turn(): void {
    this.#scheduled = false;
    if (this.#state !== 'running') return;
    this.#active = false;
    while (this.#queue.length > 0) {
      const { request, run } = this.#queue.shift()!;
      let result: unknown;
      try {
        result = run();
      } catch (error) {
        request.readyState = 'done';
        request.error = error;
        let prevented = false;
        this.#active = true;
        try {
          dispatch(request.onerror, request, { type: 'error', preventDefault: () => void (prevented = true) });
        } catch (thrown) {
          return this.#abort(new DOMException(`An error handler threw: ${String(thrown)}`, 'AbortError'));
        }
        if (!prevented) return this.#abort(error);
        return this.#schedule();
      }
      request.readyState = 'done';
      request.result = result;
      if (request.onsuccess) {
        this.#active = true;
        try {
          dispatch(request.onsuccess, request, { type: 'success' });
        } catch (thrown) {
          return this.#abort(new DOMException(`A success handler threw: ${String(thrown)}`, 'AbortError'));
        }
        return this.#schedule();
      }
    }
    this.#commit();
  }

  #commit(): void {
    this.#state = 'done';
    if (this.mode === 'readwrite' && this.writes.size > 0) {
      try {
        this.db.factory.commit(this.db.name, this.writes);
      } catch (error) {
        this.#state = 'running'; // so #abort runs
        return this.#abort(error);
      }
    }
    this.writes.clear();
    this.#release();
    dispatch(this.oncomplete, this, { type: 'complete' });
  }

  /** Drops the writes, fails the pending requests with AbortError, then fires `onabort`. */
  #abort(error: unknown): void {
    if (this.#state === 'done') return;
    this.#state = 'done';
    this.error = error;
    this.writes.clear();
    const pending = this.#queue.splice(0);
    this.#release();
    setImmediate(() => {
      for (const { request } of pending) {
        request.readyState = 'done';
        request.error = new DOMException('The transaction was aborted.', 'AbortError');
        try {
          dispatch(request.onerror, request, { type: 'error', preventDefault() {} });
        } catch {
          // the transaction is over already
        }
      }
      dispatch(this.onabort, this, { type: 'abort' });
    });
  }
}

class ObjectStore implements IdbObjectStore {
  readonly #prefix: Buffer;

  constructor(
    readonly transaction: Transaction,
    readonly name: string,
  ) {
    this.#prefix = transaction.db.factory.storePrefix(transaction.db.name, name);
  }

  #key(key: unknown): Buffer {
    return this.transaction.db.factory.recordKey(this.transaction.db.name, this.name, key);
  }

  #writable(): StoreWrites {
    if (this.transaction.mode === 'readonly') throw new DOMException('The transaction is read-only.', 'ReadOnlyError');
    return this.transaction.writesTo(this.name);
  }

  get(key: unknown): IdbRequest {
    const k = this.#key(key);
    const tx = this.transaction;
    return tx.place(this, () => {
      const w = tx.writes.get(this.name);
      if (w) {
        const s = k.toString('latin1');
        const own = w.puts.get(s);
        if (own !== undefined) return own === null ? undefined : decodeValue(own);
        if (w.cleared) return undefined;
      }
      return tx.db.factory.get(k);
    });
  }

  getAll(): IdbRequest<unknown[]> {
    const tx = this.transaction;
    return tx.place(this, () => tx.db.factory.all(this.#prefix, 'values', tx.writes.get(this.name)));
  }

  getAllKeys(): IdbRequest<unknown[]> {
    const tx = this.transaction;
    return tx.place(this, () => tx.db.factory.all(this.#prefix, 'keys', tx.writes.get(this.name)));
  }

  put(value: unknown, key: unknown): IdbRequest {
    if (this.transaction.mode === 'readonly') throw new DOMException('The transaction is read-only.', 'ReadOnlyError');
    const k = this.#key(key);
    const bytes = encodeValue(value); // cloned now, as IndexedDB does: later changes to `value` are not stored
    return this.transaction.place(this, () => {
      this.#writable().puts.set(k.toString('latin1'), bytes);
      return key;
    });
  }

  delete(key: unknown): IdbRequest {
    if (this.transaction.mode === 'readonly') throw new DOMException('The transaction is read-only.', 'ReadOnlyError');
    const k = this.#key(key);
    return this.transaction.place(this, () => {
      this.#writable().puts.set(k.toString('latin1'), null);
      return undefined;
    });
  }

  clear(): IdbRequest {
    if (this.transaction.mode === 'readonly') throw new DOMException('The transaction is read-only.', 'ReadOnlyError');
    return this.transaction.place(this, () => {
      const w = this.#writable();
      w.cleared = true;
      w.puts.clear();
      return undefined;
    });
  }
}
