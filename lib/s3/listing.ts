/**
 * ListObjects (v1) and ListObjectsV2 over the bucket model's listing (one sorted walk per page,
 * O(log n + page)), with R2's parameter rules (docs/sources/r2-s3.md#listing): unknown parameters →
 * 501, `max-keys` floored, 0 allowed, clamped to 1000 but echoed; `encoding-type=url` only; v1's
 * NextMarker whenever truncated, even without a delimiter.
 */
import { encodeRfc3986 } from './sigv4.js';
import { invalidArgument, notImplemented, s3Errors } from './errors.js';
import { isoTime, xmlResponse, type S3Context } from './context.js';
import { s3StorageClass } from './metadata.js';
import { screenHeaders } from './screening.js';
import type { StoredObject } from '../bucket/stored.js';
import { escapeXml, XmlElements } from './xml.js';

const V1_PARAMS = new Set(['prefix', 'delimiter', 'marker', 'max-keys', 'encoding-type']);
const V2_PARAMS = new Set([
  'list-type',
  'prefix',
  'delimiter',
  'continuation-token',
  'start-after',
  'max-keys',
  'encoding-type',
  'fetch-owner',
]);

/** Query parameters no operation reads: the SDK's `x-id`, R2's ignored `x-purpose`, the presigning ones. */
export const isIgnoredParam = (name: string): boolean =>
  name.startsWith('X-Amz-') || name === 'x-id' || name === 'x-purpose';

/** `max-keys`: what is echoed, and the page size used. */
export function readMaxKeys(v: string | null, fallback = 1000): { echo: number; limit: number } {
  if (v === null) return { echo: fallback, limit: fallback };
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw s3Errors.invalidMaxKeys();
  const floored = Math.floor(n);
  return { echo: floored, limit: Math.min(floored, 1000) };
}

function readEncoding(q: URLSearchParams): ((s: string) => string) | undefined {
  const v = q.get('encoding-type');
  if (v === null) return undefined;
  if (v !== 'url') throw notImplemented(`Unrecognized encoding-type "${v}"`);
  return encodeRfc3986;
}

/**
 * A page's `<Contents>` elements, written directly: a page holds up to a thousand, and building an
 * object for each to serialize was most of a page's cost. The same bytes xmlDocument writes for
 * `{ Contents: [{ Key, LastModified, ETag, Size, StorageClass }, ...] }` (spec/s3/xml-serializer.test.ts).
 * Appended piece by piece: one long chain of strings is cheaper to flatten, when the Response turns
 * it into bytes, than a thousand small trees. The ETag is the model's hex digest (`-N` for multipart
 * objects) and the storage class one of two names, so neither has anything to escape.
 */
export function contentsXml(objects: readonly StoredObject[], enc: (s: string) => string): XmlElements {
  let xml = '';
  for (const o of objects) {
    xml += '<Contents><Key>';
    xml += escapeXml(enc(o.key));
    xml += '</Key><LastModified>';
    xml += isoTime(o.uploaded);
    xml += '</LastModified><ETag>&quot;';
    xml += o.etag;
    xml += '&quot;</ETag><Size>';
    xml += o.size;
    xml += '</Size><StorageClass>';
    xml += s3StorageClass(o.storageClass);
    xml += '</StorageClass></Contents>';
  }
  return new XmlElements(xml);
}

export async function listObjects(ctx: S3Context): Promise<Response> {
  screenHeaders('ListObjects', ctx.headers);
  const q = ctx.query;
  const listType = q.get('list-type');
  if (listType !== null && listType !== '2') throw notImplemented(`ListObjectsV${listType}`);
  const v2 = listType === '2';
  if (!v2 && q.has('continuation-token')) throw invalidArgument('continuation-token not supported in ListObjects');
  const allowed = v2 ? V2_PARAMS : V1_PARAMS;
  for (const name of q.keys()) {
    if (!allowed.has(name) && !isIgnoredParam(name))
      throw notImplemented(`ListObjectsV${v2 ? 2 : 1} search parameter ${name}`);
  }
  const encode = readEncoding(q);
  const enc = encode ?? ((s: string) => s);
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') || undefined;
  const { echo, limit } = readMaxKeys(q.get('max-keys'));
  const bucket = ctx.bucket;
  const logged = { operation: v2 ? 'ListObjectsV2' : 'ListObjects' };

  let startAfter: string | undefined;
  let cursor: string | undefined;
  let afterGroup: string | undefined;
  if (v2) {
    startAfter = q.get('start-after') ?? undefined;
    cursor = q.get('continuation-token') ?? undefined;
  } else {
    const marker = q.get('marker') ?? undefined;
    // A marker naming a common prefix (our NextMarker can) resumes after the whole group: the model
    // skips it as it skips the groups it reports (key-index.ts, afterPrefix).
    if (marker !== undefined && delimiter && marker.endsWith(delimiter) && marker.startsWith(prefix))
      afterGroup = marker;
    else startAfter = marker;
  }

  let objects: StoredObject[] = [];
  let prefixes: string[] = [];
  let next: string | undefined;
  let truncated: boolean;
  if (limit === 0) {
    // Nothing is listed, but the answer still says whether anything matches.
    const probe = await bucket.viaS3('list', undefined, logged, () =>
      bucket.list({ limit: 1, prefix, startAfter, cursor, delimiter, afterGroup }),
    );
    truncated = probe.objects.length + probe.delimitedPrefixes.length > 0;
  } else {
    const page = await bucket.viaS3('list', undefined, logged, () =>
      bucket.list({ limit, prefix, startAfter, cursor, delimiter, afterGroup }),
    );
    objects = page.objects;
    prefixes = page.delimitedPrefixes;
    truncated = page.cursor !== undefined;
    next = page.cursor;
  }

  const content: Record<string, unknown> = { Name: ctx.bucketName };
  content.Contents = contentsXml(objects, enc);
  content.IsTruncated = truncated;
  if (prefixes.length) content.CommonPrefixes = prefixes.map((p) => ({ Prefix: enc(p) }));
  content.Prefix = enc(prefix);
  if (delimiter !== undefined) content.Delimiter = enc(delimiter);
  content.MaxKeys = echo;
  if (encode) content.EncodingType = 'url';
  if (v2) {
    if (q.has('start-after')) content.StartAfter = enc(q.get('start-after')!);
    if (cursor !== undefined) content.ContinuationToken = cursor;
    if (truncated && next !== undefined) content.NextContinuationToken = next;
    content.KeyCount = objects.length + prefixes.length;
  } else {
    content.Marker = enc(q.get('marker') ?? '');
    if (truncated && limit > 0) {
      // The last item returned, object or common prefix, whichever sorts last.
      const lastKey = objects.length ? objects[objects.length - 1]!.key : undefined;
      const lastPrefix = prefixes.length ? prefixes[prefixes.length - 1] : undefined;
      const last =
        lastKey === undefined
          ? lastPrefix
          : lastPrefix === undefined
            ? lastKey
            : lastKey > lastPrefix
              ? lastKey
              : lastPrefix;
      if (last !== undefined) content.NextMarker = enc(last);
    }
  }
  return xmlResponse('ListBucketResult', content);
}
