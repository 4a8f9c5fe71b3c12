/**
 * What callers get back: `HeadResult` (R2Object) and `GetResult` (R2ObjectBody), shaped as the
 * runtime shapes them (constructor names, own enumerable fields in its order, prototype members),
 * and detached from stored state: every result holds its own copies.
 */
import { concat } from '../bytes.js';
import { Checksums } from './checksums.js';
import { bodyUsed } from './errors.js';
import { customMetadataObject, httpMetadataObject, writeHttpFields, type HttpFields } from './metadata.js';
import { rangeViews, type ResolvedRange } from './range.js';
import type { StoredObject } from './stored.js';
import type { BodyBytes } from './storage.js';
import { markKnownLength } from './values.js';
import { tagClass } from './class-tags.js';
import { byteStreamClass } from '../streams.js';
import type { HeadersLike, R2BodyBlob, R2BodyStream, R2HTTPMetadata, R2ObjectBodyLike, R2ObjectLike } from './types.js';

/** Which metadata a result carries (list entries may leave either out), and its range if any. */
export interface Shape {
  /** `'whole'`: the whole object (head, a get whose condition failed). */
  readonly range?: ResolvedRange | 'whole';
  readonly http: boolean;
  readonly custom: boolean;
  /** A put result's HTTP metadata as the caller gave it, where it differs from what was stored. */
  readonly httpAsGiven?: HttpFields;
}

/** head and a failed conditional get: the whole object's range, both metadata. */
export const WHOLE_OBJECT: Shape = Object.freeze({ range: 'whole', http: true, custom: true });
/** put and complete: no range, both metadata. */
export const WRITTEN_OBJECT: Shape = Object.freeze({ http: true, custom: true });

/**
 * An object's etag for results whose object has not been hashed yet: own enumerable getters, so
 * the md5 is computed on first read (see stored.ts) and the keys and their order stay the runtime's.
 * Like the runtime's read-only fields, they refuse assignment.
 */
let etagFields: (r: HeadResult) => void;

/**
 * Defines an enumerable, configurable getter. Object.prototype.__defineGetter__ (ECMAScript Annex B,
 * in every engine we run on) does exactly that without reading a descriptor object, at half the
 * cost of Object.defineProperty, which showed on every head, get and list entry.
 */
const defineGetter: (o: object, name: string, get: () => unknown) => void = (() => {
  const legacy = (Object.prototype as { __defineGetter__?: (name: string, get: () => unknown) => void })
    .__defineGetter__;
  return legacy
    ? (o, name, get) => legacy.call(o, name, get)
    : (o, name, get) => Object.defineProperty(o, name, { get, enumerable: true, configurable: true });
})();

export class HeadResult implements R2ObjectLike {
  // `declare`: no class-field initialisers, so the constructor alone sets the fields, in the
  // runtime's enumeration order (accessors included).
  declare readonly ssecKeyMd5: string | undefined;
  declare readonly storageClass: string;
  declare readonly range: ResolvedRange | undefined;
  declare readonly customMetadata: Record<string, string> | undefined;
  declare readonly httpMetadata: R2HTTPMetadata | undefined;
  declare readonly uploaded: Date;
  declare readonly checksums: Checksums;
  declare readonly httpEtag: string;
  declare readonly etag: string;
  declare readonly size: number;
  declare readonly version: string;
  declare readonly key: string;
  /**
   * Set only for an object not hashed yet: the object the etag getters hash, then its etag (so a
   * result held after its first etag read no longer keeps the object's bytes alive).
   */
  #etagOf: StoredObject | string | undefined;
  /** What writeHttpMetadata writes: the stored fields, whatever a caller does to `httpMetadata`. */
  readonly #http: HttpFields | undefined;

  static {
    const etagOf = (r: HeadResult): string => {
      const from = r.#etagOf!;
      return typeof from === 'string' ? from : (r.#etagOf = from.etag);
    };
    function httpEtag(this: HeadResult) {
      return `"${etagOf(this)}"`;
    }
    function etag(this: HeadResult) {
      return etagOf(this);
    }
    etagFields = (r) => {
      defineGetter(r, 'httpEtag', httpEtag);
      defineGetter(r, 'etag', etag);
    };
  }

  /** @internal results are made by the bucket */
  constructor(o: StoredObject, shape: Shape) {
    const http = shape.httpAsGiven ?? o.http;
    this.#http = shape.http ? http : undefined;
    // Assigned in the runtime's enumeration order.
    this.ssecKeyMd5 = o.ssecKeyMd5;
    this.storageClass = o.storageClass;
    const range = shape.range;
    this.range =
      range === undefined
        ? undefined
        : range === 'whole'
          ? { offset: 0, length: o.size }
          : { offset: range.offset, length: range.length };
    this.customMetadata = shape.custom ? customMetadataObject(o.custom) : undefined;
    this.httpMetadata = shape.http ? httpMetadataObject(http) : undefined;
    this.uploaded = new Date(o.uploaded);
    this.checksums = new Checksums(o);
    if (o.etagKnown) {
      this.httpEtag = `"${o.etag}"`;
      this.etag = o.etag;
    } else {
      this.#etagOf = o;
      etagFields(this);
    }
    this.size = o.size;
    this.version = o.version;
    this.key = o.key;
  }

  writeHttpMetadata(headers: HeadersLike): void {
    writeHttpFields(this.key, this.#http, headers);
  }
}

// Node's console would show the lazy etag fields as [Getter]: show the values, as for the others.
Object.defineProperty(HeadResult.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: HeadResult, _depth: number, options: unknown, inspect: (v: unknown, o: unknown) => string) {
    return `${this.constructor.name} ${inspect({ ...this }, options)}`;
  },
});

/** What a GetResult reads from: kept in a private field, so own keys stay the runtime's. */
interface BodyState {
  readonly chunks: readonly Uint8Array[];
  readonly range: ResolvedRange;
  /** A persistent storage's body read as it is pulled (chunks and range are then unused). */
  readonly pieces?: () => AsyncIterator<Uint8Array>;
  /** As stored: blob() ignores what a caller does to the result's `httpMetadata`. */
  readonly contentType: string;
  stream?: ReadableStream<Uint8Array>;
  used: boolean;
}

export class GetResult extends HeadResult implements R2ObjectBodyLike {
  readonly #state: BodyState;

  /** @internal */
  constructor(o: StoredObject, shape: Shape & { range: ResolvedRange }, stored?: BodyBytes) {
    super(o, shape);
    const contentType = o.http.contentType ?? '';
    if (!stored) this.#state = { chunks: o.chunks, range: shape.range, contentType, used: false };
    else if (stored.kind === 'chunks') {
      // Already the range's bytes, read in the get's own transaction.
      this.#state = {
        chunks: stored.chunks,
        range: { offset: 0, length: shape.range.length },
        contentType,
        used: false,
      };
    } else this.#state = { chunks: [], range: shape.range, pieces: stored.pieces, contentType, used: false };
  }

  get body(): R2BodyStream {
    const state = this.#state;
    if (!state.stream && state.pieces) {
      const pieces = state.pieces();
      state.stream = new ReadableStream({
        type: 'bytes',
        async pull(controller) {
          state.used = true;
          const next = await pieces.next();
          if (next.done) {
            controller.close();
            controller.byobRequest?.respond(0);
          } else {
            controller.enqueue(next.value as Uint8Array<ArrayBuffer>);
          }
        },
      });
      markKnownLength(state.stream);
    }
    if (!state.stream) {
      const views = rangeViews(state.chunks, state.range);
      // A byte stream with no high-water mark pulls only when read, so bodyUsed flips on the first
      // read and not before. Each chunk handed out is a copy: readers may transfer or mutate it.
      state.stream = new (byteStreamClass())({
        type: 'bytes',
        pull(controller) {
          state.used = true;
          const next = views.next();
          if (next.done) {
            controller.close();
            controller.byobRequest?.respond(0);
          } else {
            controller.enqueue(next.value.slice());
          }
        },
      });
      markKnownLength(state.stream);
    }
    // Async iterable wherever the runtime's streams are (workerd, Node, the ponyfill).
    return state.stream as R2BodyStream;
  }

  get bodyUsed(): boolean {
    return this.#state.used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#readAll();
    return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? (bytes.buffer as ArrayBuffer)
      : (bytes.slice().buffer as ArrayBuffer);
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async text(): Promise<string> {
    // The runtime decodes as UTF-8 and keeps a leading BOM (so json() refuses one).
    return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(await this.#readAll());
  }

  async json<T>(): Promise<T> {
    return JSON.parse(await this.text()) as T;
  }

  async blob(): Promise<R2BodyBlob> {
    const bytes = await this.#readAll();
    const type = this.#state.contentType;
    const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
    // The runtime gives the stored content type as it is; the Blob constructor would normalise it
    // ('' for characters outside U+0020–U+007E, lowercase), so the type is set past it.
    if (blob.type !== type) Object.defineProperty(blob, 'type', { value: type });
    return blob as R2BodyBlob;
  }

  /** All the bytes, once: straight from the chunks unless a stream was already handed out. */
  async #readAll(): Promise<Uint8Array> {
    const state = this.#state;
    if (state.used || state.stream?.locked) throw bodyUsed();
    if (!state.stream && !state.pieces) {
      state.used = true;
      const views = [...rangeViews(state.chunks, state.range)];
      return views.length === 1 ? views[0]!.slice() : concat(views, state.range.length);
    }
    const reader = this.body.getReader();
    const parts: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
    return concat(parts);
  }
}

// workerd's toString tags (compatibility date 2024-09-26 on; see class-tags.ts).
tagClass(HeadResult, 'HeadResult');
tagClass(GetResult, 'GetResult');
