/**
 * `StoreStorage`: a bucket kept in a Store (lib/support/store.ts), as a `--persist` server keeps its
 * buckets (SQLite: lib/node/store/sqlite-store.ts). See storage.ts for how a storage sits under the
 * model; the records are stored-records.ts's, under one space per bucket:
 * `o/<key>` an object, `u/<upload id>` an upload, `c/<segment>/<index>` a chunk of bytes,
 * `m/settings` the bucket's settings. A body of at most INLINE_BYTES written by a put is kept with
 * its object's record, as the record's bytes (`StoreWrite.bytes`): a small put is one row written
 * in place, where a chunk of its own would be a row added and the old one deleted, each touching
 * the table and its index (measured: about eight pages to the write-ahead log a put, against one).
 *
 * The Store is synchronous, so an operation is the model's synchronous run and one commit of what it
 * changed, with no await between them: the answer waits for nothing else, and a failed commit (a full
 * disk) rolls the cache back to its O(1) snapshot, leaving memory and disk as they were. The storage is
 * the bucket's only user while it runs: what it holds in memory is the truth, read once at start.
 *
 * Snapshots pin the bytes they refer to in memory only: a reset releases them (a snapshot taken before
 * a reset is refused after it), and a restart drops them, removing at start every chunk no record
 * refers to. So snapshots never keep disk for good.
 */
import * as bulkLoadModule from 'sorted-btree/extended/bulkLoad.js';
import { entriesIn, sortedSnapshot, valueIn, type BulkLoad, type SnapshotMap } from '../persistent-map.js';
import { concat } from '../bytes.js';
import { sortForm } from './key-index.js';
import type { StoredObject } from './stored.js';
import type { Store, StoreWrite } from '../support/store.js';
import type { BucketConfig, ConfigSnapshot } from './config.js';
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

/** A get reads its bytes at once when they span at most this many chunks; larger ones as they are pulled. */
const EAGER_CHUNKS = 4;
/** A put's body up to this size is kept with its object's record (see the header): a record and its bytes fit one 4 KiB page. */
const INLINE_BYTES = 3 * 1024;
const SETTINGS = 'm/settings';
/** Kept while snapshots pin bytes: the next start then removes the chunks no record refers to. */
const PINNED = 'm/pinned';
const chunkKey = (segment: string, index: number) => `c/${segment}/${String(index).padStart(8, '0')}`;
/** By the key itself, not its sort form: a sort form may hold lone surrogates, which a Store's UTF-8 cannot keep apart. */
const objectKey = (key: string) => `o/${key}`;

// CommonJS with `exports.bulkLoad`, as sorted-btree's extended entries are (lib/node/persist/snapshot-diff.ts).
const bulkModule = bulkLoadModule as unknown as { bulkLoad?: BulkLoad; default?: { bulkLoad: BulkLoad } };
const bulkLoad: BulkLoad = bulkModule.bulkLoad ?? bulkModule.default!.bulkLoad;

/** The Store space of the bucket storage named `name`. */
export const bucketSpace = (name: string): string => `bucket/${name}`;

/** The options of `new StoreStorage(options)`. */
export interface StoreStorageOptions {
  /** The Store the bucket is kept in. */
  store: Store;
  /** The bucket's name in the Store: one Bucket at a time uses a name. */
  name: string;
}

/** Keeps a bucket's objects, uploads, bytes and settings in a Store. */
export class StoreStorage extends BucketStorage {
  readonly name: string;
  readonly #store: Store;

  constructor(options: StoreStorageOptions) {
    super();
    this.name = options.name;
    this.#store = options.store;
  }

  protected open(): AttachedStorage {
    const session = new StoreSession(this.#store, bucketSpace(this.name));
    return { state: session.state, persistent: session };
  }
}

class StoreSession implements PersistentState {
  readonly state: ModelState & { objects: Journal; uploads: Journal } = {
    objects: new JournaledIndex(),
    uploads: new JournaledMap(),
  };
  /** The writes of the commit being made (record forms add the chunks of new bodies here). */
  #writes: StoreWrite[] = [];
  /** The body record forms just took to keep with the object's record (see INLINE_BYTES). */
  #inline: Uint8Array | undefined;
  readonly #forms = new RecordForms(
    (id, body, size) =>
      chunked(body, size, (index, bytes) =>
        this.#writes.push({ space: this.space, key: chunkKey(id, index), value: bytes }),
      ),
    (body, size) => {
      if (size > INLINE_BYTES) return false;
      this.#inline = concat(body, size);
      return true;
    },
  );
  /** Segments live snapshots refer to: kept when their object goes, until a reset or a restart. */
  #pins = new Set<string>();
  /**
   * Inline segments whose bytes were moved to a chunk record (`chunkKey(id, 0)`) when their object's
   * record was replaced while a snapshot pinned them; the records that name them as inline are the
   * snapshots', in memory only (a record written again names the chunk).
   */
  #moved = new Set<string>();
  /** Bumped by a reset: a snapshot of an earlier epoch no longer has its bytes. */
  #epoch = 0;
  /** What each snapshot promise this storage made holds, and the epoch it was taken in. */
  readonly #taken = new WeakMap<Promise<ModelSnapshot>, { snap: ModelSnapshot; epoch: number }>();
  #settings: BucketConfig | undefined;
  #failure: { error: unknown } | undefined;
  readonly reloads = 0;

  constructor(
    private readonly store: Store,
    private readonly space: string,
  ) {
    const { objects, uploads } = this.state;
    // The index built in one pass over the records in key order, not a tree descent a record.
    const records = store.scan(space, 'o/');
    const keys: string[] = new Array(records.length);
    const values: StoredObject[] = new Array(records.length);
    for (let i = 0; i < records.length; i++) {
      const rec = records[i]!.value as ObjectRecord;
      keys[i] = sortForm(rec.key);
      values[i] = this.#forms.objectOf(rec);
    }
    if (records.length > 0) objects.restore(sortedSnapshot(keys, values, bulkLoad));
    for (const { key, value } of store.scan(space, 'u/')) {
      uploads.set(key.slice(2), this.#forms.uploadOf(value as UploadRecord));
    }
    // Only snapshots leave chunks no record refers to (every commit drops what it unlinks).
    if (store.get(space, PINNED) !== undefined) this.#collect();
  }

  /** Removes the chunks no record refers to (a restart dropped the snapshots that pinned them). */
  #collect(): void {
    const { objects, uploads } = this.state;
    const live = this.#forms.allSegments(iterate(objects.entriesFrom()), iterate(uploads.entriesFrom()));
    const gone = new Set<string>();
    for (const key of this.store.keys(this.space, 'c/')) {
      const segment = key.slice(2, key.lastIndexOf('/'));
      if (!live.has(segment)) gone.add(segment);
    }
    this.store.commit([
      ...[...gone].map((s) => ({ space: this.space, prefix: `c/${s}/`, deleteAll: true as const })),
      { space: this.space, key: PINNED, delete: true },
    ]);
  }

  holdSettings(config: BucketConfig): void {
    this.#settings = config;
    const stored = this.store.get(this.space, SETTINGS) as ConfigSnapshot | undefined;
    if (stored) config.restore(stored);
  }

  fail(e: unknown): void {
    this.#failure ??= { error: e };
  }

  transact<R, X = R>(write: boolean, run: () => R, then?: (r: R, reader: BodyReader) => Promise<X>): Promise<X> {
    try {
      const failed = this.#failure;
      if (failed) {
        this.#failure = undefined;
        throw failed.error;
      }
      const r = write ? this.#written(run) : run();
      return then ? then(r, this.#reader) : Promise.resolve(r as unknown as X);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** Runs a writing operation and commits what it changed; on a failed commit, nothing changed. */
  #written<R>(run: () => R): R {
    const { objects, uploads } = this.state;
    const before: ModelSnapshot = { objects: objects.snapshot(), uploads: uploads.snapshot() };
    const config = this.#settings;
    const version = config?.version;
    const settingsBefore = config?.snapshot();
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
    if (touchedObjects.size > 0 || touchedUploads.size > 0 || settingsChanged) {
      // What the model changed is stored even when it then refused the call, as in memory: the only
      // such change is an upload found expired (and so aborted) by the call that refuses it.
      try {
        const settle = this.#commit(before, touchedObjects, touchedUploads, settingsChanged);
        settle();
      } catch (e) {
        objects.restore(before.objects);
        uploads.restore(before.uploads);
        if (settingsBefore) config!.restore(settingsBefore);
        throw e;
      }
    }
    if (refused) throw refused.error;
    return r as R;
  }

  /**
   * Stores what an operation changed (the keys it wrote, compared with the state before it) as one
   * commit. Returns what to do once it is stored: the cache then holds the stored forms (metadata
   * only; the bytes just written are let go).
   */
  #commit(before: ModelSnapshot, touchedObjects: Set<string>, touchedUploads: Set<string>, settings: boolean) {
    const writes: StoreWrite[] = (this.#writes = []);
    const space = this.space;
    const dropped: Segment[] = [];
    const kept = new Set<string>();
    const settle: (() => void)[] = [];
    const { objects, uploads } = this.state;

    /** Inline bytes of the objects replaced or deleted, by segment: moved to a chunk if pinned. */
    const evicted = new Map<string, StoredObject>();
    for (const sk of touchedObjects) {
      const old = valueIn(before.objects, sk);
      const now = objects.get(sk);
      if (old === now) continue;
      if (old) {
        const segments = this.#forms.segmentsOfObject(old);
        dropped.push(...segments);
        if (segments[0]?.inline) evicted.set(segments[0].id, old);
      }
      if (!now) {
        writes.push({ space, key: objectKey(old!.key), delete: true });
        continue;
      }
      const rec = this.#forms.objectRecord(now, old);
      for (const s of rec.segments) kept.add(s.id);
      writes.push(this.#objectWrite(rec, this.#takeInline(), old));
      if (!this.#forms.stored(now)) settle.push(() => objects.set(sk, this.#forms.objectOf(rec)));
    }

    for (const id of touchedUploads) {
      const old = valueIn(before.uploads, id);
      const now = uploads.get(id);
      if (old === now) continue;
      if (old) for (const p of old.parts.values()) dropped.push(...this.#forms.segmentsOfPart(p));
      if (!now) {
        writes.push({ space, key: `u/${id}`, delete: true });
        continue;
      }
      const rec = this.#forms.uploadRecord(now);
      for (const p of rec.parts) for (const s of p.segments) kept.add(s.id);
      writes.push({ space, key: `u/${id}`, value: rec });
      settle.push(() => {
        for (const p of rec.parts) {
          const part = now.parts.get(p.partNumber);
          if (part && !this.#forms.storedPart(part))
            now.parts.set(p.partNumber, this.#forms.partOf(p.etag, p.size, p.segments));
        }
      });
    }

    for (const s of dropped) {
      if (kept.has(s.id)) continue;
      if (!this.#pins.has(s.id)) writes.push(...this.#drop(s));
      else if (s.inline && !this.#moved.has(s.id)) {
        writes.push(this.#move(s, evicted.get(s.id)!));
        settle.push(() => this.#moved.add(s.id));
      }
    }
    if (settings) writes.push({ space, key: SETTINGS, value: this.#settings!.snapshot() });
    this.store.commit(writes);
    this.#writes = [];
    return () => {
      for (const f of settle) f();
    };
  }

  /** The body record forms took for the record just made, if they took one. */
  #takeInline(): Uint8Array | undefined {
    const taken = this.#inline;
    this.#inline = undefined;
    return taken;
  }

  /**
   * The write of an object's record: with `fresh`, the body record forms just took; an inline
   * segment written before is read from the record's row (a lifecycle transition keeps the bytes),
   * or named as the chunk it was moved to.
   */
  #objectWrite(rec: ObjectRecord, fresh: Uint8Array | undefined, occupant: StoredObject | undefined): StoreWrite {
    const key = objectKey(rec.key);
    const s = rec.segments[0];
    if (!s?.inline) return { space: this.space, key, value: rec };
    if (fresh) return { space: this.space, key, value: rec, bytes: fresh };
    if (this.#moved.has(s.id))
      return { space: this.space, key, value: { ...rec, segments: [{ id: s.id, size: s.size }] } };
    return { space: this.space, key, value: rec, bytes: this.#inlineBytes(rec.key, s, occupant) };
  }

  /**
   * The bytes of an inline segment, from its object's row, whose record is `occupant`'s (what the
   * cache holds at the key, outside a commit): of that segment, or they are gone.
   */
  #inlineBytes(key: string, s: Segment, occupant: StoredObject | undefined): Uint8Array {
    const bytes =
      occupant && this.#forms.segmentsOfObject(occupant)[0]?.id === s.id
        ? this.store.bytes(this.space, objectKey(key))
        : undefined;
    if (!bytes || bytes.byteLength !== s.size) throw this.#gone(key);
    return bytes;
  }

  /** Keeps an inline segment's bytes, whose row is being replaced, as a chunk while a snapshot pins them. */
  #move(s: Segment, from: StoredObject): StoreWrite {
    const bytes = this.store.bytes(this.space, objectKey(from.key));
    if (!bytes || bytes.byteLength !== s.size) throw this.#gone(from.key);
    return { space: this.space, key: chunkKey(s.id, 0), value: bytes };
  }

  #drop(s: Segment): StoreWrite[] {
    // An inline segment's bytes go with its row, unless they were moved to a chunk.
    if (s.inline && !this.#moved.has(s.id)) return [];
    return Array.from({ length: chunksOf(s) }, (_, i) => ({ space: this.space, key: chunkKey(s.id, i), delete: true }));
  }

  #gone(key: string): Error {
    return new Error(
      `StoreStorage: the bytes of ${JSON.stringify(key)} are no longer stored (the object was replaced or deleted while its body was read)`,
    );
  }

  readonly #reader: BodyReader = {
    read: async (object, offset, length): Promise<BodyBytes> => {
      const segments = this.#forms.segmentsOfObject(object);
      const pieces = piecesOf(segments, offset, length);
      const gone = () => this.#gone(object.key);
      const read = (p: (typeof pieces)[number]) =>
        cut(
          p,
          p.inline && !this.#moved.has(p.id)
            ? this.#inlineBytes(object.key, segments[0]!, this.state.objects.get(sortForm(object.key)))
            : (this.store.get(this.space, chunkKey(p.id, p.index)) as Uint8Array | undefined),
          gone,
        );
      if (pieces.length <= EAGER_CHUNKS) return { kind: 'chunks', chunks: pieces.map(read) };
      return {
        kind: 'pieces',
        pieces: async function* () {
          for (const p of pieces) yield read(p);
        },
      };
    },
  };

  // ---- snapshot / restore / reset ---------------------------------------------------------------

  snapshot(): Promise<ModelSnapshot> {
    const { objects, uploads } = this.state;
    if (this.#pins.size === 0) this.store.commit([{ space: this.space, key: PINNED, value: true }]);
    for (const id of this.#forms.allSegments(iterate(objects.entriesFrom()), uploadEntries(uploads)).keys()) {
      this.#pins.add(id);
    }
    const snap: ModelSnapshot = { objects: objects.snapshot(), uploads: uploads.snapshot() };
    const taken = Promise.resolve(snap);
    this.#taken.set(taken, { snap, epoch: this.#epoch });
    return taken;
  }

  restore(s: Promise<ModelSnapshot>, settings: ConfigSnapshot): void {
    // Done at once, so the calls that follow see it, and a refusal is Bucket.restore's own throw.
    const taken = this.#taken.get(s);
    if (!taken) throw new TypeError('Bucket.restore: not a snapshot of this bucket');
    if (taken.epoch !== this.#epoch) {
      throw new TypeError(
        'Bucket.restore: this snapshot was taken before the bucket was reset, which released the bytes it held',
      );
    }
    const { snap } = taken;
    const writes: StoreWrite[] = (this.#writes = []);
    const space = this.space;
    const { objects, uploads } = this.state;
    const current = this.#forms.allSegments(iterate(objects.entriesFrom()), uploadEntries(uploads));
    const wanted = this.#forms.allSegments(entriesIn(snap.objects), entriesIn(snap.uploads));
    // Read before anything is written: the bytes of the inline objects kept, from their rows.
    const records = [...entriesIn(snap.objects)].map(([, o]) => {
      const rec = this.#forms.objectRecord(o);
      return this.#objectWrite(rec, this.#takeInline(), objects.get(sortForm(o.key)));
    });
    const moved: string[] = [];
    for (const [, o] of iterate(objects.entriesFrom())) {
      const s = this.#forms.segmentsOfObject(o)[0];
      if (s?.inline && !wanted.has(s.id) && this.#pins.has(s.id) && !this.#moved.has(s.id)) {
        writes.push(this.#move(s, o));
        moved.push(s.id);
      }
    }
    writes.push({ space, prefix: 'o/', deleteAll: true }, { space, prefix: 'u/', deleteAll: true }, ...records);
    for (const [id, u] of entriesIn(snap.uploads))
      writes.push({ space, key: `u/${id}`, value: this.#forms.uploadRecord(u) });
    for (const [id, seg] of current) if (!wanted.has(id) && !this.#pins.has(id)) writes.push(...this.#drop(seg));
    writes.push({ space, key: SETTINGS, value: settings });
    this.store.commit(writes);
    this.#writes = [];
    for (const id of moved) this.#moved.add(id);
    objects.restore(snap.objects);
    uploads.restore(snap.uploads);
    this.#settings?.restore(settings);
  }

  clear(): void {
    try {
      // A reset empties the bucket (its settings stay) and releases the snapshots: nothing they
      // pinned is kept, on disk or in memory.
      const space = this.space;
      this.store.commit([
        ...['o/', 'u/', 'c/'].map((prefix) => ({ space, prefix, deleteAll: true as const })),
        { space, key: PINNED, delete: true },
      ]);
      this.#pins = new Set();
      this.#moved = new Set();
      this.#epoch++;
      this.state.objects.clear();
      this.state.uploads.clear();
    } catch (e) {
      this.fail(e);
    }
  }
}

function uploadEntries(uploads: SnapshotMap<Upload>): IterableIterator<readonly [string, Upload]> {
  return iterate(uploads.entriesFrom());
}
