/**
 * Multipart uploads through S3 (docs/sources/r2-s3.md#multipart). Upload ids are the bucket
 * model's, so an upload begun by a Worker's `createMultipartUpload` can be continued and completed
 * here, and the other way round; the part-size rules are the model's, checked at Complete. Every
 * call goes through the bucket's layer (lib/bucket/layer.ts).
 */
import { isoTime, bodyText, xmlResponse, type S3Context } from './context.js';
import { badDigest, invalidArgument, s3Errors } from './errors.js';
import { s3StorageClass } from './metadata.js';
import { bodyOf, copySourceObject, metadataFromHeaders } from './objects.js';
import { screenHeaders } from './screening.js';
import { readSsec } from './ssec.js';
import { parseXml, textOf } from './xml.js';
import { readMaxKeys } from './listing.js';
import { fromBase64 } from './checksums.js';
import { digestHex } from '../hash.js';
import { toHex } from '../bytes.js';
import { readConditional } from './conditions.js';

/** `partNumber`: R2 accepts leading spaces and zeros; the route already refused non-integers. */
export function readPartNumber(v: string): number {
  const t = v.trim();
  if (t === '' || !/^-?\d+$/.test(t)) throw s3Errors.partNumberRange();
  const n = Number(t);
  if (n < 1 || n > 10000) throw s3Errors.partNumberRange();
  return n;
}

export async function createMultipartUpload(ctx: S3Context): Promise<Response> {
  screenHeaders('CreateMultipartUpload', ctx.headers);
  const ssec = readSsec(ctx.headers);
  const metadata = metadataFromHeaders(ctx, ssec);
  // R2's extension: the conditional headers are evaluated against the current object.
  const cond = readConditional(ctx.headers);
  const uploadId = await ctx.bucket
    .viaS3('createMultipartUpload', ctx.key, { operation: 'CreateMultipartUpload' }, async () => {
      const id = await ctx.bucket.createUpload(ctx.key, metadata, cond);
      if (id === null) throw s3Errors.preconditionFailed();
      return { key: ctx.key, uploadId: id }; // as the binding's handle logs
    })
    .then((u) => u.uploadId);
  return xmlResponse('InitiateMultipartUploadResult', { Bucket: ctx.bucketName, Key: ctx.key, UploadId: uploadId });
}

async function requireActive(ctx: S3Context, uploadId: string): Promise<void> {
  if ((await ctx.bucket.uploadState(ctx.key, uploadId)) !== 'active') throw s3Errors.noSuchUpload();
}

export async function uploadPart(ctx: S3Context, uploadId: string): Promise<Response> {
  screenHeaders('UploadPart', ctx.headers);
  const n = readPartNumber(ctx.query.get('partNumber')!);
  await requireActive(ctx, uploadId);
  const body = await ctx.body();
  let md5: string | undefined;
  const contentMd5 = ctx.headers.get('content-md5');
  if (contentMd5 !== null) {
    const given = fromBase64(contentMd5.trim());
    if (!given || given.byteLength !== 16) throw s3Errors.invalidDigest();
    md5 = digestHex('md5', body.chunks);
    if (toHex(given) !== md5) throw badDigest('MD5', toHex(given), md5);
  }
  const { etag } = await ctx.bucket.viaS3(
    'uploadPart',
    ctx.key,
    { operation: 'UploadPart', uploadId, partNumber: n },
    async () => ({
      partNumber: n,
      etag: await ctx.bucket.uploadPart(ctx.key, uploadId, n, md5 ? { ...body, md5 } : body),
    }),
  );
  return new Response(null, { status: 200, headers: { etag: `"${etag}"` } });
}

const COPY_RANGE = /^bytes=(\d+)-(\d+)$/;

export async function uploadPartCopy(ctx: S3Context, uploadId: string): Promise<Response> {
  screenHeaders('UploadPartCopy', ctx.headers);
  const n = readPartNumber(ctx.query.get('partNumber')!);
  const copied = await copySourceObject(ctx, false);
  const source = copied.object;
  await requireActive(ctx, uploadId);
  const rangeHeader = ctx.headers.get('x-amz-copy-source-range');
  let range: { offset: number; length: number } | undefined;
  if (rangeHeader !== null) {
    const m = COPY_RANGE.exec(rangeHeader);
    if (!m) throw invalidArgument(`Invalid x-amz-copy-source-range: ${rangeHeader}`);
    const start = Number(m[1]);
    const end = Number(m[2]);
    if (end < start) throw invalidArgument('x-amz-copy-source-range must be positive.');
    if (start >= source.size) throw s3Errors.invalidRange();
    range = { offset: start, length: Math.min(end, source.size - 1) - start + 1 };
  }
  const body = await bodyOf(copied, range);
  const operation = { operation: 'UploadPartCopy', uploadId, partNumber: n };
  const { etag } = await ctx.bucket.viaS3('uploadPart', ctx.key, operation, async () => ({
    partNumber: n,
    etag: await ctx.bucket.uploadPart(ctx.key, uploadId, n, body),
  }));
  return xmlResponse('CopyPartResult', { ETag: `"${etag}"`, LastModified: isoTime(ctx.now()) });
}

const unquote = (s: string) => (s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);

export async function completeMultipartUpload(ctx: S3Context, uploadId: string): Promise<Response> {
  screenHeaders('CompleteMultipartUpload', ctx.headers);
  const doc = await parseXml(await bodyText(ctx));
  const root = doc?.CompleteMultipartUpload;
  if (!root || typeof root !== 'object') throw s3Errors.malformedXml();
  const parts = (root as { Part?: unknown[] }).Part;
  if (!Array.isArray(parts) || parts.length === 0) throw s3Errors.malformedXml();
  // Each part in turn: its number well-formed, in range, not seen before (so the first fault wins).
  const seen = new Set<number>();
  const refs = parts.map((p) => {
    const rec = p && typeof p === 'object' ? (p as Record<string, unknown>) : {};
    const num = textOf(rec.PartNumber);
    const etag = textOf(rec.ETag);
    if (num === undefined || !/^\s*\d+\s*$/.test(num) || etag === undefined) throw s3Errors.malformedXml();
    const partNumber = Number(num);
    if (partNumber < 1 || partNumber > 10000) throw s3Errors.invalidPartMissing();
    if (seen.has(partNumber)) throw s3Errors.invalidPartProblem();
    seen.add(partNumber);
    return { partNumber, etag: unquote(etag.trim()) };
  });
  await requireActive(ctx, uploadId);
  // R2 sorts the parts itself: InvalidPartOrder never happens.
  refs.sort((a, b) => a.partNumber - b.partNumber);
  // R2's extension: a conditional Complete that fails aborts the upload (in the same transaction).
  const cond = readConditional(ctx.headers);
  const operation = { operation: 'CompleteMultipartUpload', uploadId, parts: refs };
  const stored = await ctx.bucket.viaS3('completeMultipartUpload', ctx.key, operation, async () => {
    const object = await ctx.bucket.completeUpload(ctx.key, uploadId, refs, cond);
    if (!object) throw s3Errors.preconditionFailed();
    return object;
  });
  const origin = `${ctx.url.protocol}//${ctx.url.host}`;
  return xmlResponse('CompleteMultipartUploadResult', {
    Location: `${origin}/${ctx.bucketName}/${ctx.key.split('/').map(encodeURIComponent).join('/')}`,
    Bucket: ctx.bucketName,
    Key: ctx.key,
    ETag: `"${stored.etag}"`,
  });
}

export async function abortMultipartUpload(ctx: S3Context, uploadId: string): Promise<Response> {
  screenHeaders('AbortMultipartUpload', ctx.headers);
  // Aborting twice, or after Complete, is fine (R2 release notes 2022-06-10); an id never issued is not.
  if ((await ctx.bucket.uploadState(ctx.key, uploadId)) === 'unknown') throw s3Errors.noSuchUpload();
  await ctx.bucket.viaS3('abortMultipartUpload', ctx.key, { operation: 'AbortMultipartUpload', uploadId }, () =>
    ctx.bucket.abortUpload(ctx.key, uploadId),
  );
  return new Response(null, { status: 204 });
}

export async function listParts(ctx: S3Context, uploadId: string): Promise<Response> {
  screenHeaders('ListParts', ctx.headers);
  const { echo, limit } = readMaxKeys(ctx.query.get('max-parts'));
  const marker = Number(ctx.query.get('part-number-marker') ?? '0') || 0;
  // Logged and faulted as a `list` of the upload's key (lib/bucket/layer.ts says why).
  const { upload, parts, truncated } = await ctx.bucket.viaS3(
    'list',
    ctx.key,
    { operation: 'ListParts', uploadId },
    async () => {
      const upload = await ctx.bucket.activeUpload(ctx.key, uploadId);
      if (!upload) throw s3Errors.noSuchUpload();
      const after = upload.parts.filter((p) => p.partNumber > marker);
      const parts = after.slice(0, limit);
      return { upload, parts, truncated: after.length > parts.length };
    },
  );
  const content: Record<string, unknown> = {
    Bucket: ctx.bucketName,
    Key: ctx.key,
    UploadId: uploadId,
    PartNumberMarker: marker,
    MaxParts: echo,
    IsTruncated: truncated,
    Part: parts.map((p) => ({
      PartNumber: p.partNumber,
      LastModified: isoTime(p.uploaded),
      ETag: `"${p.etag}"`,
      Size: p.size,
    })),
    StorageClass: s3StorageClass(upload.metadata.storageClass),
  };
  if (truncated) content.NextPartNumberMarker = parts[parts.length - 1]!.partNumber;
  return xmlResponse('ListPartsResult', content);
}

export async function listMultipartUploads(ctx: S3Context): Promise<Response> {
  screenHeaders('ListMultipartUploads', ctx.headers);
  const q = ctx.query;
  const prefix = q.get('prefix') ?? '';
  const delimiter = q.get('delimiter') || undefined;
  const keyMarker = q.get('key-marker') ?? '';
  const idMarker = q.get('upload-id-marker') ?? '';
  const { echo, limit } = readMaxKeys(q.get('max-uploads'));
  // Logged and faulted as a `list` of the bucket, as ListObjects is (lib/bucket/layer.ts says why).
  const page = await ctx.bucket.viaS3('list', undefined, { operation: 'ListMultipartUploads' }, async () =>
    uploadsPage(await ctx.bucket.activeUploads(), prefix, delimiter, keyMarker, idMarker, limit),
  );
  const content: Record<string, unknown> = {
    Bucket: ctx.bucketName,
    KeyMarker: keyMarker,
    UploadIdMarker: idMarker,
    MaxUploads: echo,
    IsTruncated: page.truncated,
    Upload: page.uploads.map((u) => ({
      Key: u.key,
      UploadId: u.uploadId,
      Initiated: isoTime(u.initiated),
      StorageClass: s3StorageClass(u.metadata.storageClass),
    })),
    Prefix: prefix,
  };
  if (delimiter !== undefined) content.Delimiter = delimiter;
  if (page.delimitedPrefixes.length) content.CommonPrefixes = page.delimitedPrefixes.map((Prefix) => ({ Prefix }));
  if (page.truncated && page.last) {
    content.NextKeyMarker = page.last.key;
    content.NextUploadIdMarker = page.last.id;
  }
  return xmlResponse('ListMultipartUploadsResult', content);
}

/** An active upload as the bucket's layer lists it (lib/s3 reaches the model only through the layer). */
type UploadView = Awaited<ReturnType<S3Context['bucket']['activeUploads']>>[number];

/** One page of a ListMultipartUploads: the uploads and common prefixes after the markers, up to `limit` of both. */
function uploadsPage(
  all: readonly UploadView[],
  prefix: string,
  delimiter: string | undefined,
  keyMarker: string,
  idMarker: string,
  limit: number,
) {
  const uploads: UploadView[] = [];
  const delimitedPrefixes: string[] = [];
  let truncated = false;
  let last: { key: string; id: string } | undefined;
  let passedMarker = keyMarker === '';
  for (const u of all) {
    if (!u.key.startsWith(prefix)) continue;
    if (!passedMarker) {
      if (u.key < keyMarker || (u.key === keyMarker && (idMarker === '' || u.uploadId <= idMarker))) continue;
      passedMarker = true;
    }
    const at = delimiter ? u.key.indexOf(delimiter, prefix.length) : -1;
    if (at >= 0) {
      const p = u.key.slice(0, at + delimiter!.length);
      if (delimitedPrefixes[delimitedPrefixes.length - 1] === p) continue;
      if (uploads.length + delimitedPrefixes.length >= limit) {
        truncated = true;
        break;
      }
      delimitedPrefixes.push(p);
      last = { key: u.key, id: u.uploadId };
      continue;
    }
    if (uploads.length + delimitedPrefixes.length >= limit) {
      truncated = true;
      break;
    }
    uploads.push(u);
    last = { key: u.key, id: u.uploadId };
  }
  return { uploads, delimitedPrefixes, truncated, last };
}
