/**
 * What `put` and `uploadPart` accept as a value, and how it becomes stored bytes.
 *
 * The split matters for integrity: `acceptValue` runs synchronously inside the call, so buffers are
 * copied before the caller gets control back (mutating one afterwards changes nothing), and a value
 * of the wrong type is refused before anything else happens. Only streams and Blobs are read later.
 */
import { byteView, isBufferSource } from './coerce.js';
import { unknownLengthStream } from './errors.js';
import { toHex, wtf8 } from '../bytes.js';
import { createHasher } from '../hash.js';
import { copySmall, encodeSmall, SLAB_MAX_BYTES } from './slabs.js';
import { isReadableStream } from '../streams.js';

/** A body as R2 receives it: the bytes, in chunks we own, and their md5 when it came for free. */
export interface Body {
  readonly chunks: readonly Uint8Array[];
  readonly size: number;
  /** Lowercase hex; computed while copying a large buffer, else left to when it is needed. */
  readonly md5?: string;
}

/** An accepted value: bytes already copied (a large buffer hashed on the way), or a source to read once. */
export type AcceptedValue =
  | { kind: 'bytes'; chunks: Uint8Array[]; md5?: string }
  | { kind: 'blob'; blob: Blob }
  | { kind: 'stream'; stream: ReadableStream };

/** Streams this library made itself (object bodies): their length is known. */
const ownStreams = new WeakSet<ReadableStream>();
export const markKnownLength = (s: ReadableStream): void => void ownStreams.add(s);

/**
 * Whether a stream's length is known, as workerd requires for put and uploadPart. workerd knows it
 * for request/response bodies made from bytes, strings or Blobs, Blob streams, FixedLengthStream,
 * R2 bodies, and a tee() branch of any of those; a stream built in JS is unknown, whatever its type,
 * and so is anything piped through a TransformStream (checked in workerd 1.20261023.1).
 *
 * No JS code can ask a stream its length, and the double reads no engine's private fields. What the
 * standards give: Fetch and the File API make bodies and Blob streams byte streams, tee() of a byte
 * stream gives byte streams, and `new ReadableStream({...})` or a TransformStream's readable side is
 * a default stream. A byte-stream probe (a BYOB reader taken and released) decides that, on the
 * runtimes that build their bodies so (Node, browsers, workerd). Byte streams it cannot tell from the
 * platform's are read, not refused: one built in JS with `type: 'bytes'`
 * ('double-js-byte-stream-length'), and in workerd an IdentityTransformStream's readable side
 * ('double-in-workerd-stream-length').
 *
 * Some runtimes make their own bodies default streams (Bun 1.4 all of them, Deno 2.9 all but Blob
 * streams, happy-dom's Response under Vitest): asked once, with a Response body of its own, the runtime
 * says which it is (`bodiesAreByteStreams`). There a body and a stream built in JS look the same to
 * any JS code, and the double accepts both, so that `put(key, request.body)`, the common Worker
 * pattern, works; a stream built in JS is read instead of refused ('double-default-stream-bodies').
 */
function hasKnownLength(stream: ReadableStream): boolean {
  if (ownStreams.has(stream)) return true;
  if (stream.locked) return false;
  return isByteStream(stream) || !bodiesAreByteStreams();
}

/** Whether a stream hands out a BYOB reader (releasing the lock the probe takes). */
function isByteStream(stream: ReadableStream): boolean {
  try {
    (stream.getReader({ mode: 'byob' }) as ReadableStreamBYOBReader).releaseLock();
    return true;
  } catch {
    return false;
  }
}

let byteStreamBodies: boolean | undefined;

/** Whether this runtime's own Response bodies are byte streams; asked once, at the first stream put. */
function bodiesAreByteStreams(): boolean {
  if (byteStreamBodies === undefined) {
    const body = typeof Response === 'function' ? new Response('').body : null;
    // Without a Response there are no platform bodies to tell apart: the probe alone decides.
    byteStreamBodies = body ? isByteStream(body) : true;
  }
  return byteStreamBodies;
}

const isBlob = (v: unknown): v is Blob => typeof Blob !== 'undefined' && v instanceof Blob;
const isStream = isReadableStream;

/**
 * Accepts a value or returns undefined when its type is not one workerd converts (the caller throws
 * its own parameter error). `allowNull`: put stores null/undefined as an empty object, uploadPart
 * refuses them.
 */
export function acceptValue(value: unknown, allowNull: boolean): AcceptedValue | undefined {
  if (value === null || value === undefined) return allowNull ? { kind: 'bytes', chunks: [] } : undefined;
  if (typeof value === 'string') return { kind: 'bytes', chunks: [encodeSmall(value) ?? wtf8(value)] };
  if (isBufferSource(value)) {
    // The common put: a plain Uint8Array that fits a slab, copied as it is (`set` reads its bytes)
    // rather than through a new view over it first. An empty one (or one whose buffer was detached,
    // which the view refuses) goes the general way.
    const n = Object.getPrototypeOf(value) === Uint8Array.prototype ? (value as Uint8Array).byteLength : 0;
    if (n > 0 && n <= SLAB_MAX_BYTES) return { kind: 'bytes', chunks: [copySmall(value as Uint8Array)] };
    return copyInChunks(byteView(value));
  }
  if (isBlob(value)) return { kind: 'blob', blob: value };
  if (isStream(value)) return { kind: 'stream', stream: value };
  return undefined;
}

const CHUNK = 1024 * 1024;

/**
 * A copy of the caller's bytes: small ones in a shared slab (slabs.ts), others in chunks of at most
 * 1 MiB: one huge fresh allocation costs more (page faults, and a large-object GC later) than the
 * same bytes in pieces, and stored objects are chunk lists anyway.
 *
 * A buffer over 1 MiB is also hashed as it is copied, each chunk while it is still in the
 * processor's cache: hashing 64 MiB afterwards made `npm run bench -- large` some 15% slower.
 * Smaller bodies leave their md5 to when it is needed (stored.ts).
 */
function copyInChunks(bytes: Uint8Array): AcceptedValue {
  if (bytes.byteLength <= SLAB_MAX_BYTES) return { kind: 'bytes', chunks: [copySmall(bytes)] };
  if (bytes.byteLength <= CHUNK) return { kind: 'bytes', chunks: [bytes.slice()] };
  const chunks: Uint8Array[] = [];
  const md5 = createHasher('md5');
  for (let at = 0; at < bytes.byteLength; at += CHUNK) {
    const chunk = bytes.slice(at, at + CHUNK);
    md5.update(chunk);
    chunks.push(chunk);
  }
  return { kind: 'bytes', chunks, md5: toHex(md5.digest()) };
}

/** The client-side stream check, made after the options are converted (workerd's order). */
export function checkStreamLength(v: AcceptedValue): void {
  if (v.kind === 'stream' && !hasKnownLength(v.stream)) throw unknownLengthStream();
}

/**
 * Reads an accepted value into a body: at once for bytes already copied (no extra turn of the event
 * loop on the common path), asynchronously for Blobs and streams.
 */
export function readValue(v: AcceptedValue): Body | Promise<Body> {
  return v.kind === 'bytes' ? body(v.chunks, v.md5) : readSource(v);
}

async function readSource(v: Exclude<AcceptedValue, { kind: 'bytes' }>): Promise<Body> {
  switch (v.kind) {
    case 'blob':
      return body([new Uint8Array(await v.blob.arrayBuffer())]);
    case 'stream': {
      const chunks: Uint8Array[] = [];
      const reader = v.stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        // A stream may hand out views of a buffer its producer reuses: keep a copy.
        chunks.push(new Uint8Array(value));
      }
      return body(chunks);
    }
  }
}

function body(chunks: Uint8Array[], md5?: string): Body {
  // Empty chunks are dropped; a copied buffer (the common put) has none, and keeps its own list.
  let size = 0;
  let empty = false;
  for (let i = 0; i < chunks.length; i++) {
    size += chunks[i]!.byteLength;
    if (chunks[i]!.byteLength === 0) empty = true;
  }
  return { chunks: empty ? chunks.filter((c) => c.byteLength > 0) : chunks, size, md5 };
}
