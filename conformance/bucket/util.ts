/**
 * Shared helpers for the bucket conformance groups. Portable: Node 20, browsers and workerd.
 * Add helpers here; do not rewrite the existing ones (several groups use them).
 */
import { expect } from '../runner.js';
import { md5 } from '@noble/hashes/legacy.js';

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export const utf8 = (s: string): Uint8Array<ArrayBuffer> => encoder.encode(s) as Uint8Array<ArrayBuffer>;

/** Lowercase hex of bytes (isView, not instanceof: jsdom's crypto.subtle gives buffers of another realm). */
export function toHex(data: ArrayBuffer | ArrayBufferView): string {
  const bytes = ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Bytes of a hex string. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Lowercase hex MD5 of a string (as UTF-8) or bytes: the etag R2 gives a single-part object. */
export function md5Hex(data: string | Uint8Array): string {
  return toHex(md5(typeof data === 'string' ? utf8(data) : data));
}

export type ShaAlgorithm = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';

/** Lowercase hex SHA digest via WebCrypto. */
export async function shaHex(algorithm: ShaAlgorithm, data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? utf8(data) : data;
  return toHex(await crypto.subtle.digest(algorithm, bytes as Uint8Array<ArrayBuffer>));
}

/** The MD5 of empty content: the etag of an empty object (docs/sources/r2-binding.md#results). */
export const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';

/**
 * Calls `call` and proves it reports its error as a rejected promise (never a synchronous throw),
 * then returns the rejection reason.
 */
export async function rejection(call: () => unknown): Promise<unknown> {
  let result: unknown;
  try {
    result = call();
  } catch (e) {
    throw new Error(`expected a rejected promise, but the call threw synchronously: ${String(e)}`, { cause: e });
  }
  expect(result).toBeInstanceOf(Promise);
  try {
    await result;
  } catch (e) {
    return e;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

type ErrorClass = typeof Error | typeof TypeError | typeof RangeError | typeof SyntaxError;

/**
 * Asserts `call` rejects (not throws) with exactly this class and message.
 * For plain `Error` the class must be Error itself, not a subclass.
 */
export async function expectRejection(call: () => unknown, cls: ErrorClass, message: string): Promise<void> {
  const e = await rejection(call);
  expect(e).toBeInstanceOf(cls);
  if (cls === Error) expect((e as Error).constructor).toBe(Error);
  expect((e as Error).message).toBe(message);
}

/**
 * Asserts `call` rejects with a backend error: a plain Error (not a subclass) whose message is
 * `"<action>: <message> (<code>)"`, with no `code` property (docs/sources/r2-binding.md#errors).
 */
export async function expectBackendError(call: () => unknown, message: string): Promise<void> {
  const e = await rejection(call);
  expect(e).toBeInstanceOf(Error);
  expect((e as Error).constructor).toBe(Error);
  expect((e as Error).message).toBe(message);
  expect(e).not.toHaveProperty('code');
}

/** Reads a ReadableStream of bytes to the end. */
export async function readAll(stream: ReadableStream): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The bytes of several byte arrays one after another. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * The etag R2 gives a completed multipart object (docs r2/objects/multipart-objects): the hex MD5
 * of the parts' binary MD5 digests concatenated in part-number order, then `-<number of parts>`.
 * Pass the parts' contents in part-number order.
 */
export function multipartEtag(parts: readonly (string | Uint8Array)[]): string {
  const digests = parts.map((p) => md5(typeof p === 'string' ? utf8(p) : p));
  return `${toHex(md5(concatBytes(...digests)))}-${parts.length}`;
}
