/**
 * `range` of get: the object form (validated by workerd, resolved by R2) and the Headers form (a
 * `Range` header; anything but one satisfiable `bytes=` range means the whole object). The binding
 * converts and parses (`convertRange`, `checkRange`: the header's text is read there); the model
 * gets numbers and resolves them against the object (`resolveRange`). A resolved range's bytes in
 * memory are `rangeViews` over the object's chunks, for every surface (IndexedDB reads its own
 * records: indexeddb-storage.ts, piecesOf).
 */
import { fieldTypeError } from './errors.js';
import { formatDouble, isHeaders, isObjectLike, toNumber } from './coerce.js';

/**
 * A range as the model gets it: the R2Range struct's checked numbers, or one `bytes=` range read from
 * a header (`first`-`last`, `last` absent for "to the end"; or the last `suffix` bytes), which R2
 * reads as the whole object wherever it cannot be satisfied.
 */
export type RangeRequest =
  | { readonly kind: 'object'; readonly offset?: number; readonly length?: number; readonly suffix?: number }
  | { readonly kind: 'header'; readonly first: number; readonly last?: number }
  | { readonly kind: 'header'; readonly suffix: number };

export interface ResolvedRange {
  readonly offset: number;
  readonly length: number;
}

/** `range` after workerd's type conversion: the Range header, or the R2Range struct's numbers. */
export type ConvertedRange =
  | { readonly kind: 'header'; readonly value: string }
  | { readonly kind: 'object'; readonly offset?: number; readonly length?: number; readonly suffix?: number };

const numberField = (v: unknown) => (v === undefined ? undefined : toNumber(v));

/**
 * Conversion: an R2Range struct or Headers. undefined means none; null, like any dictionary, is an
 * R2Range with no field set. A wrong type is refused here, before `onlyIf` is interpreted.
 */
export function convertRange(v: unknown): ConvertedRange | undefined {
  if (v === undefined) return undefined;
  if (v === null) return { kind: 'object' };
  if (isHeaders(v)) {
    const value = v.get('range');
    return value === null ? undefined : { kind: 'header', value };
  }
  if (!isObjectLike(v)) throw fieldTypeError('range', 'GetOptions', 'Range or Headers');
  return {
    kind: 'object',
    offset: numberField(v.offset),
    length: numberField(v.length),
    suffix: numberField(v.suffix),
  };
}

function checkNumber(n: number | undefined, label: string, negative: string): number | undefined {
  if (n === undefined) return undefined;
  if (!(n >= 0)) throw new RangeError(`${negative} (${formatDouble(n)}) must be greater than or equal to 0.`);
  if (Number.isFinite(n) && !Number.isInteger(n)) {
    throw new RangeError(`Invalid range. ${label} (${formatDouble(n)}) must be an integer, not floating point.`);
  }
  return n === 0 ? 0 : n; // -0 is 0
}

/**
 * Client-side validation, in workerd's order: offset, length, then suffix and its exclusions. An
 * R2Range with no field set is still sent as a range: R2 reads it as "from 0 to the end", which an
 * empty object cannot satisfy.
 */
export function checkRange(c: ConvertedRange | undefined): RangeRequest | undefined {
  if (c === undefined) return undefined;
  if (c.kind === 'header') return parseRangeHeader(c.value);
  const offset = checkNumber(c.offset, 'Starting offset', 'Invalid range. Starting offset');
  const length = checkNumber(c.length, 'Length', 'Invalid range. Length');
  let suffix: number | undefined;
  if (c.suffix !== undefined) {
    if (offset !== undefined) throw new TypeError('Suffix is incompatible with offset.');
    if (length !== undefined) throw new TypeError('Suffix is incompatible with length.');
    suffix = checkNumber(c.suffix, 'Suffix', 'Invalid suffix. Suffix');
  }
  return { kind: 'object', offset, length, suffix };
}

/**
 * R2's resolution of a range against an object of `size` bytes; undefined: not satisfiable (10039).
 * The rule is the one workerd's local R2 applies (its validator, adapted from R2's gateway): a
 * window must start at or before the end and ask for at least one byte; it is then clamped to the
 * object. So `{offset: size, length > 0}` (on an empty object also `{length > 0}`) is satisfiable
 * and resolves to the empty window `{size, 0}`; whether it can be read is `readsEmptyWindow`'s.
 */
export function resolveRange(r: RangeRequest | undefined, size: number): ResolvedRange | undefined {
  if (r === undefined) return { offset: 0, length: size };
  if (r.kind === 'header') return resolveHeader(r, size);
  let offset: number;
  let length: number;
  if (r.suffix !== undefined) {
    if (r.suffix <= 0) return undefined;
    length = Math.min(r.suffix, size);
    offset = size - length;
  } else {
    offset = r.offset ?? 0;
    length = r.length ?? size - offset;
  }
  if (offset > size || !(length > 0)) return undefined;
  return { offset, length: Math.min(length, size - offset) };
}

/**
 * Whether an R2Range that resolved to an empty window (it starts at the end and asks for bytes) is
 * read as an empty body: for an object completed from parts, yes; for a single-part object the
 * local simulator's blob store fails on that window and the binding's caller gets "get: Unspecified
 * error (0)", a plain Error, neither 10039 nor 10001 (Miniflare 5.20261023.2-beta's
 * fetchSingleRange asserts and answers without a CF-R2-Error header). Production's answer is not
 * established (docs/sources/r2-binding.md#ranges), so the double follows the newest workerd,
 * 1.20261117.1, whose answer is the one 1.20261023.1 gave too; a passing onlyIf changes nothing
 * (conformance ranges group). A Range header never resolves to an empty window: one that starts at
 * the end means the whole object.
 */
export function readsEmptyWindow(r: RangeRequest | undefined, resolved: ResolvedRange, multipart: boolean): boolean {
  return multipart || resolved.length > 0 || r?.kind !== 'object';
}

const BYTES_RANGE = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i;

/**
 * A `Range` header's one `bytes=` range; undefined (the whole object) for several ranges, bad
 * syntax, `bytes=-0` and an end before the start, whatever the object.
 */
function parseRangeHeader(value: string): RangeRequest | undefined {
  const m = BYTES_RANGE.exec(value);
  if (!m) return undefined;
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '') {
    const suffix = b === '' ? 0 : Number(b);
    return suffix === 0 ? undefined : { kind: 'header', suffix };
  }
  const first = Number(a);
  if (b === '') return { kind: 'header', first };
  const last = Number(b);
  return last < first ? undefined : { kind: 'header', first, last };
}

/** A header's range against the object, clamped; one that starts past the end is the whole object. */
function resolveHeader(r: Extract<RangeRequest, { kind: 'header' }>, size: number): ResolvedRange {
  if ('suffix' in r) {
    const length = Math.min(r.suffix, size);
    return { offset: size - length, length };
  }
  if (r.first >= size) return { offset: 0, length: size };
  const end = Math.min(r.last ?? size - 1, size - 1);
  return { offset: r.first, length: end - r.first + 1 };
}

/** The bytes of a stored object's range, as views (no copy) over its chunks. */
export function* rangeViews(chunks: readonly Uint8Array[], range: ResolvedRange): Generator<Uint8Array> {
  let skip = range.offset;
  let left = range.length;
  for (const c of chunks) {
    if (left === 0) return;
    if (skip >= c.byteLength) {
      skip -= c.byteLength;
      continue;
    }
    const end = Math.min(c.byteLength, skip + left);
    yield c.subarray(skip, end);
    left -= end - skip;
    skip = 0;
  }
}
