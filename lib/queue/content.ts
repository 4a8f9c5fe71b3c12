/**
 * Message bodies by content type, as workerd's producer binding turns them into bytes and the
 * consumer's runtime turns them back (workerd src/workerd/api/queue.c++ `serialize`,
 * `deserialize`, `validateContentType`; errors checked against workerd 1.20261117.1 through
 * Miniflare 4):
 *
 * - `text`: a string, else TypeError `Content Type "text" requires a value of type string, but received: <typeof>`;
 *   delivered as that string.
 * - `bytes`: an ArrayBufferView (an ArrayBuffer itself is refused: "received: object"); delivered
 *   as a Uint8Array of a copy.
 * - `json`: `JSON.stringify` (a BigInt throws JSON's own TypeError); delivered parsed, afresh each delivery.
 * - `v8`: the structured clone algorithm (`structuredClone`: a function throws DataCloneError);
 *   delivered as a clone, afresh each delivery.
 *
 * The type names are matched without regard to case, and anything else is TypeError
 * `Unsupported queue message content type: <as given>`.
 */

import { utf8Length } from '../bytes.js';

/** How a message's body is encoded: `json` (the default), `text`, `bytes` or `v8` (structured clone). */
export type QueueContentType = 'text' | 'bytes' | 'json' | 'v8';

/**
 * A body as the queue holds it between send and delivery, with its size in bytes (what the limits
 * count). One object a message: a send of 10,000 messages makes no wrapper around it (bench/queue.ts).
 */
export type HeldBody =
  | { readonly type: 'text'; readonly value: string; readonly bytes: number }
  | { readonly type: 'bytes'; readonly value: Uint8Array; readonly bytes: number }
  | { readonly type: 'json'; readonly value: string; readonly bytes: number }
  | { readonly type: 'v8'; readonly value: unknown; readonly bytes: number };

/** workerd's `validateContentType`: the option as given, converted to a string and lowercased. */
export function contentTypeOf(given: unknown): QueueContentType {
  const s = String(given);
  const lower = s.toLowerCase();
  if (lower === 'text' || lower === 'bytes' || lower === 'json' || lower === 'v8') return lower;
  throw new TypeError(`Unsupported queue message content type: ${s}`);
}

/** `typeof` as workerd's message says it (`jsg::JsValue::typeOf`: null is "object"). */
const typeOf = (v: unknown): string => typeof v;

/**
 * A body as the producer binding serializes it. `detach`: send() takes the bytes of a detachable
 * buffer (workerd detaches it: "send() detaching its argument is observable from JS"); sendBatch()
 * copies them and leaves the buffer usable.
 */
export function encodeBody(body: unknown, type: QueueContentType, detach: boolean): HeldBody {
  switch (type) {
    case 'text': {
      if (typeof body !== 'string')
        throw new TypeError(`Content Type "text" requires a value of type string, but received: ${typeOf(body)}`);
      return { type, value: body, bytes: utf8Length(body) };
    }
    case 'bytes': {
      if (!ArrayBuffer.isView(body))
        throw new TypeError(
          `Content Type "bytes" requires a value of type ArrayBufferView, but received: ${typeOf(body)}`,
        );
      const copy = new Uint8Array(body.byteLength);
      copy.set(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
      if (detach) detachBuffer(body.buffer);
      return { type, value: copy, bytes: copy.byteLength };
    }
    case 'json': {
      const text = jsonText(body);
      // A function or a symbol has no JSON; workerd sends the text "undefined", which the broker
      // cannot parse: the send fails as the service's internal error (checked through Miniflare).
      if (text === undefined) return { type, value: 'undefined', bytes: 9 };
      return { type, value: text, bytes: utf8Length(text) };
    }
    case 'v8': {
      const value = structuredClone(body);
      return { type, value, bytes: cloneSize(value) };
    }
  }
}

/**
 * A JSON body whose text is made the first time it is read (R2's notifications: lib/bucket/
 * notifications.ts `messageJson`, whose size is known beforehand). Reads give the same text.
 */
export function deferredJson(source: { text(): string; readonly bytes: number }): Extract<HeldBody, { type: 'json' }> {
  return new DeferredJson(source);
}

/** A class, not a closure per message: a notified put makes one of these (bench/notifications.ts). */
class DeferredJson {
  readonly type = 'json' as const;
  readonly bytes: number;
  #source: { text(): string } | undefined;
  #value = '';
  constructor(source: { text(): string; readonly bytes: number }) {
    this.bytes = source.bytes;
    this.#source = source;
  }
  get value(): string {
    if (this.#source) {
      this.#value = this.#source.text();
      this.#source = undefined; // what it needed (the stored object, for its etag) is let go
    }
    return this.#value;
  }
}

/** Whether a held JSON body is one the service could not read (see encodeBody). */
export const unreadable = (b: HeldBody): boolean => b.type === 'json' && b.value === 'undefined';

/** The body a consumer sees: a fresh value each delivery, so a consumer changing it cannot change a retry. */
export function decodeBody(b: HeldBody): unknown {
  switch (b.type) {
    case 'text':
      return b.value;
    case 'bytes':
      return b.value.slice();
    case 'json':
      return JSON.parse(b.value);
    case 'v8':
      return structuredClone(b.value);
  }
}

function detachBuffer(buffer: ArrayBufferLike): void {
  // A SharedArrayBuffer (or a WebAssembly memory's) cannot be detached; workerd copies those.
  if (typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer) return;
  try {
    structuredClone(buffer, { transfer: [buffer as ArrayBuffer] });
  } catch {
    // not detachable: copied only, as workerd does
  }
}

/**
 * The size of a v8-serialized value, estimated. V8's serializer is not reachable from every runtime
 * the double runs in (browsers have none), so this counts what it writes: about a byte per tag, the
 * string or byte contents, 8 bytes a number. Close for the limits' purpose; not byte-exact.
 */
function cloneSize(v: unknown, depth = 0): number {
  if (depth > 64) return 1;
  switch (typeof v) {
    case 'string':
      return 2 + utf8Length(v);
    case 'number':
      return 9;
    case 'bigint':
      return 10;
    case 'boolean':
    case 'undefined':
      return 1;
    case 'object': {
      if (v === null) return 1;
      if (ArrayBuffer.isView(v)) return 8 + v.byteLength;
      if (v instanceof ArrayBuffer) return 4 + v.byteLength;
      if (v instanceof Date) return 9;
      if (v instanceof Map) {
        let n = 4;
        for (const [k, x] of v) n += cloneSize(k, depth + 1) + cloneSize(x, depth + 1);
        return n;
      }
      if (v instanceof Set) {
        let n = 4;
        for (const x of v) n += cloneSize(x, depth + 1);
        return n;
      }
      let n = 4;
      for (const k of Object.keys(v)) n += 2 + utf8Length(k) + cloneSize((v as Record<string, unknown>)[k], depth + 1);
      return n;
    }
    default:
      return 1;
  }
}

/**
 * JSON.stringify, with workerd's (V8's) message for a BigInt whatever engine runs the double:
 * JavaScriptCore (Bun) says "JSON.stringify cannot serialize BigInt." for the same TypeError.
 * Caught, not checked beforehand: the common body costs nothing more.
 */
function jsonText(body: unknown): string | undefined {
  try {
    return JSON.stringify(body);
  } catch (e) {
    if (e instanceof TypeError && /BigInt/.test(e.message))
      // eslint-disable-next-line preserve-caught-error -- workerd's own message, on an error with no cause
      throw new TypeError('Do not know how to serialize a BigInt');
    throw e;
  }
}
