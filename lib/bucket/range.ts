/**
 * `range` of get: the object form (validated by workerd, resolved by R2) and the Headers form (a
 * `Range` header; anything but one satisfiable `bytes=` range means the whole object).
 */
import { fieldTypeError } from './errors.js';
import { formatDouble, isHeaders, isObjectLike } from './coerce.js';

export type RangeRequest =
  | { readonly kind: 'object'; readonly offset?: number; readonly length?: number; readonly suffix?: number }
  | { readonly kind: 'header'; readonly value: string };

export interface ResolvedRange {
  readonly offset: number;
  readonly length: number;
}

function checkNumber(v: unknown, label: string, negative: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(n >= 0)) throw new RangeError(`${negative} (${formatDouble(n)}) must be greater than or equal to 0.`);
  if (Number.isFinite(n) && !Number.isInteger(n)) {
    throw new RangeError(`Invalid range. ${label} (${formatDouble(n)}) must be an integer, not floating point.`);
  }
  return n === 0 ? 0 : n; // -0 is 0
}

/** Client-side validation, in workerd's order: offset, length, then suffix and its exclusions. */
export function parseRange(v: unknown): RangeRequest | undefined {
  if (v === undefined || v === null) return undefined;
  if (isHeaders(v)) {
    const value = v.get('range');
    return value === null ? undefined : { kind: 'header', value };
  }
  if (!isObjectLike(v)) throw fieldTypeError('range', 'GetOptions', 'Range or Headers');
  const offset = checkNumber(v.offset, 'Starting offset', 'Invalid range. Starting offset');
  const length = checkNumber(v.length, 'Length', 'Invalid range. Length');
  let suffix: number | undefined;
  if (v.suffix !== undefined) {
    if (offset !== undefined) throw new TypeError('Suffix is incompatible with offset.');
    if (length !== undefined) throw new TypeError('Suffix is incompatible with length.');
    suffix = checkNumber(v.suffix, 'Suffix', 'Invalid suffix. Suffix');
  }
  if (offset === undefined && length === undefined && suffix === undefined) return undefined;
  return { kind: 'object', offset, length, suffix };
}

/** R2's resolution of a range against an object of `size` bytes; undefined: not satisfiable. */
export function resolveRange(r: RangeRequest | undefined, size: number): ResolvedRange | undefined {
  if (r === undefined) return { offset: 0, length: size };
  if (r.kind === 'header') return resolveHeader(r.value, size);
  if (r.suffix !== undefined) {
    if (r.suffix === 0 || size === 0) return undefined;
    const length = Math.min(r.suffix, size);
    return { offset: size - length, length };
  }
  const offset = r.offset ?? 0;
  if (r.length === undefined) return offset < size ? { offset, length: size - offset } : undefined;
  // Production answers 10039 for {offset: size, length > 0} as for any other empty window.
  if (r.length === 0 || offset >= size) return undefined;
  return { offset, length: Math.min(r.length, size - offset) };
}

const BYTES_RANGE = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i;

/** One `bytes=` range, clamped; everything else (several ranges, bad syntax, past the end) is the whole. */
function resolveHeader(value: string, size: number): ResolvedRange {
  const whole = { offset: 0, length: size };
  const m = BYTES_RANGE.exec(value);
  if (!m) return whole;
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '' && b === '') return whole;
  if (a === '') {
    const n = Number(b);
    if (n === 0) return whole;
    const length = Math.min(n, size);
    return { offset: size - length, length };
  }
  const start = Number(a);
  if (start >= size) return whole;
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (end < start) return whole;
  return { offset: start, length: end - start + 1 };
}
