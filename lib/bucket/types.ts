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
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  append(name: string, value: string): void;
  delete(name: string): void;
}

/** A ReadableStream argument: the members every ReadableStream type has (a runtime's stream is required). */
export interface ReadableStreamLike {
  readonly locked: boolean;
  cancel(reason?: any): Promise<void>;
  getReader(): { read(): Promise<{ done: boolean; value?: unknown }>; releaseLock(): void };
}

/** A Blob argument: the members every Blob type has (a runtime's Blob is required). */
export interface BlobLike {
  readonly size: number;
  readonly type: string;
  slice(start?: number, end?: number, contentType?: string): BlobLike;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
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
  abort(reason?: any): Promise<void>;
  close(): Promise<void>;
}

/** A read's outcome as workers-types types it. */
export type R2ReadResult<T> = { done: false; value: T } | { done: true; value?: undefined };

/** A stream's default reader, as workers-types types it. */
export interface R2StreamReader<T> {
  readonly closed: Promise<void>;
  cancel(reason?: any): Promise<void>;
  read(): Promise<R2ReadResult<T>>;
  releaseLock(): void;
}

/** A byte stream's BYOB reader, as workers-types types it. */
export interface R2StreamByobReader {
  readonly closed: Promise<void>;
  cancel(reason?: any): Promise<void>;
  read<V extends ArrayBufferView>(view: V): Promise<R2ReadResult<V>>;
  /** workerd's own; a BYOB reader of another runtime has no such method. */
  readAtLeast<V extends ArrayBufferView>(minElements: number, view: V): Promise<R2ReadResult<V>>;
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
  getReader(): R2StreamReader<T>;
  getReader(options: { mode: 'byob' }): R2StreamByobReader;
  tee(): [R2Stream<T>, R2Stream<T>];
  // `readable` by its async iteration: of a stream's members carrying its chunk type, the one with a
  // single signature, so U is inferred when assigning this to workers-types' stream or back
  // (getReader has two, and inference reads the last, the BYOB one, which carries no chunk type).
  pipeThrough<U>(transform: { readable: AsyncIterable<U>; writable: WritableStreamLike }, options?: R2StreamPipeOptions): R2Stream<U>;
  pipeTo(destination: WritableStreamLike, options?: R2StreamPipeOptions): Promise<void>;
  values(options?: R2StreamIteratorOptions): AsyncIterableIterator<T>;
  [Symbol.asyncIterator](options?: R2StreamIteratorOptions): AsyncIterableIterator<T>;
};

/** A result's body: a stream of bytes. */
export type R2BodyStream = R2Stream<Uint8Array>;

/**
 * What `blob()` gives: the runtime's Blob, whose `stream()` (and that of its slices) is typed as a
 * body's, for the same reason as R2Stream.
 */
export type R2BodyBlob = Blob & {
  stream(): R2BodyStream;
  slice(start?: number, end?: number, contentType?: string): R2BodyBlob;
};

export interface R2HTTPMetadata {
  contentType?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  cacheControl?: string;
  cacheExpiry?: Date;
}

export interface R2Checksums {
  readonly md5?: ArrayBuffer;
  readonly sha1?: ArrayBuffer;
  readonly sha256?: ArrayBuffer;
  readonly sha384?: ArrayBuffer;
  readonly sha512?: ArrayBuffer;
  toJSON(): R2StringChecksums;
}

export interface R2StringChecksums {
  md5?: string;
  sha1?: string;
  sha256?: string;
  sha384?: string;
  sha512?: string;
}

export type R2Range = { offset: number; length?: number } | { offset?: number; length: number } | { suffix: number };

export interface R2Conditional {
  etagMatches?: string;
  etagDoesNotMatch?: string;
  uploadedBefore?: Date;
  uploadedAfter?: Date;
  secondsGranularity?: boolean;
}

export interface R2GetOptions {
  onlyIf?: R2Conditional | HeadersLike;
  range?: R2Range | HeadersLike;
  ssecKey?: ArrayBuffer | string;
}

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

export interface R2MultipartOptions {
  httpMetadata?: R2HTTPMetadata | HeadersLike;
  customMetadata?: Record<string, string>;
  storageClass?: string;
  ssecKey?: ArrayBuffer | string;
}

export interface R2UploadPartOptions {
  ssecKey?: ArrayBuffer | string;
}

export interface R2ListOptions {
  limit?: number;
  prefix?: string;
  cursor?: string;
  delimiter?: string;
  startAfter?: string;
  include?: ('httpMetadata' | 'customMetadata')[];
}

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
  writeHttpMetadata(headers: HeadersLike): void;
}

export interface R2ObjectBodyLike extends R2ObjectLike {
  get body(): R2BodyStream;
  get bodyUsed(): boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
  json<T>(): Promise<T>;
  blob(): Promise<R2BodyBlob>;
}

export type R2ObjectsLike = {
  objects: R2ObjectLike[];
  delimitedPrefixes: string[];
} & ({ truncated: true; cursor: string } | { truncated: false });

export interface R2UploadedPart {
  partNumber: number;
  etag: string;
}

export interface R2MultipartUploadLike {
  readonly key: string;
  readonly uploadId: string;
  uploadPart(
    partNumber: number,
    value: R2UploadPartValue,
    options?: R2UploadPartOptions,
  ): Promise<R2UploadedPart>;
  abort(): Promise<void>;
  complete(uploadedParts: R2UploadedPart[]): Promise<R2ObjectLike>;
}

export type R2UploadPartValue = ReadableStreamLike | ArrayBuffer | ArrayBufferView | string | BlobLike;

export type R2PutValue = R2UploadPartValue | null;

/** The binding's interface: what `Bucket` implements and what the conformance suite drives. */
export interface R2BucketLike {
  head(key: string): Promise<R2ObjectLike | null>;
  get(key: string, options: R2GetOptions & { onlyIf: R2Conditional | HeadersLike }): Promise<R2ObjectBodyLike | R2ObjectLike | null>;
  get(key: string, options?: R2GetOptions): Promise<R2ObjectBodyLike | null>;
  put(key: string, value: R2PutValue, options: R2PutOptions & { onlyIf: R2Conditional | HeadersLike }): Promise<R2ObjectLike | null>;
  put(key: string, value: R2PutValue, options?: R2PutOptions): Promise<R2ObjectLike>;
  createMultipartUpload(key: string, options?: R2MultipartOptions): Promise<R2MultipartUploadLike>;
  resumeMultipartUpload(key: string, uploadId: string): R2MultipartUploadLike;
  delete(keys: string | string[]): Promise<void>;
  list(options?: R2ListOptions): Promise<R2ObjectsLike>;
}
