/**
 * Conditional headers and Range, as the S3 view applies them
 * (docs/sources/r2-s3.md#conditionals-and-range). The rules are the bucket model's
 * (`conditionHolds`: R2's precedence between etag and date conditions); only the answer differs:
 * If-Match / If-Unmodified-Since failing → 412, If-None-Match / If-Modified-Since → 304 (RFC 7232
 * order).
 */
import { conditionHolds, parseEtagHeader, type Conditional, type Etag } from '../bucket/conditional.js';
import type { ResolvedRange } from '../bucket/range.js';
import { s3Errors } from './errors.js';

function etags(v: string | null, name: 'if-match' | 'if-none-match'): Etag[] | undefined {
  if (v === null) return undefined;
  try {
    return parseEtagHeader(v, name);
  } catch {
    return [{ kind: 'strong', value: '\u0000unparseable' }]; // matches nothing
  }
}

function date(v: string | null): number | undefined {
  if (v === null) return undefined;
  const ms = new Date(v).getTime();
  return Number.isNaN(ms) ? undefined : ms; // an unparseable date is no condition, as in HTTP
}

/** The four conditions under `prefix` ('' or 'x-amz-copy-source-' or 'cf-copy-destination-'). */
export function readConditional(h: Headers, prefix = ''): Conditional | undefined {
  const c: Conditional = {
    etagMatches: etags(h.get(`${prefix}if-match`), 'if-match'),
    etagDoesNotMatch: etags(h.get(`${prefix}if-none-match`), 'if-none-match'),
    uploadedBefore: date(h.get(`${prefix}if-unmodified-since`)),
    uploadedAfter: date(h.get(`${prefix}if-modified-since`)),
    secondsGranularity: true,
  };
  return c.etagMatches || c.etagDoesNotMatch || c.uploadedBefore !== undefined || c.uploadedAfter !== undefined
    ? c
    : undefined;
}

/** For reads: 'ok', 412 or 304. */
export function evaluateRead(
  c: Conditional | undefined,
  object: { etag: string; uploaded: number },
): 'ok' | 'failed' | 'not-modified' {
  if (!c) return 'ok';
  const must = { etagMatches: c.etagMatches, uploadedBefore: c.uploadedBefore, secondsGranularity: true };
  if (!conditionHolds(must, object)) return 'failed';
  const changed = { etagDoesNotMatch: c.etagDoesNotMatch, uploadedAfter: c.uploadedAfter, secondsGranularity: true };
  if (!conditionHolds(changed, object)) return 'not-modified';
  return 'ok';
}

const RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * A `Range` header under R2's rules: one range only; malformed → 400; inverted → 400; start past
 * the end, `bytes=-0`, or any range on an empty object → 416; an end past the object is clamped.
 */
export function resolveS3Range(value: string, size: number): ResolvedRange {
  const m = RANGE.exec(value.trim());
  if (!m || (m[1] === '' && m[2] === '')) throw s3Errors.badRangeFormat();
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '') {
    const n = Number(b);
    if (n === 0 || size === 0) throw s3Errors.invalidRange();
    const length = Math.min(n, size);
    return { offset: size - length, length };
  }
  const start = Number(a);
  if (b !== '' && Number(b) < start) throw s3Errors.rangeNotPositive();
  if (start >= size) throw s3Errors.invalidRange();
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  return { offset: start, length: end - start + 1 };
}
