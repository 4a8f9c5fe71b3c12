/**
 * The R2 binding's public types, written out so the package needs no @cloudflare/workers-types at
 * run time. They mirror workers-types (spec/types proves `Bucket` is assignable to its `R2Bucket`).
 *
 * Headers, Blob and ReadableStream arguments are typed structurally (HeadersLike, BlobLike,
 * ReadableStreamLike), not as the globals. A Worker project that imports workers-types as a module
 * beside the DOM lib has two of each, one declared by the module and one by the DOM, and under its
 * libs neither is assignable to the other, so `Bucket` would not be assignable to the module's
 * `R2Bucket`; both are assignable to these. Results keep the global types, with what workerd's have
 * beyond a DOM lib's (R2Stream, R2BodyBlob).
 */

/**
 * A Headers argument: the members every Headers type has. The double reads an argument as headers
 * only when it is the runtime's Headers (an instanceof test), as workerd does.
 */
export interface HeadersLike {
  /** The first value of a header, or null. */
  get(name: string): string | null;
  /** Whether the header is present. */
  has(name: string): boolean;
  /** Sets a header, replacing its values. */
  set(name: string, value: string): void;
  /** Adds a value to a header. */
  append(name: string, value: string): void;
  /** Removes a header. */
  delete(name: string): void;
}

/** A ReadableStream argument: the members every ReadableStream type has (a runtime's stream is required). */
export interface ReadableStreamLike {
  readonly locked: boolean;
  /** Cancels the stream. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the platform's own signature (lib.dom's ReadableStream cancel/abort take `reason?: any`)
  cancel(reason?: any): Promise<void>;
  /** Locks the stream to a reader. */
  getReader(): {
    /** The next chunk, or `done`. */
    read(): Promise<{ done: boolean; value?: unknown }>;
    /** Unlocks the stream. */
    releaseLock(): void;
  };
}

/** A Blob argument: the members every Blob type has (a runtime's Blob is required). */
export interface BlobLike {
  readonly size: number;
  readonly type: string;
  /** A Blob of a range of these bytes. */
  slice(start?: number, end?: number, contentType?: string): BlobLike;
  /** The bytes. */
  arrayBuffer(): Promise<ArrayBuffer>;
  /** The bytes decoded as UTF-8. */
  text(): Promise<string>;
  /** The bytes as a stream. */
  stream(): ReadableStreamLike;
}

/** Options of `values()` and `for await` on a stream. */
export interface R2StreamIteratorOptions {
  preventCancel?: boolean;
}

/** Options of `pipeTo` and `pipeThrough`. */
export interface R2StreamPipeOptions {
  preventClose?: boolean;
  preventAbort?: boolean;
  preventCancel?: boolean;
  signal?: { readonly aborted: boolean };
}

/** A WritableStream argument: the members every WritableStream type has. */
export interface WritableStreamLike {
  readonly locked: boolean;
  /** Aborts the stream. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the platform's own signature (lib.dom's ReadableStream cancel/abort take `reason?: any`)
  abort(reason?: any): Promise<void>;
  /** Closes the stream. */
  close(): Promise<void>;
}

/** A read's outcome as workers-types types it. */
export type R2ReadResult<T> = { done: false; value: T } | { done: true; value?: undefined };

/** A stream's default reader, as workers-types types it. */
export interface R2StreamReader<T> {
  readonly closed: Promise<void>;
  /** Cancels the stream and releases the reader. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the platform's own signature (lib.dom's ReadableStream cancel/abort take `reason?: any`)
  cancel(reason?: any): Promise<void>;
  /** The next chunk, or `done`. */
  read(): Promise<R2ReadResult<T>>;
  /** Unlocks the stream. */
  releaseLock(): void;
}

/** A byte stream's BYOB reader, as workers-types types it. */
export interface R2StreamByobReader {
  readonly closed: Promise<void>;
  /** Cancels the stream and releases the reader. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the platform's own signature (lib.dom's ReadableStream cancel/abort take `reason?: any`)
  cancel(reason?: any): Promise<void>;
  /** Reads into `view`; resolves with the filled part of it, or `done`. */
  read<V extends ArrayBufferView>(view: V): Promise<R2ReadResult<V>>;
  /** workerd's own; a BYOB reader of another runtime has no such method. */
  readAtLeast<V extends ArrayBufferView>(minElements: number, view: V): Promise<R2ReadResult<V>>;
  /** Unlocks the stream. */
  releaseLock(): void;
}

/**
 * The runtime's ReadableStream, with the signatures workers-types gives a stream where a DOM lib's
 * ReadableStream has others. A call resolves to the runtime's own signatures first; the ones below
 * make the stream assignable to the module workers-types' ReadableStream, which a DOM ReadableStream
 * is not (its readers' results, `tee`, `pipeThrough`, the AbortSignal of `pipeTo`, and async
 * iteration without DOM.AsyncIterable all differ), and keep workers-types' own stream assignable to
 * this one. The double's bodies are async iterable wherever the runtime's streams are (workerd, Node,
 * the ponyfill); `readAtLeast` exists on workerd's BYOB readers only.
 */
export type R2Stream<T> = ReadableStream<T> & {
  /** Locks the stream to a default reader. */
  getReader(): R2StreamReader<T>;
  /** Locks the stream to a BYOB reader (bodies are byte streams). */
  getReader(options: { mode: 'byob' }): R2StreamByobReader;
  /** Two streams of the same chunks. */
  tee(): [R2Stream<T>, R2Stream<T>];
  // `readable` by its async iteration: of a stream's members carrying its chunk type, the one with a
  // single signature, so U is inferred when assigning this to workers-types' stream or back
  // (getReader has two, and inference reads the last, the BYOB one, which carries no chunk type).
  /** Pipes the stream through a transform and returns its readable side. */
  pipeThrough<U>(
    transform: { readable: AsyncIterable<U>; writable: WritableStreamLike },
    options?: R2StreamPipeOptions,
  ): R2Stream<U>;
  /** Pipes the stream into a writable stream. */
  pipeTo(destination: WritableStreamLike, options?: R2StreamPipeOptions): Promise<void>;
  /** Iterates over the chunks. */
  values(options?: R2StreamIteratorOptions): AsyncIterableIterator<T>;
  /** Iterates over the chunks (`for await`). */
  [Symbol.asyncIterator](options?: R2StreamIteratorOptions): AsyncIterableIterator<T>;
};

/** A result's body: a stream of bytes. */
export type R2BodyStream = R2Stream<Uint8Array>;

/**
 * What `blob()` gives: the runtime's Blob, whose `stream()` (and that of its slices) is typed as a
 * body's, for the same reason as R2Stream.
 */
export type R2BodyBlob = Blob & {
  /** The bytes as a byte stream. */
  stream(): R2BodyStream;
  /** A Blob of a range of these bytes. */
  slice(start?: number, end?: number, contentType?: string): R2BodyBlob;
};

/** An object's HTTP metadata: the headers R2 stores with it and `writeHttpMetadata` writes. */
export interface R2HTTPMetadata {
  contentType?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  cacheControl?: string;
  cacheExpiry?: Date;
}

/** An object's checksums: its md5, and the one other a `put` was given, as bytes. */
export interface R2Checksums {
  readonly md5?: ArrayBuffer;
  readonly sha1?: ArrayBuffer;
  readonly sha256?: ArrayBuffer;
  readonly sha384?: ArrayBuffer;
  readonly sha512?: ArrayBuffer;
  /** The checksums as hex strings. */
  toJSON(): R2StringChecksums;
}

/** Checksums as hex strings (`R2Checksums#toJSON`). */
export interface R2StringChecksums {
  md5?: string;
  sha1?: string;
  sha256?: string;
  sha384?: string;
  sha512?: string;
}

/** A byte range of `get`: from an offset, a length, or the last `suffix` bytes. */
export type R2Range = { offset: number; length?: number } | { offset?: number; length: number } | { suffix: number };

/** The conditions of `onlyIf` (`get` and `put`), as an object; `Headers` with If-* headers work too. */
export interface R2Conditional {
  etagMatches?: string;
  etagDoesNotMatch?: string;
  uploadedBefore?: Date;
  uploadedAfter?: Date;
  secondsGranularity?: boolean;
}

/** The options of `get`: conditions, a range, the SSE-C key. */
export interface R2GetOptions {
  onlyIf?: R2Conditional | HeadersLike;
  range?: R2Range | HeadersLike;
  ssecKey?: ArrayBuffer | string;
}

/** The options of `put`: conditions, metadata, one checksum to check, the storage class, the SSE-C key. */
export interface R2PutOptions {
  onlyIf?: R2Conditional | HeadersLike;
  httpMetadata?: R2HTTPMetadata | HeadersLike;
  customMetadata?: Record<string, string>;
  md5?: ArrayBuffer | ArrayBufferView | string;
  sha1?: ArrayBuffer | ArrayBufferView | string;
  sha256?: ArrayBuffer | ArrayBufferView | string;
  sha384?: ArrayBuffer | ArrayBufferView | string;
  sha512?: ArrayBuffer | ArrayBufferView | string;
  storageClass?: string;
  ssecKey?: ArrayBuffer | string;
}

/** The options of `createMultipartUpload`: the object-to-be's metadata, storage class and SSE-C key. */
export interface R2MultipartOptions {
  httpMetadata?: R2HTTPMetadata | HeadersLike;
  customMetadata?: Record<string, string>;
  storageClass?: string;
  ssecKey?: ArrayBuffer | string;
}

/** The options of `uploadPart`: the upload's SSE-C key. */
export interface R2UploadPartOptions {
  ssecKey?: ArrayBuffer | string;
}

/** The options of `list`: limit, prefix, cursor, delimiter, startAfter and the metadata to include. */
export interface R2ListOptions {
  limit?: number;
  prefix?: string;
  cursor?: string;
  delimiter?: string;
  startAfter?: string;
  include?: ('httpMetadata' | 'customMetadata')[];
}

/** An object's metadata, as `head` and `put` return it (workers-types' `R2Object`). */
export interface R2ObjectLike {
  readonly key: string;
  readonly version: string;
  readonly size: number;
  readonly etag: string;
  readonly httpEtag: string;
  readonly checksums: R2Checksums;
  readonly uploaded: Date;
  readonly httpMetadata?: R2HTTPMetadata;
  readonly customMetadata?: Record<string, string>;
  readonly range?: { offset: number; length?: number } | { offset?: number; length: number } | { suffix: number };
  readonly storageClass: string;
  readonly ssecKeyMd5?: string;
  /** Writes the object's HTTP metadata into `headers`. */
  writeHttpMetadata(headers: HeadersLike): void;
}

/** An object with its body, as `get` returns it (workers-types' `R2ObjectBody`). */
export interface R2ObjectBodyLike extends R2ObjectLike {
  /** The body as a byte stream (readable once). */
  get body(): R2BodyStream;
  /** Whether the body was read. */
  get bodyUsed(): boolean;
  /** Reads the body as bytes. */
  arrayBuffer(): Promise<ArrayBuffer>;
  /** Reads the body as a Uint8Array. */
  bytes(): Promise<Uint8Array>;
  /** Reads the body as UTF-8 text. */
  text(): Promise<string>;
  /** Reads the body as JSON. */
  json<T>(): Promise<T>;
  /** Reads the body as a Blob. */
  blob(): Promise<R2BodyBlob>;
}

/** A page of `list` (workers-types' `R2Objects`): objects, delimited prefixes, and a cursor while truncated. */
export type R2ObjectsLike = {
  objects: R2ObjectLike[];
  delimitedPrefixes: string[];
} & ({ truncated: true; cursor: string } | { truncated: false });

/** A part of a multipart upload, as `uploadPart` returns it and `complete` takes it. */
export interface R2UploadedPart {
  partNumber: number;
  etag: string;
}

/** A multipart upload's handle (workers-types' `R2MultipartUpload`). */
export interface R2MultipartUploadLike {
  readonly key: string;
  readonly uploadId: string;
  /** Uploads part `partNumber` (1 to 10,000). */
  uploadPart(partNumber: number, value: R2UploadPartValue, options?: R2UploadPartOptions): Promise<R2UploadedPart>;
  /** Aborts the upload; its parts are gone. */
  abort(): Promise<void>;
  /** Completes the upload from these parts, in order: the object is written. */
  complete(uploadedParts: R2UploadedPart[]): Promise<R2ObjectLike>;
}

/** What `uploadPart` takes: bytes, a string, a Blob, or a stream of known length. */
export type R2UploadPartValue = ReadableStreamLike | ArrayBuffer | ArrayBufferView | string | BlobLike;

/** What `put` takes: a part value, or null for an empty object. */
export type R2PutValue = R2UploadPartValue | null;

/** The binding's interface: what `Bucket` implements and what the conformance suite drives. */
export interface R2BucketLike {
  /** The object's metadata, or null. */
  head(key: string): Promise<R2ObjectLike | null>;
  /** The object with its body; its metadata alone when a condition fails; null when absent. */
  get(
    key: string,
    options: R2GetOptions & { onlyIf: R2Conditional | HeadersLike },
  ): Promise<R2ObjectBodyLike | R2ObjectLike | null>;
  /** The object with its body, or null. */
  get(key: string, options?: R2GetOptions): Promise<R2ObjectBodyLike | null>;
  /** Writes the object; null when a condition fails. */
  put(
    key: string,
    value: R2PutValue,
    options: R2PutOptions & { onlyIf: R2Conditional | HeadersLike },
  ): Promise<R2ObjectLike | null>;
  /** Writes the object and returns its metadata. */
  put(key: string, value: R2PutValue, options?: R2PutOptions): Promise<R2ObjectLike>;
  /** Starts a multipart upload of `key`. */
  createMultipartUpload(key: string, options?: R2MultipartOptions): Promise<R2MultipartUploadLike>;
  /** A handle on an upload already started (checked at its first call). */
  resumeMultipartUpload(key: string, uploadId: string): R2MultipartUploadLike;
  /** Deletes one key, or up to 1,000 at once. */
  delete(keys: string | string[]): Promise<void>;
  /** A page of the bucket's keys in UTF-8 byte order. */
  list(options?: R2ListOptions): Promise<R2ObjectsLike>;
}
