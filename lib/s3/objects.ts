/**
 * Object operations: Get / Head / Put / Delete Object, DeleteObjects, CopyObject. Each reads the
 * request's headers into the plain values the bucket takes, calls the bucket's layer (the binding's
 * own rules and state, in one storage transaction, with faults and the call log around), and
 * shapes the answer as R2 does.
 */
import type { Conditional } from '../bucket/conditional.js';
import type { BucketLayer } from '../bucket/layer.js';
import type { BodyBytes } from '../bucket/storage.js';
import type { RequestedChecksum } from '../bucket/checksums.js';
import type { StoredObject, ObjectMetadata } from '../bucket/stored.js';
import type { Body } from '../bucket/values.js';
import type { ResolvedRange } from '../bucket/range.js';
import { concat, toHex } from '../bytes.js';
import { digestHex } from '../hash.js';
import { checksumBytes, DIGEST_LENGTH, fromBase64, S3_CHECKSUMS, toBase64 } from './checksums.js';
import { evaluateRead, readConditional, resolveS3Range } from './conditions.js';
import { bodyText, isoTime, xmlResponse, type S3Context, type RequestBody } from './context.js';
import { badDigest, invalidArgument, notImplemented, s3Errors } from './errors.js';
import { readPartNumber } from './multipart.js';
import { customFieldsFromHeaders, httpFieldsFromHeaders, objectHeaders } from './metadata.js';
import { screenHeaders, storageClassFrom } from './screening.js';
import { decodeBucketName, decodeKey } from './paths.js';
import { checkHeaderValue } from './header-values.js';
import { checkReadKey, readSsec } from './ssec.js';
import { parseXml, textOf } from './xml.js';

// ---- reads -----------------------------------------------------------------------------------

const RESPONSE_OVERRIDES = [
  ['response-content-type', 'content-type'],
  ['response-content-language', 'content-language'],
  ['response-expires', 'expires'],
  ['response-cache-control', 'cache-control'],
  ['response-content-disposition', 'content-disposition'],
  ['response-content-encoding', 'content-encoding'],
] as const;

/** A response body from bytes the layer read: one buffer, or a stream pulled from the storage. */
function responseBody(bytes: BodyBytes, length: number): BodyInit {
  if (bytes.kind === 'chunks')
    return (bytes.chunks.length === 1 ? bytes.chunks[0]! : concat(bytes.chunks, length)) as Uint8Array<ArrayBuffer>;
  const pieces = bytes.pieces();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

/** What a read answers with, decided from the object inside the read's transaction. */
interface ReadAnswer {
  readonly status: number;
  /** Lowercase names (objectHeaders): a plain record, which `new Response` takes as it is. */
  readonly headers: Record<string, string>;
  /** The bytes to send (GET only, and only when there are any). */
  readonly read?: ResolvedRange;
}

/** GetObject and HeadObject. */
export async function readObject(ctx: S3Context): Promise<Response> {
  const head = ctx.method === 'HEAD';
  screenHeaders(head ? 'HeadObject' : 'GetObject', ctx.headers);
  // Arguments first: a value no header can carry is refused whether or not the object exists.
  const overrides: [string, string][] = [];
  for (const [param, header] of RESPONSE_OVERRIDES) {
    const v = ctx.query.get(param);
    if (v !== null) overrides.push([header, checkHeaderValue(param, v)]);
  }
  const { plan: answer, bytes } = await ctx.bucket.viaS3(
    head ? 'head' : 'get',
    ctx.key,
    { operation: head ? 'HeadObject' : 'GetObject' },
    () => ctx.bucket.read(ctx.key, (object) => answerRead(ctx, object, head, overrides)),
  );
  if (!bytes) return new Response(null, { status: answer.status, headers: answer.headers });
  return new Response(responseBody(bytes, answer.read!.length), { status: answer.status, headers: answer.headers });
}

/** A read's answer from the object found: R2's checks in R2's order (throws to refuse). */
function answerRead(
  ctx: S3Context,
  object: StoredObject | undefined,
  head: boolean,
  overrides: readonly [string, string][],
): ReadAnswer {
  if (!object) throw s3Errors.noSuchKey();
  const ssec = readSsec(ctx.headers);
  checkReadKey(object.ssecKeyMd5, ssec);
  const verdict = evaluateRead(readConditional(ctx.headers), object);
  if (verdict === 'failed') throw s3Errors.preconditionFailed();
  if (verdict === 'not-modified') return { status: 304, headers: objectHeaders(object) };
  const rangeHeader = ctx.headers.get('range');
  const partNumber = ctx.query.get('partNumber');
  let range: ResolvedRange | undefined;
  let partsCount: number | undefined;
  if (partNumber !== null) {
    if (rangeHeader !== null) throw s3Errors.rangeWithPartNumber();
    range = partRange(object, readPartNumber(partNumber));
    partsCount = object.parts?.count;
  } else if (rangeHeader !== null) {
    range = resolveS3Range(rangeHeader, object.size);
  }
  const headers = objectHeaders(object);
  if (partsCount !== undefined) headers['x-amz-mp-parts-count'] = String(partsCount);
  for (const [header, v] of overrides) headers[header] = v;
  const whole = { offset: 0, length: object.size };
  const served = range ?? whole;
  headers['content-length'] = String(served.length);
  // An empty range has no `bytes a-b/n` form: it is served whole, as 200.
  if (range?.length === 0) range = undefined;
  if (range) headers['content-range'] = `bytes ${range.offset}-${range.offset + range.length - 1}/${object.size}`;
  const status = range ? 206 : 200;
  return head || served.length === 0 ? { status, headers } : { status, headers, read: served };
}

/**
 * The bytes of part `n`, served as a range (206, `Content-Range`, the whole object's etag, and
 * `x-amz-mp-parts-count` for a multipart object), as S3 does: minio/minio#11989 and
 * seaweedfs/seaweedfs#11166 show AWS's answer. A single-part object is one part: `partNumber=1` is
 * all of it, still a 206 with `Content-Range` (S3's answer quoted in versitygw/versitygw#2074).
 */
function partRange(object: StoredObject, n: number): ResolvedRange {
  const layout = object.parts;
  // A multipart object read back from a store that predates part layouts: its boundaries are unknown.
  if (!layout && object.etag.includes('-')) throw notImplemented('partNumber');
  const count = layout?.count ?? 1;
  if (n > count) throw s3Errors.invalidPartNumber();
  if (!layout) return { offset: 0, length: object.size };
  const offset = (n - 1) * layout.size;
  return { offset, length: n === count ? object.size - offset : layout.size };
}

// ---- writes ----------------------------------------------------------------------------------

/** Content-MD5 and `x-amz-checksum-*`: checked against the body; the one R2 also keeps is returned. */
function checkIntegrity(
  headers: Headers,
  body: RequestBody,
  query?: URLSearchParams,
): { keep?: RequestedChecksum; md5?: string; echo: [string, string][] } {
  const echo: [string, string][] = [];
  let md5: string | undefined;
  const contentMd5 = headers.get('content-md5');
  if (contentMd5 !== null) {
    const given = fromBase64(contentMd5.trim());
    if (!given || given.byteLength !== 16) throw s3Errors.invalidDigest();
    md5 = digestHex('md5', body.chunks);
    if (toHex(given) !== md5) throw badDigest('MD5', toHex(given), md5);
  }
  let keep: RequestedChecksum | undefined;
  for (const alg of S3_CHECKSUMS) {
    const name = `x-amz-checksum-${alg}`;
    // A presigned URL carries signed headers as query parameters: the AWS SDKs (JS 3.729 and
    // later) put the empty body's CRC32 there, which R2 then checks against the real body
    // (kyantech/Palmr#378, crafter-station/petdex#465).
    const value = headers.get(name) ?? body.trailers.get(name) ?? query?.get(name) ?? null;
    if (value === null) continue;
    const given = fromBase64(value.trim());
    if (!given || given.byteLength !== DIGEST_LENGTH[alg]) throw s3Errors.invalidDigest();
    const actual = checksumBytes(alg, body.chunks);
    if (toHex(given) !== toHex(actual)) throw badDigest(alg.toUpperCase(), value.trim(), toBase64(actual));
    echo.push([name, value.trim()]);
    // SHA-1 and SHA-256 share storage with the binding's checksums (R2 release notes, 2023-06-16).
    if (alg === 'sha1' || alg === 'sha256') keep ??= { alg, expected: toHex(actual) };
  }
  return { keep, md5, echo };
}

/** The metadata a write carries, read from its headers. */
export function metadataFromHeaders(ctx: S3Context, ssecKeyMd5: string | undefined): ObjectMetadata {
  const http = httpFieldsFromHeaders(ctx.headers);
  // `aws-chunked` describes the transfer, not the object: it is not stored.
  if (http.contentEncoding !== undefined && /aws-chunked/.test(http.contentEncoding)) {
    const rest = http.contentEncoding
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '' && s !== 'aws-chunked')
      .join(', ');
    const { contentEncoding: _, ...others } = http;
    return {
      http: rest === '' ? others : { ...others, contentEncoding: rest },
      custom: customFieldsFromHeaders(ctx.headers),
      storageClass: storageClassFrom(ctx.headers, ctx.bucket.defaultStorageClass),
      ssecKeyMd5,
    };
  }
  return {
    http,
    custom: customFieldsFromHeaders(ctx.headers),
    storageClass: storageClassFrom(ctx.headers, ctx.bucket.defaultStorageClass),
    ssecKeyMd5,
  };
}

/** PutObject (also `POST /<bucket>/<key>`, which R2 stores as a PutObject). */
export async function putObject(ctx: S3Context): Promise<Response> {
  screenHeaders('PutObject', ctx.headers);
  const ssec = readSsec(ctx.headers);
  const metadata = metadataFromHeaders(ctx, ssec);
  const cond = readConditional(ctx.headers);
  const body = await ctx.body();
  const { keep, md5, echo } = checkIntegrity(ctx.headers, body, ctx.query);
  const stored = await ctx.bucket.viaS3('put', ctx.key, { operation: 'PutObject' }, () =>
    ctx.bucket.put(ctx.key, md5 ? { ...body, md5 } : body, metadata, keep, cond),
  );
  if (!stored) throw s3Errors.preconditionFailed();
  const headers = new Headers(echo);
  headers.set('etag', `"${stored.etag}"`);
  if (ssec) {
    headers.set('x-amz-server-side-encryption-customer-algorithm', 'AES256');
    headers.set(
      'x-amz-server-side-encryption-customer-key-md5',
      ctx.headers.get('x-amz-server-side-encryption-customer-key-md5')!,
    );
  }
  return new Response(null, { status: 200, headers });
}

export async function deleteObject(ctx: S3Context): Promise<Response> {
  screenHeaders('DeleteObject', ctx.headers);
  await ctx.bucket.viaS3('delete', ctx.key, { operation: 'DeleteObject' }, () => ctx.bucket.delete([ctx.key]));
  return new Response(null, { status: 204 });
}

/** DeleteObjects: 1..1000 keys; `Quiet` is validated, then ignored: every key is reported deleted. */
export async function deleteObjects(ctx: S3Context): Promise<Response> {
  screenHeaders('DeleteObjects', ctx.headers);
  const body = await ctx.body();
  checkIntegrity(ctx.headers, body);
  const doc = await parseXml(await bodyText(ctx));
  const root = doc?.Delete;
  if (!root || typeof root !== 'object') throw s3Errors.malformedXml();
  const { Object: objects, Quiet: quiet } = root as { Object?: unknown[]; Quiet?: unknown };
  if (quiet !== undefined && quiet !== 'true' && quiet !== 'false') throw s3Errors.malformedXml();
  if (!Array.isArray(objects) || objects.length === 0 || objects.length > 1000) throw s3Errors.malformedXml();
  const keys = objects.map((o) => {
    const key = o && typeof o === 'object' ? textOf((o as Record<string, unknown>).Key) : undefined;
    if (key === undefined) throw s3Errors.malformedXml();
    return key;
  });
  // Temporary credentials reach only their paths (temporary-access.ts): one key outside refuses the whole request.
  if (ctx.covers && !keys.every(ctx.covers)) throw s3Errors.accessDenied();
  await ctx.bucket.viaS3('delete', keys, { operation: 'DeleteObjects' }, () => ctx.bucket.delete(keys));
  return xmlResponse('DeleteResult', { Deleted: keys.map((Key) => ({ Key })) });
}

// ---- copies ----------------------------------------------------------------------------------

/** `x-amz-copy-source`: `/bucket/key` (the slash optional), percent-decoded once, `?versionId` dropped. */
export function copySource(ctx: Pick<S3Context, 'headers'>): { bucket: string; key: string } {
  let v = ctx.headers.get('x-amz-copy-source')!;
  const q = v.indexOf('?versionId=');
  if (q >= 0) v = v.slice(0, q);
  if (v.startsWith('/')) v = v.slice(1);
  const slash = v.indexOf('/');
  if (slash <= 0) throw invalidArgument('copy source bucket name');
  // Decoded as a path is (paths.ts): a name that is not UTF-8 is refused, never kept as typed.
  return { bucket: decodeBucketName(v.slice(0, slash)), key: decodeKey(v.slice(slash + 1)) };
}

/** A copy's source: the object, and the bucket it is in. */
export interface CopySource {
  readonly object: StoredObject;
  readonly from: BucketLayer;
}

/** The source object of a copy, its SSE-C key checked and its `x-amz-copy-source-if-*` honoured. */
export async function copySourceObject(ctx: S3Context, checkConditions: boolean): Promise<CopySource> {
  const src = copySource(ctx);
  const from = ctx.lookup(src.bucket);
  if (!from) throw s3Errors.noSuchBucket();
  const { object } = await from.read(src.key, (object) => {
    if (!object) throw s3Errors.noSuchKey();
    checkReadKey(object.ssecKeyMd5, readSsec(ctx.headers, 'x-amz-copy-source-'));
    if (checkConditions) {
      const cond = readConditional(ctx.headers, 'x-amz-copy-source-');
      if (cond && evaluateRead(cond, object) !== 'ok') throw s3Errors.preconditionFailed();
    }
    return {};
  });
  return { object: object!, from };
}

/**
 * A copy source's bytes as a body for another write, read through its bucket (on a persistent
 * storage the object's bytes are in the database, not in memory). In memory its chunks are shared
 * (never mutated); a body the storage streams is gathered first.
 */
export async function bodyOf({ object, from }: CopySource, range?: ResolvedRange): Promise<Body> {
  const read = await from.bytes(object, range ?? { offset: 0, length: object.size });
  const chunks: Uint8Array[] = [];
  if (read.kind === 'chunks') chunks.push(...read.chunks);
  else for (let it = read.pieces(), next = await it.next(); !next.done; next = await it.next()) chunks.push(next.value);
  if (range) return { chunks, size: range.length };
  // A single-part object's md5 is its etag: carried over, not recomputed.
  const md5 = object.etagKnown && !object.etag.includes('-') ? object.etag : undefined;
  return { chunks, size: object.size, md5 };
}

/** CopyObject with COPY / REPLACE / MERGE (R2's extension) metadata directives. */
export async function copyObject(ctx: S3Context): Promise<Response> {
  screenHeaders('CopyObject', ctx.headers);
  const directive = ctx.headers.get('x-amz-metadata-directive') ?? 'COPY';
  if (directive !== 'COPY' && directive !== 'REPLACE' && directive !== 'MERGE')
    throw invalidArgument(`metadata directive ${directive}.`);
  const copied = await copySourceObject(ctx, true);
  const source = copied.object;
  const ssec = readSsec(ctx.headers);
  const given = metadataFromHeaders(ctx, ssec);
  let metadata: ObjectMetadata;
  if (directive === 'REPLACE') metadata = given;
  else if (directive === 'COPY') {
    metadata = {
      http: source.http,
      custom: source.custom,
      storageClass: ctx.headers.has('x-amz-storage-class') ? given.storageClass : source.storageClass,
      ssecKeyMd5: ssec,
    };
  } else {
    const custom = new Map(source.custom);
    for (const [k, v] of given.custom) custom.set(k, v);
    metadata = {
      http: { ...source.http, ...given.http },
      custom: [...custom],
      storageClass: ctx.headers.has('x-amz-storage-class') ? given.storageClass : source.storageClass,
      ssecKeyMd5: ssec,
    };
  }
  // R2's extension: conditions on the destination (cf-copy-destination-if-*).
  const destination: Conditional | undefined = readConditional(ctx.headers, 'cf-copy-destination-');
  const body = await bodyOf(copied);
  const operation = { operation: 'CopyObject', source: { bucket: copySource(ctx).bucket, key: source.key } };
  // Checked by the model's conditional put, as PutObject's conditions are: in the write's own
  // transaction, so nothing written between a check and the copy can slip through.
  const stored = await ctx.bucket.viaS3('put', ctx.key, operation, () =>
    ctx.bucket.put(ctx.key, body, metadata, undefined, destination, {
      bucket: operation.source.bucket,
      object: operation.source.key,
    }),
  );
  if (!stored) throw s3Errors.preconditionFailed();
  // R2 sends both version headers on a copy (release notes 2022-09-06); that their values are the
  // binding's `version` is an inference.
  const headers = { 'x-amz-version-id': stored.version, 'x-amz-copy-source-version-id': source.version };
  return xmlResponse('CopyObjectResult', { ETag: `"${stored.etag}"`, LastModified: isoTime(stored.uploaded) }, headers);
}
