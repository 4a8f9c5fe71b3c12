/**
 * A bucket's state as records, for the storages that keep it outside memory (indexeddb-storage.ts,
 * store-storage.ts): one record per object and per multipart upload (metadata, no bytes), the bytes
 * in chunk records of at most CHUNK_BYTES, grouped in segments (one written body: a put, a part;
 * a completed upload's object links its parts' segments, never copies them). And the maps the model
 * writes through, which note the keys an operation touched, so the storage writes only those.
 */
import { KeyIndex } from './key-index.js';
import { linkedParts, type Part, type Upload } from './model.js';
import type { CustomFields, HttpFields } from './metadata.js';
import { SnapshotMap } from '../persistent-map.js';
import { StoredObject, type Digests, type ObjectMetadata, type PartLayout } from './stored.js';
import type { HashAlgorithm } from '../hash.js';
import { randomHex } from '../random.js';

/** Bytes per chunk record: large bodies are many records, read back one at a time. */
const CHUNK_BYTES = 256 * 1024;

export interface Segment {
  readonly id: string;
  readonly size: number;
  /** Kept with its object's record rather than in chunk records (a small body: StoreStorage). */
  readonly inline?: true;
}

export interface ObjectRecord {
  readonly key: string;
  readonly version: string;
  readonly size: number;
  readonly uploaded: number;
  readonly http: HttpFields;
  readonly custom: CustomFields;
  readonly storageClass: string;
  readonly ssecKeyMd5?: string;
  /** The md5 hex of a single-part object, or a multipart etag. */
  readonly etag: string;
  readonly multipart: boolean;
  /** A multipart object's part boundaries (absent from records written before they were kept). */
  readonly parts?: PartLayout;
  /** A checksum the writer had verified besides the md5 (single-part objects). */
  readonly verified?: { readonly alg: HashAlgorithm; readonly hex: string };
  readonly segments: readonly Segment[];
}

interface PartRecord {
  readonly partNumber: number;
  readonly etag: string;
  readonly size: number;
  readonly segments: readonly Segment[];
}

export interface UploadRecord {
  readonly key: string;
  readonly created: number;
  readonly state: Upload['state'];
  readonly metadata: ObjectMetadata;
  readonly parts: readonly PartRecord[];
}

/** The keys a map was asked to write while `touched` was set. */
export interface Journal {
  touched: Set<string> | undefined;
}

/**
 * A map that notes the keys it is asked to write while `touched` is set (a persistent operation):
 * the records the operation's transaction then writes. A mixin, so the object index and the
 * uploads map keep their own classes.
 */
function journaled<M extends SnapshotMap<unknown>>(Base: new () => M): new () => M & Journal {
  class Journaled extends (Base as new () => SnapshotMap<unknown>) implements Journal {
    touched: Set<string> | undefined;
    override set(key: string, value: unknown): void {
      this.touched?.add(key);
      super.set(key, value);
    }
    override delete(key: string): boolean {
      this.touched?.add(key);
      return super.delete(key);
    }
    override update(key: string, copy: (shared: unknown) => unknown): unknown {
      this.touched?.add(key);
      return super.update(key, copy);
    }
    override editRange(low: string, high: string | undefined, visit: (key: string, value: unknown) => unknown): void {
      const touched = this.touched;
      if (!touched) return super.editRange(low, high, visit);
      super.editRange(low, high, (key, value) => {
        const next = visit(key, value);
        if (next !== undefined) touched.add(key);
        return next;
      });
    }
  }
  return Journaled as unknown as new () => M & Journal;
}

export const JournaledIndex = journaled(KeyIndex<StoredObject>);
export const JournaledMap = journaled(SnapshotMap<Upload>);

/** Cuts a body into CHUNK_BYTES records (each its own buffer: slabs are shared), handing each to `put`. */
export function chunked(body: readonly Uint8Array[], size: number, put: (index: number, bytes: Uint8Array) => void) {
  let index = 0;
  let left = size;
  let record = new Uint8Array(Math.min(CHUNK_BYTES, left));
  let filled = 0;
  for (const c of body) {
    for (let at = 0; at < c.byteLength;) {
      const n = Math.min(record.byteLength - filled, c.byteLength - at);
      record.set(c.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === record.byteLength) {
        put(index++, record);
        left -= filled;
        record = new Uint8Array(Math.min(CHUNK_BYTES, left));
        filled = 0;
      }
    }
  }
}

/** How many chunk records a segment has. */
export const chunksOf = (s: Segment): number => Math.ceil(s.size / CHUNK_BYTES);

/** The chunk records covering [offset, offset + length) of a body, and which bytes of each. */
export interface Piece {
  readonly id: string;
  readonly index: number;
  readonly from: number;
  readonly to: number;
  readonly inline?: true;
}

export function piecesOf(segments: readonly Segment[], offset: number, length: number): Piece[] {
  const out: Piece[] = [];
  const end = offset + length;
  let base = 0;
  for (const s of segments) {
    const first = Math.max(offset, base);
    const last = Math.min(end, base + s.size);
    for (let at = first; at < last;) {
      const index = Math.floor((at - base) / CHUNK_BYTES);
      const chunkStart = base + index * CHUNK_BYTES;
      const to = Math.min(last, chunkStart + CHUNK_BYTES);
      const from = at - chunkStart;
      const until = to - chunkStart;
      out.push(s.inline ? { id: s.id, index, from, to: until, inline: true } : { id: s.id, index, from, to: until });
      at = to;
    }
    base += s.size;
  }
  return out;
}

/** A chunk's bytes cut to its piece; a chunk that is gone is the error `missing` makes. */
export function cut(p: Piece, chunk: Uint8Array | undefined, missing: () => Error): Uint8Array {
  if (!chunk) throw missing();
  return p.from === 0 && p.to === chunk.byteLength ? chunk : chunk.slice(p.from, p.to);
}

const NO_CHUNKS: readonly Uint8Array[] = Object.freeze([]);

/**
 * The stored form of what the model holds, both ways: the record each object and part came from
 * or was written as (kept beside it, so a write never stores an object's bytes twice), and the
 * model's objects made back from records (metadata only: their bytes stay in the chunks).
 */
export class RecordForms {
  readonly #records = new WeakMap<StoredObject, ObjectRecord>();
  readonly #partSegments = new WeakMap<Part, readonly Segment[]>();

  /**
   * `writeBody` stores a new body as one segment of chunk records, under the id given; `inline`,
   * when given, may take a new object's body instead (true: the storage writes it with the object's
   * record, and its segment is marked so). Parts' bodies are always chunks.
   */
  constructor(
    private readonly writeBody: (id: string, body: readonly Uint8Array[], size: number) => void,
    private readonly inline?: (body: readonly Uint8Array[], size: number) => boolean,
  ) {}

  objectOf(rec: ObjectRecord): StoredObject {
    const metadata: ObjectMetadata = {
      http: rec.http,
      custom: rec.custom,
      storageClass: rec.storageClass,
      ssecKeyMd5: rec.ssecKeyMd5,
    };
    const digests: Digests = rec.multipart
      ? { multipart: true, etag: rec.etag, parts: rec.parts }
      : { md5: rec.etag, verified: rec.verified };
    const object = new StoredObject(rec.key, rec.version, rec.size, rec.uploaded, metadata, NO_CHUNKS, digests);
    this.#records.set(object, rec);
    return object;
  }

  uploadOf(rec: UploadRecord): Upload {
    const parts = new Map<number, Part>();
    for (const p of rec.parts) parts.set(p.partNumber, this.partOf(p.etag, p.size, p.segments));
    return { key: rec.key, created: rec.created, state: rec.state, metadata: rec.metadata, parts };
  }

  partOf(etag: string, size: number, segments: readonly Segment[]): Part {
    const part: Part = { etag, size, chunks: NO_CHUNKS };
    this.#partSegments.set(part, segments);
    return part;
  }

  /** Whether `o` is already in its stored form. */
  stored(o: StoredObject): boolean {
    return this.#records.has(o);
  }

  /** Whether `p` is already in its stored form. */
  storedPart(p: Part): boolean {
    return this.#partSegments.has(p);
  }

  /**
   * An object's record: known when it came from the store; the record of the object it replaces
   * with a new storage class when it has that object's version (a lifecycle transition keeps the
   * bytes, and a version is never given to other bytes: only the record is rewritten, its segments
   * kept); else made now (its bytes written).
   */
  objectRecord(o: StoredObject, replaced?: StoredObject): ObjectRecord {
    const known = this.#records.get(o);
    if (known) return known;
    const same = replaced?.version === o.version ? this.#records.get(replaced) : undefined;
    if (same) return { ...same, storageClass: o.storageClass };
    const parts = linkedParts.get(o);
    const segments = parts
      ? parts.flatMap((p) => this.#partRecord(p).segments)
      : o.size > 0 && this.inline?.(o.chunks, o.size)
        ? [{ id: o.version, size: o.size, inline: true as const }]
        : this.#body(o.version, o.chunks, o.size);
    const checksums = o.checksums as Partial<Record<HashAlgorithm, string>>;
    const alg = (Object.keys(checksums) as HashAlgorithm[]).find((a) => a !== 'md5');
    return {
      key: o.key,
      version: o.version,
      size: o.size,
      uploaded: o.uploaded,
      http: o.http,
      custom: o.custom,
      storageClass: o.storageClass,
      ...(o.ssecKeyMd5 !== undefined && { ssecKeyMd5: o.ssecKeyMd5 }),
      etag: o.etag,
      multipart: parts !== undefined,
      ...(o.parts !== undefined && { parts: o.parts }),
      ...(alg !== undefined && { verified: { alg, hex: checksums[alg]! } }),
      segments,
    };
  }

  uploadRecord(u: Upload): UploadRecord {
    const parts = [...u.parts].map(([n, p]) => this.#partRecord(p, n));
    return { key: u.key, created: u.created, state: u.state, metadata: u.metadata, parts };
  }

  #partRecord(p: Part, partNumber = 0): PartRecord {
    const segments = this.#partSegments.get(p) ?? this.#body(randomHex(16), p.chunks, p.size);
    return { partNumber, etag: p.etag, size: p.size, segments };
  }

  #body(id: string, body: readonly Uint8Array[], size: number): Segment[] {
    if (size === 0) return [];
    this.writeBody(id, body, size);
    return [{ id, size }];
  }

  segmentsOfObject(o: StoredObject): readonly Segment[] {
    return this.#records.get(o)?.segments ?? [];
  }

  segmentsOfPart(p: Part): readonly Segment[] {
    return this.#partSegments.get(p) ?? [];
  }

  /** Every segment the state refers to. */
  allSegments(
    objects: Iterable<readonly [string, StoredObject]>,
    uploads: Iterable<readonly [string, Upload]>,
  ): Map<string, Segment> {
    const all = new Map<string, Segment>();
    for (const [, o] of objects) for (const s of this.segmentsOfObject(o)) all.set(s.id, s);
    for (const [, u] of uploads)
      for (const p of u.parts.values()) for (const s of this.segmentsOfPart(p)) all.set(s.id, s);
    return all;
  }
}

export function* iterate<T>(it: Iterator<T>): IterableIterator<T> {
  for (let n = it.next(); !n.done; n = it.next()) yield n.value;
}
