/**
 * The bucket's state and R2's server-side rules, in plain data. Knows nothing of argument formats:
 * the surface (bucket.ts) converts and validates as workerd does, then calls in here, as workerd
 * calls R2. Each operation checks in R2's order and changes state only after every check passed.
 */
import { concat, fromHex, utf8Length } from '../bytes.js';
import { randomBase64Url, randomHex } from '../random.js';
import { digestHex } from '../hash.js';
import { checksumMismatch, r2Error, type R2Action } from './errors.js';
import { conditionHolds, conditionHoldsWhenAbsent, type Conditional } from './conditional.js';
import { readsEmptyWindow, resolveRange, type RangeRequest, type ResolvedRange } from './range.js';
import { CUSTOM_METADATA_LIMIT, customMetadataSize } from './metadata.js';
import type { RequestedChecksum } from './checksums.js';
import type { Body } from './values.js';
import { StoredObject, type ObjectMetadata } from './stored.js';
import { afterPrefix, sortForm } from './key-index.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { MapSnapshot, REMOVE } from '../persistent-map.js';
import type { ModelState } from './storage.js';

export type GetOutcome =
  | { readonly kind: 'missing' }
  | { readonly kind: 'precondition-failed'; readonly object: StoredObject }
  | { readonly kind: 'found'; readonly object: StoredObject; readonly range: ResolvedRange };

export interface ListQuery {
  readonly limit: number;
  readonly prefix: string;
  readonly startAfter?: string;
  readonly cursor?: string;
  readonly delimiter?: string;
  /**
   * Start after every key that begins with this (a delimiter group an S3 v1 marker names), if that
   * is later than `startAfter` and `cursor`. The binding has no such option.
   */
  readonly afterGroup?: string;
}

export interface ListPage {
  readonly objects: StoredObject[];
  readonly delimitedPrefixes: string[];
  readonly cursor?: string;
}

export interface UploadedPartRef {
  readonly partNumber: number;
  readonly etag: unknown;
}

const MAX_KEY_BYTES = 1024;
const MAX_OBJECT_SIZE = 5_363_466_240; // 5 GiB − 5 MiB
const MIN_PART_SIZE = 5 * 1024 * 1024;

export interface Part {
  readonly etag: string;
  readonly size: number;
  readonly chunks: readonly Uint8Array[];
  /** When it was uploaded (epoch ms): the S3 view's ListParts shows it. */
  readonly uploaded?: number;
}

/** An upload as the S3 view lists it (ListMultipartUploads). */
export interface UploadView {
  readonly key: string;
  readonly uploadId: string;
  readonly initiated: number;
  readonly metadata: ObjectMetadata;
}

/** A part as the S3 view lists it (ListParts). */
export interface PartView {
  readonly partNumber: number;
  readonly etag: string;
  readonly size: number;
  readonly uploaded: number;
}

/** Changed in place only through `BucketModel.owned` (a copy when a snapshot may share it). */
export interface Upload {
  readonly key: string;
  readonly created: number;
  state: 'active' | 'completed' | 'aborted';
  readonly parts: Map<number, Part>;
  readonly metadata: ObjectMetadata;
}

const copyUpload = (u: Upload): Upload => ({ ...u, parts: new Map(u.parts) });

/**
 * A completed upload's object and the parts its bytes are, in order: a persistent storage stores
 * the object as links to the parts' bytes (never a copy). Set once per complete, never read on the
 * memory path.
 */
export const linkedParts = new WeakMap<StoredObject, readonly Part[]>();

/** The bucket's state at one moment: O(1) to take and to restore (see SnapshotMap). */
export interface ModelSnapshot {
  readonly objects: MapSnapshot<StoredObject>;
  readonly uploads: MapSnapshot<Upload>;
}

export class BucketModel {
  private readonly objects: ModelState['objects'];
  private readonly uploads: ModelState['uploads'];

  /** The state lives in a storage (storage.ts); the rules here are the same whatever holds it. */
  /**
   * When an upload of `key` begun at `created` is aborted (epoch ms; Infinity: never). The bucket's
   * lifecycle rules decide (lib/bucket/lifecycle.ts, set by the layer); until then, the default
   * rule's 7 days.
   */
  abortAt: (key: string, created: number) => number = (_key, created) => created + 604_800_000;

  constructor(
    /** The bucket's clock (epoch ms): the layer's lifecycle pass reads it too. */
    readonly clock: () => number,
    state: ModelState,
  ) {
    this.objects = state.objects;
    this.uploads = state.uploads;
  }

  snapshot(): ModelSnapshot {
    return { objects: this.objects.snapshot(), uploads: this.uploads.snapshot() };
  }

  restore(s: ModelSnapshot): void {
    this.objects.restore(s.objects);
    this.uploads.restore(s.uploads);
  }

  clear(): void {
    this.objects.clear();
    this.uploads.clear();
  }

  /** The number of objects stored. */
  get size(): number {
    return this.objects.size;
  }

  /** An upload that may be changed in place (copied first when a snapshot may share it). */
  private owned(id: string): Upload {
    return this.uploads.update(id, copyUpload)!;
  }

  private checkKey(action: R2Action, key: string): void {
    if (key.length > MAX_KEY_BYTES / 3 && utf8Length(key) > MAX_KEY_BYTES) throw r2Error(action, 'invalidObjectName');
  }

  private checkMetadata(action: R2Action, metadata: ObjectMetadata): void {
    if (customMetadataSize(metadata.custom) > CUSTOM_METADATA_LIMIT) throw r2Error(action, 'metadataTooLarge');
  }

  head(key: string): StoredObject | undefined {
    this.checkKey('head', key);
    return this.objects.get(sortForm(key));
  }

  get(key: string, cond: Conditional | undefined, range: RangeRequest | undefined, ssecKeyMd5?: string): GetOutcome {
    this.checkKey('get', key);
    const object = this.objects.get(sortForm(key));
    if (!object) return { kind: 'missing' };
    // An object written with a customer key is readable with that key only.
    if (object.ssecKeyMd5 !== undefined && object.ssecKeyMd5 !== ssecKeyMd5) throw r2Error('get', 'ssecKeyMismatch');
    if (cond && !conditionHolds(cond, object)) return { kind: 'precondition-failed', object };
    const resolved = resolveRange(range, object.size);
    if (!resolved) throw r2Error('get', 'invalidRange');
    if (!readsEmptyWindow(range, resolved, object.multipart)) throw r2Error('get', 'unspecified');
    return { kind: 'found', object, range: resolved };
  }

  /** Returns the stored object, or null when the condition failed (nothing stored then). */
  put(
    key: string,
    body: Body,
    metadata: ObjectMetadata,
    checksum: RequestedChecksum | undefined,
    cond: Conditional | undefined,
  ): StoredObject | null {
    // R2 hashes the whole body before it checks anything. Here only a checksum the caller asked
    // for is computed now; the md5, unless it came with the body, waits until something needs it
    // (see stored.ts).
    const { chunks, size } = body;
    const actual = checksum && digestHex(checksum.alg, chunks);

    this.checkKey('put', key);
    if (size > MAX_OBJECT_SIZE) throw r2Error('put', 'entityTooLarge');
    this.checkMetadata('put', metadata);
    if (checksum && actual !== checksum.expected) throw checksumMismatch(checksum.alg, checksum.expected, actual!);
    const sk = sortForm(key);
    if (cond && !this.#writeConditionHolds(sk, cond)) return null;
    const verified = checksum && { alg: checksum.alg, hex: actual! };
    const md5 = checksum?.alg === 'md5' ? actual : body.md5;
    const object = new StoredObject(key, randomHex(16), size, this.clock(), metadata, chunks, { md5, verified });
    this.objects.set(sk, object);
    return object;
  }

  /**
   * Whether a write under `cond` may go ahead on what is at the key now: R2's rules on an object,
   * and on none only conditions an absent object can meet. Every conditional write (a put, and R2's
   * conditional multipart create and complete, which the layer checks for the S3 view) asks here.
   */
  writeConditionHolds(action: R2Action, key: string, cond: Conditional): boolean {
    this.checkKey(action, key);
    return this.#writeConditionHolds(sortForm(key), cond);
  }

  #writeConditionHolds(sortKey: string, cond: Conditional): boolean {
    const existing = this.objects.get(sortKey);
    return existing ? conditionHolds(cond, existing) : conditionHoldsWhenAbsent(cond);
  }

  delete(keys: readonly string[]): void {
    for (const k of keys) this.checkKey('delete', k); // all or nothing
    for (const k of keys) this.objects.delete(sortForm(k));
  }

  /**
   * One page, walking the index from the start position: O(log n + page). A delimiter group counts
   * as one entry and is skipped with one seek, so a page never repeats a group.
   */
  list(q: ListQuery): ListPage {
    const prefix = sortForm(q.prefix);
    const delimiter = q.delimiter ? sortForm(q.delimiter) : undefined;
    // The later of startAfter and the cursor wins; both are exclusive (so startAfter '' skips '').
    // R2 picks the later one with a JS string comparison (UTF-16 units), which is not key order when
    // one of them has a character above U+FFFF: '😀' counts as before '\uFFFD' there.
    // Any string is a cursor: one this bucket never issued positions the scan all the same.
    let afterKey = q.startAfter;
    const fromCursor = q.cursor !== undefined ? decodeCursor(q.cursor) : undefined;
    if (fromCursor !== undefined && (afterKey === undefined || fromCursor > afterKey)) afterKey = fromCursor;
    const after = afterKey !== undefined ? sortForm(afterKey) : undefined;
    let low = prefix;
    let exclusive: string | undefined;
    if (after !== undefined && after >= low) {
      low = after;
      exclusive = after;
    }
    if (q.afterGroup !== undefined) {
      const beyond = afterPrefix(sortForm(q.afterGroup));
      if (beyond === undefined) return { objects: [], delimitedPrefixes: [] };
      if (beyond > low) {
        low = beyond;
        exclusive = undefined;
      }
    }

    const objects: StoredObject[] = [];
    const delimitedPrefixes: string[] = [];
    let last: StoredObject | undefined;
    let iter = this.objects.entriesFrom(low);
    for (;;) {
      const next = iter.next();
      if (next.done) return { objects, delimitedPrefixes };
      const [sk, object] = next.value;
      if (sk === exclusive) continue;
      if (!sk.startsWith(prefix)) return { objects, delimitedPrefixes };
      if (objects.length + delimitedPrefixes.length === q.limit) {
        return { objects, delimitedPrefixes, cursor: encodeCursor(last!.key) };
      }
      const at = delimiter ? sk.indexOf(delimiter, prefix.length) : -1;
      if (at < 0) {
        objects.push(object);
        last = object;
        continue;
      }
      // A group: report it once, and continue after its last key.
      const group = sk.slice(0, at + delimiter!.length);
      delimitedPrefixes.push(object.key.slice(0, group.length));
      const beyond = afterPrefix(group);
      last = this.objects.lastBefore(beyond)![1];
      if (beyond === undefined) return { objects, delimitedPrefixes };
      iter = this.objects.entriesFrom(beyond);
      exclusive = undefined;
    }
  }

  // ---- for the layer's bucket configuration (locks, lifecycle: layer.ts) -----------------------

  /** The object at `key`, without the key checks of an operation (a key too long holds none). */
  storedAt(key: string): StoredObject | undefined {
    return this.objects.get(sortForm(key));
  }

  /**
   * Walks the objects under `prefix` in key order, once, removing each one `act` returns REMOVE for
   * and replacing each one it returns another object for (a lifecycle pass: layer.ts). One walk over
   * the index's leaves instead of a look-up per key: a pass over 100,000 objects costs less than
   * listing them (bench/lifecycle.ts). `act` must not change the bucket.
   */
  sweep(prefix: string, act: (object: StoredObject) => StoredObject | typeof REMOVE | undefined): void {
    const low = sortForm(prefix);
    this.objects.editRange(low, afterPrefix(low), (_sk, object) => act(object));
  }

  /**
   * `sweep` for the one object at `key` (a lifecycle action that fell due: layer.ts): removes it
   * when `act` returns REMOVE, replaces it when `act` returns another object.
   */
  settle(key: string, act: (object: StoredObject) => StoredObject | typeof REMOVE | undefined): void {
    const sk = sortForm(key);
    this.objects.editRange(sk, `${sk}\0`, (_sk, object) => act(object));
  }

  // ---- multipart -------------------------------------------------------------------------------

  createUpload(key: string, metadata: ObjectMetadata): string {
    this.checkKey('createMultipartUpload', key);
    this.checkMetadata('createMultipartUpload', metadata); // the limit a completed object will hold
    const id = randomBase64Url(128); // the shape of the ids R2 hands out
    this.uploads.set(id, { key, created: this.clock(), state: 'active', parts: new Map(), metadata });
    return id;
  }

  /** The upload as R2 sees it now: one its lifecycle rules abort by now has been aborted (lazily: no timers). */
  private upload(key: string, id: string): Upload | undefined {
    let u = this.uploads.get(id);
    if (!u || u.key !== key) return undefined;
    if (u.state === 'active' && this.clock() >= this.abortAt(u.key, u.created)) {
      u = this.owned(id);
      u.state = 'aborted';
      u.parts.clear();
    }
    return u;
  }

  uploadPart(key: string, id: string, partNumber: number, body: Body): string {
    this.checkKey('uploadPart', key);
    const u = this.upload(key, id);
    if (!u || u.state !== 'active') throw r2Error('uploadPart', 'noSuchUpload');
    const etag = body.md5 ?? digestHex('md5', body.chunks); // production's part etag: the md5 hex of the part
    this.owned(id).parts.set(partNumber, { etag, size: body.size, chunks: body.chunks, uploaded: this.clock() });
    return etag;
  }

  completeUpload(key: string, id: string, refs: readonly UploadedPartRef[]): StoredObject {
    const action = 'completeMultipartUpload';
    this.checkKey(action, key);
    const u = this.upload(key, id);
    if (!u) throw r2Error(action, 'internal');
    if (u.state !== 'active') throw r2Error(action, 'noSuchUpload');
    const seen = new Set<number>();
    for (const r of refs) {
      if (seen.has(r.partNumber)) throw r2Error(action, 'internal');
      seen.add(r.partNumber);
    }
    const listed = refs.map((r) => {
      const part = u.parts.get(r.partNumber);
      if (!part || part.etag !== r.etag) throw r2Error(action, 'invalidPart');
      return { partNumber: r.partNumber, part };
    });
    // In the order given, every part but the last given must reach the minimum size...
    for (let i = 0; i < listed.length - 1; i++) {
      if (listed[i]!.part.size < MIN_PART_SIZE) throw r2Error(action, 'entityTooSmall');
    }
    // ...and in part-number order, all but the last are one size, and the last no larger.
    const sorted = [...listed].sort((a, b) => a.partNumber - b.partNumber);
    if (sorted.length > 1) {
      const size = sorted[0]!.part.size;
      for (let i = 0; i < sorted.length - 1; i++) {
        if (sorted[i]!.part.size !== size) throw r2Error(action, 'invalidPartSizes');
      }
      if (sorted[sorted.length - 1]!.part.size > size) throw r2Error(action, 'invalidPartSizes');
    }

    const chunks = sorted.flatMap((p) => p.part.chunks); // linked, not copied
    const size = sorted.reduce((n, p) => n + p.part.size, 0);
    // R2's multipart etag: the md5 of the parts' binary md5s, then the part count.
    const md5s = concat(
      sorted.map((p) => fromHex(p.part.etag)!),
      sorted.length * 16,
    );
    const etag = `${digestHex('md5', md5s)}-${sorted.length}`;
    const parts = { count: sorted.length, size: sorted[0]?.part.size ?? 0 };
    const object = new StoredObject(key, randomHex(16), size, this.clock(), u.metadata, chunks, {
      multipart: true,
      etag,
      parts,
    });
    linkedParts.set(
      object,
      sorted.map((p) => p.part),
    );
    const done = this.owned(id);
    done.state = 'completed';
    done.parts.clear();
    this.objects.set(sortForm(key), object);
    return object;
  }

  abortUpload(key: string, id: string): void {
    this.checkKey('abortMultipartUpload', key);
    const u = this.upload(key, id);
    if (!u) throw r2Error('abortMultipartUpload', 'internal');
    if (u.state === 'active') {
      const aborted = this.owned(id);
      aborted.state = 'aborted';
      aborted.parts.clear();
    }
  }

  // ---- for the S3 view (lib/s3): reads the binding does not offer -----------------------------

  /** Where an upload stands: 'unknown' (never made, or made for another key), else its state. */
  uploadState(key: string, id: string): 'unknown' | 'active' | 'completed' | 'aborted' {
    return this.upload(key, id)?.state ?? 'unknown';
  }

  /** The active uploads (ListMultipartUploads), by key in the index's order, then by initiation. */
  activeUploads(): UploadView[] {
    const out: (UploadView & { sk: string })[] = [];
    for (const uploadId of this.uploads.keys()) {
      const u = this.uploads.get(uploadId)!;
      if (this.upload(u.key, uploadId)?.state !== 'active') continue;
      out.push({ key: u.key, uploadId, initiated: u.created, metadata: u.metadata, sk: sortForm(u.key) });
    }
    out.sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : a.initiated - b.initiated));
    return out.map(({ sk: _, ...view }) => view);
  }

  /** An active upload's metadata and parts by part number (ListParts); undefined if not active. */
  activeUpload(
    key: string,
    id: string,
  ): { metadata: ObjectMetadata; initiated: number; parts: PartView[] } | undefined {
    const u = this.upload(key, id);
    if (!u || u.state !== 'active') return undefined;
    const parts = [...u.parts].map(([partNumber, p]) => ({
      partNumber,
      etag: p.etag,
      size: p.size,
      uploaded: p.uploaded ?? u.created,
    }));
    parts.sort((a, b) => a.partNumber - b.partNumber);
    return { metadata: u.metadata, initiated: u.created, parts };
  }
}
