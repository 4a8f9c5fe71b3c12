/**
 * `IndexedDbStorage`: a bucket kept in an IndexedDB database, so a new Bucket on the same database
 * (another tab, a reload, another process with the same fake-indexeddb) sees the previous state.
 * See storage.ts for how it sits under the model.
 *
 * The database has six object stores (STORES, out-of-line keys):
 * - `objects`: one record per object, keyed by the key's sort form (key-index.ts), whose plain
 *   string order is R2's order, so the store itself keeps the key order;
 * - `uploads`: one record per multipart upload (its state, metadata and parts), keyed by upload id;
 * - `chunks`: the bytes, in records of at most CHUNK_BYTES keyed [segment id, index]. A segment is
 *   one written body (a put, a part); an object is a list of segments: one for a put, its parts'
 *   for a completed upload (linked, never copied);
 * - `meta`: `seq`, bumped by every transaction that writes, so a bucket knows when its cache of
 *   the records is stale (another bucket wrote); and `settings`, the bucket's settings (config.ts:
 *   CORS, lifecycle, locks, notifications, public access, storage class) as one plain record,
 *   written by the transaction of the operation that changed them;
 * - `changes`: what the last writes changed, by `seq`, so a stale cache reads again only those
 *   records (a bucket more than CHANGES_KEPT writes behind reloads them all);
 * - `pins`: segments a snapshot refers to, kept when their object goes away.
 *
 * Every operation is one transaction (storage.ts): a put whose transaction aborts leaves no chunk,
 * no record and no sequence bump behind, so the previous object stays whole and readable.
 */
import { entriesIn, valueIn, type SnapshotMap } from '../persistent-map.js';
import type { ModelSnapshot, Upload } from './model.js';
import {
  BucketStorage,
  type AttachedStorage,
  type BodyBytes,
  type BodyReader,
  type ModelState,
  type PersistentState,
} from './storage.js';
import {
  chunked,
  chunksOf,
  cut,
  iterate,
  JournaledIndex,
  JournaledMap,
  piecesOf,
  RecordForms,
  type Journal,
  type ObjectRecord,
  type Segment,
  type UploadRecord,
} from './stored-records.js';
import type { IdbDatabase, IdbFactory, IdbObjectStore, IdbRequest, IdbTransaction } from './idb-types.js';
import type { BucketConfig, ConfigSnapshot } from './config.js';

/** A get reads its bytes inside its own transaction when they span at most this many chunks. */
const EAGER_CHUNKS = 4;
const DB_VERSION = 1;
const STORES = ['objects', 'uploads', 'chunks', 'meta', 'pins', 'changes'];
/** How many writes back a bucket can catch up with key by key; further behind, it reloads. */
const CHANGES_KEPT = 256;

/** What one write changed (by `seq`): keys to read again, or everything (snapshot, restore, reset). */
type Change =
  | { readonly objects: readonly string[]; readonly uploads: readonly string[]; readonly settings?: true }
  | { readonly all: true };
const request = <T>(r: IdbRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });

/** Settles when the transaction commits; rejects when it aborts (whatever aborted it). */
function finished(tx: IdbTransaction): Promise<void> {
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDbStorage: the transaction was aborted'));
  });
  done.catch(() => undefined); // awaited later, or not at all when something else failed first
  return done;
}

function deleteSegment(chunks: IdbObjectStore, s: Segment): void {
  for (let i = 0; i < chunksOf(s); i++) chunks.delete([s.id, i]);
}

function missing(key: string): Error {
  return new Error(
    `IndexedDbStorage: the bytes of ${JSON.stringify(key)} are no longer in the database (the object was replaced or deleted while its body was read)`,
  );
}

/** The options of `new IndexedDbStorage(options)`: the database name, and the IndexedDB factory (default the global `indexedDB`). */
export interface IndexedDbStorageOptions {
  /** The database's name: buckets on the same name (and IdbFactory) share their objects. */
  name: string;
  /** The IDBFactory to use. Default: the global `indexedDB` (in Node, give fake-indexeddb's `new IDBFactory()`). */
  indexedDB?: IdbFactory;
  /**
   * Whether this Bucket is the database's only user while it runs (a `--persist` server's buckets,
   * lib/node/persist/). Then an operation neither reads the sequence number to learn whether another
   * Bucket wrote nor bumps it with a note of what it changed: a quarter of a put's reads and writes.
   * A Bucket made on the database later still reads everything when it starts. Default false: other
   * Buckets (tabs, processes) on the database are seen.
   */
  exclusive?: boolean;
}

/** Keeps a bucket's objects, metadata, key order, multipart uploads and parts in IndexedDB. */
export class IndexedDbStorage extends BucketStorage {
  readonly name: string;
  readonly #factory: IdbFactory;

  constructor(options: IndexedDbStorageOptions) {
    super();
    if (options === null || typeof options !== 'object')
      throw new TypeError('IndexedDbStorage: options must be an object with a name');
    const { name, indexedDB } = options;
    if (typeof name !== 'string' || name === '')
      throw new TypeError(`IndexedDbStorage: 'name' must be a non-empty string, got ${String(name)}`);
    const factory = indexedDB ?? (globalThis as { indexedDB?: IdbFactory }).indexedDB;
    if (!factory || typeof factory.open !== 'function') {
      throw new TypeError(
        "IndexedDbStorage: this runtime has no indexedDB; pass one as the 'indexedDB' option (in Node: `new IDBFactory()` from fake-indexeddb)",
      );
    }
    this.name = name;
    this.#factory = factory;
    this.#exclusive = options.exclusive === true;
  }

  readonly #exclusive: boolean;

  protected open(): AttachedStorage {
    const session = new IdbSession(this.#factory, this.name, this.#exclusive);
    return { state: session.state, persistent: session };
  }
}

/** One bucket's view of the database: its cache of the records, and the queue of its operations. */
class IdbSession implements PersistentState {
  readonly state: ModelState & { objects: Journal; uploads: Journal } = {
    objects: new JournaledIndex(),
    uploads: new JournaledMap(),
  };
  #db: Promise<IdbDatabase> | undefined;
  /** The `seq` the cache reflects (-1: not loaded). */
  #seq = -1;
  #pins = new Set<string>();
  /** Stored objects' records, and stored parts' segments (objects and parts read or written). */
  /** The chunk store a write transaction writes new bodies into (#write, restore). */
  #chunks: IdbObjectStore | undefined;
  readonly #forms = new RecordForms((id, body, size) =>
    chunked(body, size, (index, bytes) => this.#chunks!.put(bytes, [id, index])),
  );
  #tail: Promise<unknown> = Promise.resolve();
  #failure: { error: unknown } | undefined;
  /** The bucket's settings, kept in the `settings` record of `meta` (holdSettings). */
  #settings: BucketConfig | undefined;
  reloads = 0;

  holdSettings(config: BucketConfig): void {
    this.#settings = config;
  }

  /** Reads the stored settings into the held configuration (none stored: a new bucket's). */
  async #loadSettings(tx: IdbTransaction): Promise<void> {
    const config = this.#settings;
    if (!config) return;
    const rec = (await request(tx.objectStore('meta').get('settings'))) as ConfigSnapshot | undefined;
    if (rec) config.restore(rec);
    else config.clear();
  }

  #storeSettings(tx: IdbTransaction, s: ConfigSnapshot): void {
    tx.objectStore('meta').put(s, 'settings');
  }

  constructor(
    private readonly factory: IdbFactory,
    private readonly name: string,
    /** IndexedDbStorageOptions.exclusive: once loaded, the cache is the truth. */
    private readonly exclusive = false,
  ) {}

  #database(): Promise<IdbDatabase> {
    return (this.#db ??= new Promise((resolve, reject) => {
      const r = this.factory.open(this.name, DB_VERSION);
      r.onupgradeneeded = () => {
        for (const s of STORES) if (!r.result.objectStoreNames.contains(s)) r.result.createObjectStore(s);
      };
      r.onsuccess = () => {
        const db = r.result;
        // Let a deleteDatabase or an upgrade elsewhere go ahead; the next call opens the database again.
        db.onversionchange = () => {
          db.close();
          this.#db = undefined;
          this.#seq = -1;
        };
        resolve(db);
      };
      r.onerror = () => {
        this.#db = undefined; // the next call tries again
        reject(r.error);
      };
    }));
  }

  /** Operations run one after another, in call order (the cache is shared by them). */
  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(() => {
      const failed = this.#failure;
      if (failed) {
        this.#failure = undefined;
        throw failed.error;
      }
      return task();
    });
    this.#tail = run.catch(() => undefined);
    return run;
  }

  fail(e: unknown): void {
    this.#failure ??= { error: e };
  }

  transact<R, X = R>(write: boolean, run: () => R, then?: (r: R, reader: BodyReader) => Promise<X>): Promise<X> {
    return this.#enqueue(() => this.#exec(write, run, then));
  }

  async #exec<R, X>(write: boolean, run: () => R, then?: (r: R, reader: BodyReader) => Promise<X>): Promise<X> {
    const db = await this.#database();
    const tx = db.transaction(STORES, write ? 'readwrite' : 'readonly');
    const done = finished(tx);
    const { objects, uploads } = this.state;
    let before: ModelSnapshot | undefined;
    let settingsBefore: ConfigSnapshot | undefined;
    let dirty = false;
    let committed = false;
    try {
      await this.#refresh(tx);
      if (!write) {
        const r = run();
        const x = then ? await then(r, this.#reader(db, tx)) : (r as unknown as X);
        await done;
        return x;
      }
      before = { objects: objects.snapshot(), uploads: uploads.snapshot() };
      const config = this.#settings;
      settingsBefore = config?.snapshot();
      const version = config?.version;
      const touchedObjects = (objects.touched = new Set());
      const touchedUploads = (uploads.touched = new Set());
      let r: R | undefined;
      let refused: { error: unknown } | undefined;
      try {
        r = run();
      } catch (error) {
        refused = { error };
      } finally {
        objects.touched = uploads.touched = undefined;
      }
      const settingsChanged = config !== undefined && config.version !== version;
      dirty = touchedObjects.size > 0 || touchedUploads.size > 0 || settingsChanged;
      if (settingsChanged) this.#storeSettings(tx, config.snapshot());
      // What the model changed is stored even when it then refused the call, as in memory: the
      // only such change is an upload found expired (and so aborted) by the call that refuses it.
      const settle = dirty ? this.#write(tx, before, touchedObjects, touchedUploads, settingsChanged) : undefined;
      if (refused && !dirty) throw refused.error;
      const x = then && !refused ? await then(r as R, this.#reader(db, tx)) : (r as unknown as X);
      await done;
      committed = true;
      settle?.();
      if (refused) throw refused.error;
      return x;
    } catch (e) {
      if (!committed) {
        try {
          tx.abort();
        } catch {
          // already committed or aborted
        }
        if (dirty && before) {
          // Nothing was stored: the cache goes back to what it was, and is checked again next time.
          objects.restore(before.objects);
          uploads.restore(before.uploads);
          if (settingsBefore) this.#settings!.restore(settingsBefore);
          this.#seq = -1;
        }
      }
      throw e;
    }
  }

  /**
   * Brings the cache up to date inside `tx`: when another bucket wrote since, reads again the
   * records those writes changed, or every record when that is not known.
   */
  async #refresh(tx: IdbTransaction): Promise<void> {
    if (this.exclusive && this.#seq >= 0) return;
    const seq = ((await request(tx.objectStore('meta').get('seq'))) as number | undefined) ?? 0;
    if (seq === this.#seq) return;
    this.reloads++;
    if (this.#seq >= 0 && seq > this.#seq && seq - this.#seq <= CHANGES_KEPT && (await this.#catchUp(tx, seq))) return;
    await this.#loadSettings(tx);
    const os = tx.objectStore('objects');
    const us = tx.objectStore('uploads');
    const [objectKeys, objectRecords, uploadIds, uploadRecords, pins] = await Promise.all([
      request(os.getAllKeys()),
      request(os.getAll()) as Promise<ObjectRecord[]>,
      request(us.getAllKeys()),
      request(us.getAll()) as Promise<UploadRecord[]>,
      request(tx.objectStore('pins').getAllKeys()),
    ]);
    const { objects, uploads } = this.state;
    objects.clear();
    uploads.clear();
    objectRecords.forEach((rec, i) => objects.set(objectKeys[i] as string, this.#forms.objectOf(rec)));
    uploadRecords.forEach((rec, i) => uploads.set(uploadIds[i] as string, this.#forms.uploadOf(rec)));
    this.#pins = new Set(pins as string[]);
    this.#seq = seq;
  }

  /** Reads again only the records the writes since this cache's `seq` changed; false when it cannot. */
  async #catchUp(tx: IdbTransaction, seq: number): Promise<boolean> {
    const store = tx.objectStore('changes');
    const wanted: Promise<Change | undefined>[] = [];
    for (let n = this.#seq + 1; n <= seq; n++) wanted.push(request(store.get(n)) as Promise<Change | undefined>);
    const changes = await Promise.all(wanted);
    const objectKeys = new Set<string>();
    const uploadIds = new Set<string>();
    let settings = false;
    for (const c of changes) {
      if (!c || 'all' in c) return false;
      for (const k of c.objects) objectKeys.add(k);
      for (const id of c.uploads) uploadIds.add(id);
      settings ||= c.settings === true;
    }
    if (settings) await this.#loadSettings(tx);
    const os = tx.objectStore('objects');
    const us = tx.objectStore('uploads');
    const [objectRecords, uploadRecords] = await Promise.all([
      Promise.all([...objectKeys].map((k) => request(os.get(k)) as Promise<ObjectRecord | undefined>)),
      Promise.all([...uploadIds].map((id) => request(us.get(id)) as Promise<UploadRecord | undefined>)),
    ]);
    const { objects, uploads } = this.state;
    [...objectKeys].forEach((k, i) => {
      const rec = objectRecords[i];
      if (rec) objects.set(k, this.#forms.objectOf(rec));
      else objects.delete(k);
    });
    [...uploadIds].forEach((id, i) => {
      const rec = uploadRecords[i];
      if (rec) uploads.set(id, this.#forms.uploadOf(rec));
      else uploads.delete(id);
    });
    this.#seq = seq;
    return true;
  }

  /** Bumps `seq` in `tx`, noting what changed; returns the new `seq`. */
  #bump(tx: IdbTransaction, change: Change): number {
    const seq = Math.max(this.#seq, 0) + 1;
    tx.objectStore('meta').put(seq, 'seq');
    const changes = tx.objectStore('changes');
    changes.put(change, seq);
    if (seq > CHANGES_KEPT) changes.delete(seq - CHANGES_KEPT);
    return seq;
  }

  /**
   * Stores what an operation changed (the keys it wrote, compared with the state before it), in
   * `tx`. Returns what to do once `tx` has committed: the cache then holds the stored forms
   * (metadata only; the bytes just written are let go).
   */
  #write(
    tx: IdbTransaction,
    before: ModelSnapshot,
    touchedObjects: Set<string>,
    touchedUploads: Set<string>,
    settings: boolean,
  ): () => void {
    const objectStore = tx.objectStore('objects');
    const uploadStore = tx.objectStore('uploads');
    const chunks = (this.#chunks = tx.objectStore('chunks'));
    const dropped: Segment[] = [];
    const kept = new Set<string>();
    const settle: (() => void)[] = [];
    const { objects, uploads } = this.state;

    for (const sk of touchedObjects) {
      const old = valueIn(before.objects, sk);
      const now = objects.get(sk);
      if (old === now) continue;
      if (old) dropped.push(...this.#forms.segmentsOfObject(old));
      if (!now) {
        objectStore.delete(sk);
        continue;
      }
      const rec = this.#forms.objectRecord(now, old);
      for (const s of rec.segments) kept.add(s.id);
      objectStore.put(rec, sk);
      if (!this.#forms.stored(now)) settle.push(() => objects.set(sk, this.#forms.objectOf(rec)));
    }

    for (const id of touchedUploads) {
      const old = valueIn(before.uploads, id);
      const now = uploads.get(id);
      if (old === now) continue;
      if (old) for (const p of old.parts.values()) dropped.push(...this.#forms.segmentsOfPart(p));
      if (!now) {
        uploadStore.delete(id);
        continue;
      }
      const rec = this.#forms.uploadRecord(now);
      for (const p of rec.parts) for (const s of p.segments) kept.add(s.id);
      uploadStore.put(rec, id);
      settle.push(() => {
        for (const p of rec.parts) {
          const part = now.parts.get(p.partNumber);
          if (part && !this.#forms.storedPart(part))
            now.parts.set(p.partNumber, this.#forms.partOf(p.etag, p.size, p.segments));
        }
      });
    }

    for (const s of dropped) if (!kept.has(s.id) && !this.#pins.has(s.id)) deleteSegment(chunks, s);
    // Alone on the database, nobody reads what changed: the cache stays current as it is.
    const seq = this.exclusive
      ? this.#seq
      : this.#bump(tx, {
          objects: [...touchedObjects],
          uploads: [...touchedUploads],
          ...(settings && { settings: true as const }),
        });
    return () => {
      for (const f of settle) f();
      this.#seq = seq;
    };
  }

  #reader(db: IdbDatabase, tx: IdbTransaction): BodyReader {
    return {
      read: async (object, offset, length): Promise<BodyBytes> => {
        const pieces = piecesOf(this.#forms.segmentsOfObject(object), offset, length);
        const gone = () => missing(object.key);
        if (pieces.length <= EAGER_CHUNKS) {
          const store = tx.objectStore('chunks');
          const read = await Promise.all(
            pieces.map((p) => request(store.get([p.id, p.index])) as Promise<Uint8Array | undefined>),
          );
          return { kind: 'chunks', chunks: read.map((c, i) => cut(pieces[i]!, c, gone)) };
        }
        // Larger bodies are read one chunk per pull, each in a transaction of its own.
        return {
          kind: 'pieces',
          pieces: async function* () {
            for (const p of pieces) {
              const store = db.transaction('chunks', 'readonly').objectStore('chunks');
              yield cut(p, (await request(store.get([p.id, p.index]))) as Uint8Array | undefined, gone);
            }
          },
        };
      },
    };
  }

  // ---- snapshot / restore / reset ---------------------------------------------------------------

  /** One transaction that writes outside a model operation (snapshot, restore, reset). */
  async #maintain(work: (tx: IdbTransaction) => Promise<(() => void) | void>): Promise<void> {
    const db = await this.#database();
    const tx = db.transaction(STORES, 'readwrite');
    const done = finished(tx);
    try {
      await this.#refresh(tx);
      const after = await work(tx);
      const seq = this.#bump(tx, { all: true });
      await done;
      after?.();
      this.#seq = seq;
    } catch (e) {
      try {
        tx.abort();
      } catch {
        // already over
      }
      this.#seq = -1;
      throw e;
    }
  }

  snapshot(): Promise<ModelSnapshot> {
    let taken!: ModelSnapshot;
    const pinned = this.#enqueue(() =>
      this.#maintain(async (tx) => {
        const { objects, uploads } = this.state;
        const ids = [...this.#forms.allSegments(iterate(objects.entriesFrom()), uploadEntries(uploads)).keys()];
        const pins = tx.objectStore('pins');
        for (const id of ids) if (!this.#pins.has(id)) pins.put(true, id);
        taken = { objects: objects.snapshot(), uploads: uploads.snapshot() };
        return () => {
          for (const id of ids) this.#pins.add(id);
        };
      }),
    );
    const state = pinned.then(() => taken);
    state.catch(() => undefined); // a snapshot never restored may fail unobserved; a restore reports it
    return state;
  }

  restore(s: Promise<ModelSnapshot>, settings: ConfigSnapshot): void {
    this.#enqueue(async () => {
      const snap = await s;
      await this.#maintain(async (tx) => {
        this.#storeSettings(tx, settings);
        const { objects, uploads } = this.state;
        const current = this.#forms.allSegments(iterate(objects.entriesFrom()), uploadEntries(uploads));
        const wanted = this.#forms.allSegments(entriesIn(snap.objects), entriesIn(snap.uploads));
        const os = tx.objectStore('objects');
        const us = tx.objectStore('uploads');
        const chunks = (this.#chunks = tx.objectStore('chunks'));
        os.clear();
        us.clear();
        for (const [sk, o] of entriesIn(snap.objects)) os.put(this.#forms.objectRecord(o), sk);
        for (const [id, u] of entriesIn(snap.uploads)) us.put(this.#forms.uploadRecord(u), id);
        for (const [id, seg] of current) if (!wanted.has(id) && !this.#pins.has(id)) deleteSegment(chunks, seg);
        return () => {
          objects.restore(snap.objects);
          uploads.restore(snap.uploads);
          this.#settings?.restore(settings);
        };
      });
    }).catch((e: unknown) => this.fail(e));
  }

  clear(): void {
    this.#enqueue(() =>
      this.#maintain(async (tx) => {
        const { objects, uploads } = this.state;
        const chunks = tx.objectStore('chunks');
        for (const [id, seg] of this.#forms.allSegments(iterate(objects.entriesFrom()), uploadEntries(uploads))) {
          if (!this.#pins.has(id)) deleteSegment(chunks, seg);
        }
        tx.objectStore('objects').clear();
        tx.objectStore('uploads').clear();
        return () => {
          objects.clear();
          uploads.clear();
        };
      }),
    ).catch((e: unknown) => this.fail(e));
  }
}

function uploadEntries(uploads: SnapshotMap<Upload>): IterableIterator<readonly [string, Upload]> {
  return iterate(uploads.entriesFrom());
}
