/** What every S3 operation handler receives: the request as parsed, the bucket, and the body on demand. */
import type { BucketLayer } from '../bucket/layer.js';
import { fromUtf8 } from '../bytes.js';
import type { Body } from '../bucket/values.js';
import { xmlDocument } from './xml.js';

export interface RequestBody extends Body {
  /** Trailing headers of an aws-chunked body (its checksum), else empty. */
  readonly trailers: Headers;
}

export interface S3Context {
  readonly method: string;
  readonly url: URL;
  readonly query: URLSearchParams;
  readonly headers: Headers;
  readonly bucketName: string;
  /** The bucket's layer: every read and write goes through it (transactions, faults, the call log). */
  readonly bucket: BucketLayer;
  /** Decoded once; '' on a bucket route. */
  readonly key: string;
  readonly now: () => number;
  /** The body, read once, decoded and checked against the signed payload hash. */
  body(): Promise<RequestBody>;
  /** Whether temporary credentials reach a key (temporary-access.ts); absent for every other request. */
  readonly covers?: (key: string) => boolean;
  /** Another bucket by name (copy sources). */
  lookup(name: string): BucketLayer | undefined;
}

export async function bodyText(ctx: S3Context): Promise<string> {
  const b = await ctx.body();
  return b.chunks.length === 1
    ? fromUtf8(b.chunks[0]!)
    : fromUtf8(new Uint8Array(await new Blob(b.chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer()));
}

/**
 * A success answer in S3's XML. The body is handed over as UTF-8 bytes: a list page's text is a long
 * chain of appended pieces, and encoding it here cost less than undici's handling of a string body
 * (measured with a 1,000-key page; the bytes are the same, a lone surrogate becoming U+FFFD either way).
 */
export function xmlResponse(
  root: string,
  content: Record<string, unknown> | string,
  headers?: HeadersInit,
  status = 200,
): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/xml');
  return new Response(encodedBody(xmlDocument(root, content)), { status, headers: h });
}

const encoder = new TextEncoder();
/** Where bodies are encoded: reused, since making a Response copies its bytes (Fetch: "extract a body"). */
let scratch = new Uint8Array(64 * 1024);

/**
 * A body's UTF-8 bytes, written into the reused scratch buffer: a list page is ~200 kB, and a fresh
 * buffer per answer (allocated, zeroed, collected) was a visible part of its cost. Valid only until
 * the next call, which is enough for `new Response(...)`, whose constructor copies the bytes.
 */
function encodedBody(text: string): Uint8Array<ArrayBuffer> {
  const most = text.length * 3;
  if (most > scratch.length) scratch = new Uint8Array(Math.max(most, scratch.length * 2));
  return scratch.subarray(0, encoder.encodeInto(text, scratch).written);
}

const DAY_MS = 86_400_000;
/** The day `isoTime` last formatted (its first epoch ms) and its `YYYY-MM-DDT`; its last answer. */
let cachedDay = NaN;
let cachedDayPrefix = '';
let lastMs = NaN;
let lastIso = '';
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * S3's XML timestamps: ISO 8601 with milliseconds, exactly `Date#toISOString`. A list page formats
 * a thousand of them, mostly from the same day, and a `Date` each was a sixth of the page's cost, so
 * the date part is kept from the last call and the time of day is written by hand (and the last
 * answer is kept whole).
 */
export function isoTime(ms: number): string {
  // Objects written together share their millisecond, and sit together in a listing.
  if (ms === lastMs) return lastIso;
  // Outside years 1970–9999, or with a fraction of a millisecond, the Date does it.
  if (!Number.isInteger(ms) || ms < 0 || ms >= 253402300800000) return new Date(ms).toISOString();
  let t = ms % DAY_MS;
  const day = ms - t;
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDayPrefix = new Date(day).toISOString().slice(0, 11);
  }
  const milli = t % 1000;
  t = (t - milli) / 1000;
  const second = t % 60;
  t = (t - second) / 60;
  const minute = t % 60;
  const hour = (t - minute) / 60;
  lastMs = ms;
  lastIso = `${cachedDayPrefix}${pad2(hour)}:${pad2(minute)}:${pad2(second)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  return lastIso;
}
