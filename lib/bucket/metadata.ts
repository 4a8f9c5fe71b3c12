/**
 * HTTP and custom metadata: how the binding reads them from options, how they are stored (plain,
 * immutable data), how they are handed out (fresh copies) and `writeHttpMetadata`.
 */
import { fieldTypeError } from './errors.js';
import { heldString, isHeaders, isObjectLike, optionalDateField, sentDate, toStr } from './coerce.js';
import type { HeadersLike, R2HTTPMetadata } from './types.js';

/** Stored HTTP metadata: strings and the expiry in epoch ms. */
export interface HttpFields {
  readonly contentType?: string;
  readonly contentLanguage?: string;
  readonly contentDisposition?: string;
  readonly contentEncoding?: string;
  readonly cacheControl?: string;
  readonly cacheExpiry?: number;
}

/** Stored custom metadata, in the caller's insertion order. */
export type CustomFields = readonly (readonly [string, string])[];

const STRING_FIELDS = [
  'contentType',
  'contentLanguage',
  'contentDisposition',
  'contentEncoding',
  'cacheControl',
] as const;

/** The header each field is written to (and read from, for a Headers argument). */
const HEADER_OF = {
  contentType: 'content-type',
  contentLanguage: 'content-language',
  contentDisposition: 'content-disposition',
  contentEncoding: 'content-encoding',
  cacheControl: 'cache-control',
} as const;

/** JS date parsing as workerd applies it to header values: unparseable means epoch 0. */
export function parseHeaderDate(value: string): number {
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? 0 : ms;
}

/** What objects written without HTTP metadata share (stored fields are never mutated). */
const NO_HTTP_FIELDS: HttpFields = Object.freeze({});

/** What objects written without custom metadata share. */
export const NO_CUSTOM_FIELDS: CustomFields = Object.freeze([]);

/** `httpMetadata` of put / createMultipartUpload, as an object or as Headers. */
export function parseHttpMetadata(v: unknown, struct: string): HttpFields {
  if (v === undefined || v === null) return NO_HTTP_FIELDS;
  if (isHeaders(v)) {
    const out: { -readonly [K in keyof HttpFields]: HttpFields[K] } = {};
    for (const f of STRING_FIELDS) {
      const h = v.get(HEADER_OF[f]);
      if (h !== null) out[f] = h;
    }
    const expires = v.get('expires');
    if (expires !== null) out.cacheExpiry = parseHeaderDate(expires);
    return out;
  }
  if (!isObjectLike(v)) throw fieldTypeError('httpMetadata', struct, 'HttpMetadata or Headers');
  const out: { -readonly [K in keyof HttpFields]: HttpFields[K] } = {};
  for (const f of STRING_FIELDS) {
    const s = v[f];
    if (s !== undefined) out[f] = toStr(s);
  }
  const expiry = optionalDateField(v, 'cacheExpiry', 'HttpMetadata');
  if (expiry !== undefined) out.cacheExpiry = expiry;
  return out;
}

/**
 * The fields R2 receives, and so stores: a cacheExpiry of -1 ms is not sent (`sentDate`). The put
 * result still shows the fields as given: workerd builds it from them (measured on 1.20261117.1:
 * the result says 1969-12-31T23:59:59.999Z, head says nothing).
 */
export function sentHttpFields(f: HttpFields): HttpFields {
  if (f.cacheExpiry === undefined || sentDate(f.cacheExpiry) !== undefined) return f;
  const { cacheExpiry: _, ...sent } = f;
  return sent;
}

/** `customMetadata`: a plain dictionary whose values become strings. */
export function parseCustomMetadata(v: unknown, struct: string): CustomFields | undefined {
  if (v === undefined) return undefined;
  if (!isObjectLike(v) || Array.isArray(v)) throw fieldTypeError('customMetadata', struct, 'object');
  return Object.keys(v).map((k) => [heldString(k), toStr(v[k])] as const);
}

/** R2's limit on custom metadata (names and values together), in `measure`'s units. */
export const CUSTOM_METADATA_LIMIT = 8192;

/**
 * How R2 (the local one; production's measure is not documented) sizes a name or a value: its
 * UTF-16 length, doubled when any code unit is above U+00FF, i.e. the bytes a JS engine stores it
 * in. For ASCII and for 4-byte characters that is the UTF-8 byte count; 'é' counts 1, not 2, and a
 * lone surrogate (held as three U+FFFD) counts 6 once the string is doubled.
 */
function measure(s: string): number {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return s.length * 2;
  return s.length;
}

export function customMetadataSize(fields: CustomFields): number {
  // Indexed: a for-of made an iterator on every put, most of which have no custom metadata.
  let n = 0;
  for (let i = 0; i < fields.length; i++) n += measure(fields[i]![0]) + measure(fields[i]![1]);
  return n;
}

/** A fresh, caller-owned copy of stored HTTP metadata. */
export function httpMetadataObject(f: HttpFields): R2HTTPMetadata {
  const out: R2HTTPMetadata = {};
  if (f === NO_HTTP_FIELDS) return out; // the common case, and the cheapest test for it
  for (const k of STRING_FIELDS) if (f[k] !== undefined) out[k] = f[k];
  if (f.cacheExpiry !== undefined) out.cacheExpiry = new Date(f.cacheExpiry);
  return out;
}

/**
 * A fresh, caller-owned copy of stored custom metadata, as workerd builds it, by assignment: names
 * like `constructor` are plain own data, while `__proto__` (stored and counted) meets the prototype
 * setter, which ignores a string, so it never shows. Skipped by name here rather than left to the
 * setter: Deno removes `Object.prototype.__proto__`, and there the assignment would make it own data.
 */
export function customMetadataObject(f: CustomFields): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < f.length; i++) if (f[i]![0] !== '__proto__') out[f[i]![0]] = f[i]![1];
  return out;
}

/**
 * `writeHttpMetadata`: sets (overwrites) each present field's header and leaves other headers alone.
 * It writes what was stored, not the result's (mutable) `httpMetadata` object, and refuses values a
 * header cannot hold before writing any.
 */
export function writeHttpFields(key: string, f: HttpFields | undefined, headers: HeadersLike): void {
  if (f === undefined) {
    throw new TypeError(
      `HTTP metadata unknown for key \`${key}\`. Did you forget to add 'httpMetadata' to \`include\` when listing?`,
    );
  }
  const writes: [string, string][] = [];
  for (const k of STRING_FIELDS) {
    const v = f[k];
    if (v === undefined) continue;
    if (/[\r\n\0]/.test(v)) throw new TypeError('Invalid header value.');
    writes.push([HEADER_OF[k], v]);
  }
  if (f.cacheExpiry !== undefined) writes.push(['expires', new Date(f.cacheExpiry).toUTCString()]);
  for (const [name, value] of writes) headers.set(name, value);
}
