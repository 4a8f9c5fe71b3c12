/**
 * workerd's argument conversions (its JSG layer), reproduced: what the runtime accepts, converts or
 * refuses before a request ever reaches R2. Errors here are client-side: TypeError/RangeError.
 */
import { isWellFormed, LONE_SURROGATE } from '../bytes.js';
import { fieldTypeError, int32OutOfRange, invalidDate } from './errors.js';

export const isObjectLike = (v: unknown): v is Record<string, unknown> =>
  (typeof v === 'object' && v !== null) || typeof v === 'function';

/**
 * A string as the runtime holds it. workerd keeps strings as UTF-8, writing a lone surrogate as its
 * 3-byte (WTF-8) form; read back as UTF-8 (by R2, or into a result) each of those bytes is invalid
 * and becomes U+FFFD. So from the conversion on, 'a\uD800' is 'a\uFFFD\uFFFD\uFFFD': as a key (its
 * identity, order and 9-byte length), in metadata, in list options and in the upload handle.
 */
export function heldString(s: string): string {
  return isWellFormed(s) ? s : s.replace(LONE_SURROGATE, '\uFFFD\uFFFD\uFFFD');
}

/** ToString as the runtime does it: a Symbol is refused (String(symbol) would not be). */
export function toStr(v: unknown): string {
  if (typeof v === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
  return heldString(String(v));
}

export const isHeaders = (v: unknown): v is Headers => typeof Headers !== 'undefined' && v instanceof Headers;

/**
 * A dictionary (WebIDL struct) argument: undefined and null mean "empty", another object is read
 * field by field, anything else is the caller's type error.
 */
export function structOrEmpty(v: unknown, onTypeError: () => TypeError): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (!isObjectLike(v)) throw onTypeError();
  return v;
}

/** ToNumber as the runtime does it: a BigInt is refused (Number(1n) would not be), like a Symbol. */
export function toNumber(v: unknown): number {
  if (typeof v === 'bigint') throw new TypeError('Cannot convert a BigInt value to a number');
  return Number(v);
}

/** A `long` parameter: truncated to int32; non-finite becomes 0; out of int32 is a TypeError. */
export function toInt32(v: unknown): number {
  const n = toNumber(v);
  if (!Number.isFinite(n)) return 0;
  const t = Math.trunc(n);
  if (t > 2147483647 || t < -2147483648) throw int32OutOfRange();
  return t === 0 ? 0 : t; // no -0
}

/** A non-coercible string field of an options struct: undefined is absent, a non-string is refused. */
export function optionalStringField(obj: Record<string, unknown>, field: string, struct: string): string | undefined {
  const v = obj[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw fieldTypeError(field, struct, 'string');
  return heldString(v);
}

/** The last millisecond an int64 count of nanoseconds since the epoch can hold (2262-04-11). */
const MAX_DATE_MS = 9_223_372_036_854;
/** The first one (1677-09-21). */
const MIN_DATE_MS = -9_223_372_036_854;

/** A `Date` field: a Date or a number of ms; strings and others are refused, Invalid Date too. */
export function optionalDateField(obj: Record<string, unknown>, field: string, struct: string): number | undefined {
  const v = obj[field];
  if (v === undefined) return undefined;
  let ms: number;
  if (v instanceof Date) ms = v.getTime();
  else if (typeof v === 'number') ms = v;
  else throw fieldTypeError(field, struct, 'date');
  // Only NaN and ±Infinity are invalid: a finite number of ms past a Date's own range (±8.64e15) is
  // refused by the range check below, as workerd 1.20261117.1 does (conformance conditionals group).
  if (!Number.isFinite(ms)) throw invalidDate();
  // The runtime holds dates as int64 nanoseconds; its messages name years off the real bounds.
  if (ms > MAX_DATE_MS) throw new TypeError("This API doesn't support dates after 2189.");
  if (ms < MIN_DATE_MS) throw new TypeError("This API doesn't support dates before 1687.");
  // Whole ms, truncated toward zero (measured: -0.5 acts as 0 and -1.9 as -1); -0 is 0.
  return Math.trunc(ms) + 0;
}

/**
 * The date the binding actually sends, or undefined for none. workerd sends a date as unsigned 64-bit
 * ms in a field whose declared default, all ones, means "not given" (workerd's r2-api.capnp:
 * `uploadedBefore`, `uploadedAfter`, `cacheExpiry` `:UInt64 = 0xffffffffffffffff`), and its JSON
 * encoder leaves a field at its default out: so -1 ms reaches R2 as no date at all. Measured on
 * workerd 1.20261117.1 (found by the differential fuzzer, bad mix seed 295).
 */
export const sentDate = (ms: number | undefined): number | undefined => (ms === -1 ? undefined : ms);

/** How workerd prints a double inside an error message (C++ formatting: `nan`, `inf`). */
export function formatDouble(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  return String(n);
}

/** A plain byte copy of any BufferSource (so later changes by the caller do not reach us). */
export function copyBufferSource(v: ArrayBuffer | ArrayBufferView): Uint8Array {
  return new Uint8Array(byteView(v)); // copies
}

/** The bytes a BufferSource covers (its window, for a view), without copying. */
export const byteView = (v: ArrayBuffer | ArrayBufferView): Uint8Array =>
  ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(v);

export const isBufferSource = (v: unknown): v is ArrayBuffer | ArrayBufferView =>
  v instanceof ArrayBuffer || ArrayBuffer.isView(v) || Object.prototype.toString.call(v) === '[object ArrayBuffer]';
