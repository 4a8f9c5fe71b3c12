/**
 * Object metadata between S3 headers and the bucket model: the six HTTP fields, `x-amz-meta-*`
 * (names lowercased, as Headers hands them over; non-ASCII values RFC 2047-encoded on the wire),
 * and the headers GET and HEAD answer with (reference §3.2, §4).
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
export function decodeMetaValue(v: string): string {
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
  if (/^[\x00-\xff]*$/.test(v)) return v;
  let s = '';
  for (const b of utf8(v)) s += String.fromCharCode(b);
  return s;
}

/** The headers of a GET / HEAD answer that describe the object. */
export function writeObjectHeaders(o: StoredObject, out: Headers): void {
  const set = (name: string, v: string | undefined) => {
    if (v === undefined) return;
    try {
      out.set(name, wireValue(v));
    } catch {
      /* a value no header can carry (a line break, written through the binding) is left out */
    }
  };
  set('content-type', o.http.contentType ?? 'application/octet-stream');
  set('content-language', o.http.contentLanguage);
  set('content-disposition', o.http.contentDisposition);
  set('content-encoding', o.http.contentEncoding);
  set('cache-control', o.http.cacheControl);
  if (o.http.cacheExpiry !== undefined) out.set('expires', new Date(o.http.cacheExpiry).toUTCString());
  out.set('etag', `"${o.etag}"`);
  out.set('last-modified', new Date(o.uploaded).toUTCString());
  out.set('accept-ranges', 'bytes');
  // Names S3 cannot carry (non-ASCII, written through the binding) are left out and counted.
  let missing = 0;
  for (const [name, value] of o.custom) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
      missing++;
      continue;
    }
    const wire = PRINTABLE_ASCII.test(value) && value.trim() === value ? value : `=?UTF-8?B?${toBase64(utf8(value))}?=`;
    out.set(`x-amz-meta-${name.toLowerCase()}`, wire);
  }
  if (missing > 0) out.set('x-amz-missing-meta', String(missing));
  if (o.ssecKeyMd5 !== undefined) {
    out.set('x-amz-server-side-encryption-customer-algorithm', 'AES256');
    out.set('x-amz-server-side-encryption-customer-key-md5', o.ssecKeyMd5);
  }
}

/** S3's storage class names for the binding's. */
export const s3StorageClass = (binding: string): string => (binding === 'InfrequentAccess' ? 'STANDARD_IA' : 'STANDARD');
