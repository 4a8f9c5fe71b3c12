/**
 * Object metadata between S3 headers and the bucket model: the six HTTP fields, `x-amz-meta-*`
 * (names lowercased, as Headers hands them over; non-ASCII values RFC 2047-encoded on the wire),
 * and the headers GET and HEAD answer with (docs/sources/r2-s3.md#object-headers).
 */
import { parseHeaderDate, type CustomFields, type HttpFields } from '../bucket/metadata.js';
import { fromUtf8, utf8 } from '../bytes.js';
import type { StoredObject } from '../bucket/stored.js';
import { fromBase64, toBase64 } from './checksums.js';

const HTTP_HEADERS = [
  ['content-type', 'contentType'],
  ['content-language', 'contentLanguage'],
  ['content-disposition', 'contentDisposition'],
  ['content-encoding', 'contentEncoding'],
  ['cache-control', 'cacheControl'],
] as const;

export function httpFieldsFromHeaders(h: Headers): HttpFields {
  const out: { -readonly [K in keyof HttpFields]: HttpFields[K] } = {};
  for (const [header, field] of HTTP_HEADERS) {
    const v = h.get(header);
    if (v !== null) out[field] = v;
  }
  const expires = h.get('expires');
  if (expires !== null) out.cacheExpiry = parseHeaderDate(expires);
  return out;
}

const ENCODED_WORD = /^=\?UTF-8\?([BQ])\?([^?]*)\?=$/i;

/** RFC 2047: `=?UTF-8?B?...?=` / `=?UTF-8?Q?...?=` decoded; anything else as sent. */
function decodeMetaValue(v: string): string {
  const m = ENCODED_WORD.exec(v);
  if (!m) return v;
  if (m[1]!.toUpperCase() === 'B') {
    const bytes = fromBase64(m[2]!);
    return bytes ? fromUtf8(bytes) : v;
  }
  const q = m[2]!.replace(/_/g, ' ');
  const bytes: number[] = [];
  for (let i = 0; i < q.length; i++) {
    if (q[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(q.slice(i + 1, i + 3))) {
      bytes.push(parseInt(q.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(q.charCodeAt(i));
  }
  return fromUtf8(new Uint8Array(bytes));
}

const PRINTABLE_ASCII = /^[\x20-\x7e\t]*$/;

export function customFieldsFromHeaders(h: Headers): CustomFields {
  const out: [string, string][] = [];
  h.forEach((value, name) => {
    if (name.startsWith('x-amz-meta-')) out.push([name.slice('x-amz-meta-'.length), decodeMetaValue(value)]);
  });
  return out;
}

/**
 * A header value as its UTF-8 bytes on the wire: `Headers` holds byte strings, and a value written
 * through the binding may hold any character (a filename in Content-Disposition, say).
 */
function wireValue(v: string): string {
  // eslint-disable-next-line no-control-regex -- a byte range, control characters included
  if (/^[\x00-\xff]*$/.test(v)) return v;
  let s = '';
  for (const b of utf8(v)) s += String.fromCharCode(b);
  return s;
}

/** Leading and trailing HTTP whitespace, which `Headers` strips from a value (Fetch: "normalize"). */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const NOT_CARRIABLE = /[\0\r\n]/;

/**
 * A value as `Headers` would keep it (normalized), or undefined for one it would refuse: a line
 * break inside, written through the binding. Checked here so the answer's headers can be a plain
 * record (below) and a bad value still only drops its header.
 */
function headerValue(v: string): string | undefined {
  const normalized = v.replace(EDGE_WHITESPACE, '');
  return NOT_CARRIABLE.test(normalized) ? undefined : normalized;
}

/** The HTTP date of `ms` (toUTCString), the last one kept: objects written together share their second. */
let lastSecond = NaN;
let lastHttpDate = '';
function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastHttpDate = new Date(ms).toUTCString();
    lastSecond = second;
  }
  return lastHttpDate;
}

/**
 * The headers of a GET / HEAD answer that describe the object, as a plain record (lowercase names,
 * values as `Headers` keeps them) for `new Response`: filling a `Headers` first, which the Response
 * then copies (each value checked twice), was a visible part of a small GetObject's cost.
 */
export function objectHeaders(o: StoredObject): Record<string, string> {
  const out: Record<string, string> = {};
  const http = o.http;
  for (const [name, field] of HTTP_HEADERS) {
    const v = field === 'contentType' ? (http.contentType ?? 'application/octet-stream') : http[field];
    // A value no header can carry (a line break, written through the binding) is left out.
    const value = v === undefined ? undefined : headerValue(wireValue(v));
    if (value !== undefined) out[name] = value;
  }
  if (http.cacheExpiry !== undefined) out.expires = new Date(http.cacheExpiry).toUTCString();
  out.etag = `"${o.etag}"`;
  out['last-modified'] = httpDate(o.uploaded);
  out['accept-ranges'] = 'bytes';
  // Names S3 cannot carry (non-ASCII, written through the binding) are left out and counted.
  let missing = 0;
  for (const [name, value] of o.custom) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
      missing++;
      continue;
    }
    const wire = PRINTABLE_ASCII.test(value) && value.trim() === value ? value : `=?UTF-8?B?${toBase64(utf8(value))}?=`;
    out[`x-amz-meta-${name.toLowerCase()}`] = wire;
  }
  if (missing > 0) out['x-amz-missing-meta'] = String(missing);
  if (o.ssecKeyMd5 !== undefined) {
    out['x-amz-server-side-encryption-customer-algorithm'] = 'AES256';
    out['x-amz-server-side-encryption-customer-key-md5'] = o.ssecKeyMd5;
  }
  return out;
}

/** S3's storage class names for the binding's. */
export const s3StorageClass = (binding: string): string =>
  binding === 'InfrequentAccess' ? 'STANDARD_IA' : 'STANDARD';
