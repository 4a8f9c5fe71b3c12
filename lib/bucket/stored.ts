/**
 * An object as the bucket keeps it: its bytes (as chunks we own), its metadata, and its digests.
 *
 * The md5 of a single-part object (its etag and `checksums.md5`) is computed the first time anything
 * needs it (an etag read, an etag condition, `checksums`), then kept. Hashing was the largest part
 * of a small put, and most objects a test writes never have their etag looked at. The bytes are ours
 * and never change, so the digest is the one a put-time hash would have given; only its cost moves.
 * (A buffer over 1 MiB comes with its md5: it is hashed as it is copied, see values.ts.)
 */
import { digestHex, type HashAlgorithm } from '../hash.js';
import type { StoredChecksums } from './checksums.js';
import type { CustomFields, HttpFields } from './metadata.js';

/** What a put or an upload carries besides its bytes. */
export interface ObjectMetadata {
  readonly http: HttpFields;
  readonly custom: CustomFields;
  readonly storageClass: string;
  readonly ssecKeyMd5?: string;
}

/** How an object's digests come about. */
export type Digests =
  /** Written whole: the etag is the md5 of the bytes (`md5` when already known), plus any checksum the writer had verified. */
  | {
      readonly multipart?: false;
      readonly md5?: string;
      readonly verified?: { readonly alg: HashAlgorithm; readonly hex: string };
    }
  /** Completed from parts: the etag is derived from the parts', and no checksum is kept. */
  | { readonly multipart: true; readonly etag: string; readonly parts?: PartLayout };

/**
 * Where a multipart object's parts lie: R2 makes every part but the last one size, and the last no
 * larger (model.ts, completeUpload), so a count and that size place every part. The S3 view serves
 * `GET ?partNumber=` from it.
 */
export interface PartLayout {
  readonly count: number;
  /** The size of every part but the last. */
  readonly size: number;
}

/**
 * All of an object but its key and storage class: what a lifecycle transition leaves as it was, so
 * the object before and after share one (bench/lifecycle.ts moves 100,000 objects in a pass, and a
 * full copy of each cost as much as listing them). The md5, computed when first needed, is then
 * known to both.
 */
class ObjectCore {
  readonly http: HttpFields;
  readonly custom: CustomFields;
  readonly ssecKeyMd5: string | undefined;
  /** Lowercase hex; undefined until first needed (single-part objects only). */
  etag: string | undefined;
  readonly verified: { readonly alg: HashAlgorithm; readonly hex: string } | undefined;
  readonly multipart: boolean;
  readonly parts: PartLayout | undefined;

  constructor(
    readonly version: string,
    readonly size: number,
    readonly uploaded: number,
    metadata: ObjectMetadata,
    readonly chunks: readonly Uint8Array[],
    digests: Digests,
  ) {
    this.http = metadata.http;
    this.custom = metadata.custom;
    this.ssecKeyMd5 = metadata.ssecKeyMd5;
    if (digests.multipart) {
      this.etag = digests.etag;
      this.multipart = true;
      this.verified = undefined;
      this.parts = digests.parts;
    } else {
      this.etag = digests.md5;
      this.multipart = false;
      this.verified = digests.verified;
      this.parts = undefined;
    }
  }
}

export class StoredObject implements ObjectMetadata {
  /** The key as the caller wrote it (its identity). */
  readonly key: string;
  readonly storageClass: string;
  readonly #core: ObjectCore;

  constructor(
    key: string,
    version: string,
    size: number,
    uploaded: number,
    metadata: ObjectMetadata,
    /** The bytes, as the chunks they arrived in (multipart objects share their parts' chunks). */
    chunks: readonly Uint8Array[],
    digests: Digests,
  );
  /** @internal The same object in another storage class (`withStorageClass`). */
  constructor(key: string, storageClass: string, core: ObjectCore);
  constructor(
    key: string,
    a: string,
    b: number | ObjectCore,
    uploaded?: number,
    metadata?: ObjectMetadata,
    chunks?: readonly Uint8Array[],
    digests?: Digests,
  ) {
    this.key = key;
    if (b instanceof ObjectCore) {
      this.storageClass = a;
      this.#core = b;
    } else {
      this.storageClass = metadata!.storageClass;
      this.#core = new ObjectCore(a, b, uploaded!, metadata!, chunks!, digests!);
    }
  }

  get version(): string {
    return this.#core.version;
  }

  get size(): number {
    return this.#core.size;
  }

  get uploaded(): number {
    return this.#core.uploaded;
  }

  get http(): HttpFields {
    return this.#core.http;
  }

  get custom(): CustomFields {
    return this.#core.custom;
  }

  get ssecKeyMd5(): string | undefined {
    return this.#core.ssecKeyMd5;
  }

  /** The bytes, as the chunks they arrived in (multipart objects share their parts' chunks). */
  get chunks(): readonly Uint8Array[] {
    return this.#core.chunks;
  }

  /** A multipart object's part boundaries; undefined for single-part objects (and records that predate them). */
  get parts(): PartLayout | undefined {
    return this.#core.parts;
  }

  /** Completed from parts (a multipart upload), rather than written by one put. */
  get multipart(): boolean {
    return this.#core.multipart;
  }

  /** Lowercase hex, unquoted. */
  get etag(): string {
    const core = this.#core;
    return (core.etag ??= digestHex('md5', core.chunks));
  }

  /** Whether reading `etag` is free (results then carry it as a plain value). */
  get etagKnown(): boolean {
    return this.#core.etag !== undefined;
  }

  /** md5 for single-part objects, plus the checksum the writer had verified, if any. */
  get checksums(): StoredChecksums {
    const core = this.#core;
    if (core.multipart) return {};
    const out: Partial<Record<HashAlgorithm, string>> = { md5: this.etag };
    if (core.verified) out[core.verified.alg] = core.verified.hex;
    return out;
  }

  /**
   * The same object (bytes, etag, version, upload time) in another storage class: what a lifecycle
   * transition leaves (lib/bucket/lifecycle.ts). A new value, as values are never changed in place;
   * everything but the class is shared with this one, unchecked (it was checked when written).
   */
  withStorageClass(storageClass: string): StoredObject {
    return new StoredObject(this.key, storageClass, this.#core);
  }
}
