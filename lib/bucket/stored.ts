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
  | { readonly multipart?: false; readonly md5?: string; readonly verified?: { readonly alg: HashAlgorithm; readonly hex: string } }
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

export class StoredObject implements ObjectMetadata {
  readonly http: HttpFields;
  readonly custom: CustomFields;
  readonly storageClass: string;
  readonly ssecKeyMd5: string | undefined;
  /** Lowercase hex; undefined until first needed (single-part objects only). */
  #etag: string | undefined;
  readonly #verified: { readonly alg: HashAlgorithm; readonly hex: string } | undefined;
  readonly #multipart: boolean;
  /** A multipart object's part boundaries; undefined for single-part objects (and records that predate them). */
  readonly parts: PartLayout | undefined;

  constructor(
    /** The key as the caller wrote it (its identity). */
    readonly key: string,
    readonly version: string,
    readonly size: number,
    readonly uploaded: number,
    metadata: ObjectMetadata,
    /** The bytes, as the chunks they arrived in (multipart objects share their parts' chunks). */
    readonly chunks: readonly Uint8Array[],
    digests: Digests,
  ) {
    this.http = metadata.http;
    this.custom = metadata.custom;
    this.storageClass = metadata.storageClass;
    this.ssecKeyMd5 = metadata.ssecKeyMd5;
    if (digests.multipart) {
      this.#etag = digests.etag;
      this.#multipart = true;
      this.#verified = undefined;
      this.parts = digests.parts;
    } else {
      this.#etag = digests.md5;
      this.#multipart = false;
      this.#verified = digests.verified;
      this.parts = undefined;
    }
  }

  /** Completed from parts (a multipart upload), rather than written by one put. */
  get multipart(): boolean {
    return this.#multipart;
  }

  /** Lowercase hex, unquoted. */
  get etag(): string {
    return (this.#etag ??= digestHex('md5', this.chunks));
  }

  /** Whether reading `etag` is free (results then carry it as a plain value). */
  get etagKnown(): boolean {
    return this.#etag !== undefined;
  }

  /** md5 for single-part objects, plus the checksum the writer had verified, if any. */
  get checksums(): StoredChecksums {
    if (this.#multipart) return {};
    const out: Partial<Record<HashAlgorithm, string>> = { md5: this.etag };
    if (this.#verified) out[this.#verified.alg] = this.#verified.hex;
    return out;
  }

  /**
   * The same object (bytes, etag, version, upload time) in another storage class: what a lifecycle
   * transition leaves (lib/bucket/lifecycle.ts). A new value, as values are never changed in place.
   */
  withStorageClass(storageClass: string): StoredObject {
    const digests: Digests = this.#multipart ? { multipart: true, etag: this.#etag!, parts: this.parts } : { md5: this.#etag, verified: this.#verified };
    const metadata: ObjectMetadata = { http: this.http, custom: this.custom, storageClass, ...(this.ssecKeyMd5 !== undefined ? { ssecKeyMd5: this.ssecKeyMd5 } : {}) };
    return new StoredObject(this.key, this.version, this.size, this.uploaded, metadata, this.chunks, digests);
  }
}
