/**
 * URL paths as the S3 view reads them: the one home for percent-decoding a path (keys, bucket
 * names, copy sources) and for re-encoding one the way SigV4 canonicalises it.
 *
 * S3 keys are opaque: a key is the raw path after the bucket, percent-decoded once, dot segments
 * and all (`/photos/tmp/../k` names the key `tmp/../k`). A path that does not decode to UTF-8
 * (`%FF`, a lone `%`) is refused, never kept as typed: keeping `bad%FF` literally would make it a
 * second spelling of the key `bad%25FF` decodes to.
 */
import { S3Error, s3Errors } from './errors.js';

/** The path and query of a request-target as the client wrote it (`/a/../b?x`), the query with its `?`. */
export interface RawTarget {
  readonly path: string;
  readonly search: string;
}

/**
 * Splits a request-target. Origin-form (`/path?query`) is taken as written; absolute-form
 * (`http://host/path`, what a proxy client sends) from its path on; anything else (`*`) is
 * undefined, and the caller falls back to the parsed URL.
 */
export function splitTarget(target: string): RawTarget | undefined {
  let t = target;
  if (!t.startsWith('/')) {
    const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/.exec(t);
    if (!m) return undefined;
    t = t.slice(m[0].length);
    if (!t.startsWith('/')) t = `/${t}`;
  }
  const hash = t.indexOf('#');
  if (hash >= 0) t = t.slice(0, hash);
  const q = t.indexOf('?');
  return q < 0 ? { path: t, search: '' } : { path: t.slice(0, q), search: t.slice(q) };
}

/** Percent-decodes once as UTF-8, or throws `invalid()`: no lenient fallback, one spelling per name. */
function decodeStrict(s: string, invalid: () => S3Error): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw invalid();
  }
}

/**
 * A key from its path form. An undecodable key is R2's invalid key, 400 InvalidObjectName (the
 * binding's 10020, "The specified object name is not valid.": docs/sources/r2-s3.md#errors,
 * docs/sources/r2-binding.md#keys).
 */
export const decodeKey = (s: string): string => decodeStrict(s, s3Errors.invalidObjectName);

/** A bucket name from its path form: no bucket is named by bytes that are not UTF-8 (400 InvalidBucketName). */
export const decodeBucketName = (s: string): string => decodeStrict(s, invalidBucketName);

const invalidBucketName = (): S3Error => new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.');

const HEX = '0123456789ABCDEF';
const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** Only unreserved characters: already canonical (most keys and every SDK query name), kept as is. */
const ALL_UNRESERVED = /^[A-Za-z0-9\-._~]*$/;
const encoder = new TextEncoder();

/**
 * SigV4's `UriEncode` of a component as sent: `%XX` escapes are taken as the bytes they name, other
 * characters as their UTF-8 bytes, and the bytes re-encoded (RFC 3986 unreserved kept, the rest
 * `%XX` in upper case). Works on bytes, so `%FF` stays `%FF` and a stray `%` becomes `%25`, as a
 * signer that encoded those bytes wrote them.
 */
export function canonicalEncode(s: string): string {
  if (ALL_UNRESERVED.test(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      const byte = parseInt(s.slice(i + 1, i + 3), 16);
      const ch = String.fromCharCode(byte);
      out += byte < 0x80 && UNRESERVED.test(ch) ? ch : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
      i += 2;
      continue;
    }
    if (UNRESERVED.test(c)) {
      out += c;
      continue;
    }
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    for (const b of encoder.encode(String.fromCodePoint(cp))) out += `%${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}
