/**
 * The S3 view's request pipeline (lib/s3/api.ts says what S3Api is): route → authenticate (auth
 * errors come before NoSuchBucket) → resolve the bucket → detect the operation and screen its
 * headers → touch state. Imported by an S3Api's first request, not with the package: it is most
 * of the view's code, and most suites never send S3 a request (docs/benchmarks.md, "A suite's wall time").
 */
import { homeLocation, isBucketName, isJurisdiction, type Jurisdiction, type R2Backend } from '../bucket/backend.js';
import { Bucket } from '../bucket/bucket.js';
import { bucketLayer } from '../bucket/internal.js';
import type { BucketLayer } from '../bucket/layer.js';
import type { LifecycleTiming } from '../bucket/lifecycle.js';
import type { Clock } from '../clock.js';
import { toHex, utf8 } from '../bytes.js';
import { BodyReadError } from '../fetch.js';
import { digest } from '../hash.js';
import { readBody, refuseDeclaredTooLarge } from './body.js';
import { bucketConfig, listBuckets } from './buckets.js';
import { lifecycleConfigurationResponse, parseLifecycleConfiguration } from './lifecycle.js';
import { corsConfigurationResponse, parseCorsConfiguration, preflight, withCorsHeaders } from './cors.js';
import type { RequestBody, S3Context } from './context.js';
import { bodyText, xmlResponse } from './context.js';
import { errorResponse, fromModelError, notImplemented, S3Error, s3Errors } from './errors.js';
import { listObjects } from './listing.js';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listMultipartUploads,
  listParts,
  uploadPart,
  uploadPartCopy,
} from './multipart.js';
import { copyObject, copySource, deleteObject, deleteObjects, putObject, readObject } from './objects.js';
import { bucketOperation, objectOperation, type Operation } from './routes.js';
import { screenHeaders } from './screening.js';
import { decodeBucketName, decodeKey, splitTarget, type RawTarget } from './paths.js';
import { Verifier, type Authenticated } from './sigv4.js';
import { enforceGrant, grantCovers } from './temporary-access.js';

/** What the pipeline reads of an S3Api (its private state), made once by its constructor. */
export interface S3View {
  readonly verifier: Verifier;
  /** "Now", read from the clock option. */
  readonly clock: () => number;
  /** The buckets served, by name: the account's default jurisdiction's (its R2 backend's), or the view's own. */
  readonly buckets: ReadonlyMap<string, Bucket>;
  /** When the bucket served under `name` was added (ListBuckets' CreationDate). */
  created(name: string, jurisdiction: Jurisdiction): number | undefined;
  /** The account's R2 backend, over an account. */
  readonly r2: R2Backend | undefined;
  /** The options of the buckets the view makes (they share its clock). */
  readonly newBucket: { clock: Clock | undefined; lifecycleTiming: LifecycleTiming };
  /** The layer of a bucket in `buckets`, made once: most requests' contexts carry it (copy sources). */
  readonly lookup: (name: string) => BucketLayer | undefined;
  /** S3Api#addBucket: CreateBucket without an account. */
  addBucket(name: string): Bucket;
  /** DeleteBucket: through the account's R2 backend, or from the view's own buckets (lib/bucket/backend.ts, `deleteBucketFrom`). */
  deleteBucket(name: string, jurisdiction: Jurisdiction): Promise<'notEmpty' | 'missing' | undefined>;
}

/**
 * Answers one request (S3Api#handle): every failure is an S3 error response, except a body stream
 * that fails while read, which rejects.
 */
export async function handleS3(view: S3View, request: Request, target: string | undefined): Promise<Response> {
  const method = request.method.toUpperCase();
  try {
    return await serve(view, request, method, target);
  } catch (err) {
    rethrowBodyFailure(err);
    return errorResponse(asS3Error(err), method);
  }
}

/** ListBuckets' owner id: the same for every S3Api. */
const OWNER = toHex(digest('md5', utf8('edge-doubles S3 owner')));

/** The layer of the bucket served under `name` in `served` (a request's jurisdiction's buckets). */
function layerIn(served: ReadonlyMap<string, Bucket>, name: string): BucketLayer | undefined {
  const bucket = served.get(name);
  return bucket && bucketLayer(bucket);
}

/**
 * The buckets a request addresses: over an account, those of the jurisdiction its host names
 * (`<account id>.eu.r2.cloudflarestorage.com`), else the default jurisdiction's (or the view's own).
 */
function servedBy(view: S3View, host: string): { buckets: ReadonlyMap<string, Bucket>; jurisdiction: Jurisdiction } {
  const j = view.r2 ? JURISDICTION_HOST.exec(host)?.[1] : undefined;
  if (j === undefined || !isJurisdiction(j)) return { buckets: view.buckets, jurisdiction: 'default' };
  return { buckets: view.r2!.buckets(j), jurisdiction: j };
}

/** `<bucket>.<account id>[.<jurisdiction>].r2.cloudflarestorage.com`: R2's virtual-hosted names (an account id is 32 hex). */
const R2_HOST = /^([^.]+)\.[0-9a-f]{32}\.(?:(?:eu|fedramp|us)\.)?r2\.cloudflarestorage\.com$/;
const IP = /^(\d+\.){3}\d+$|^\[|:/;
/**
 * The jurisdiction R2's S3 host names (`<account id>.eu.r2.cloudflarestorage.com`, with or without a
 * bucket label before it): each jurisdiction's buckets are apart (lib/bucket/backend.ts).
 */
const JURISDICTION_HOST = /(?:^|\.)[0-9a-f]{32}\.(eu|fedramp|us)\.r2\.cloudflarestorage\.com$/;

/**
 * One request's S3Context. A class rather than an object literal: the body getter is a method, not
 * a closure made (and, under tsx, named) for every request.
 */
class RequestContext implements S3Context {
  readonly headers: Headers;
  #body: Promise<RequestBody> | undefined;

  constructor(
    private readonly request: Request,
    private readonly auth: Authenticated,
    readonly method: string,
    readonly url: URL,
    readonly query: URLSearchParams,
    readonly bucketName: string,
    readonly bucket: BucketLayer,
    readonly key: string,
    readonly now: () => number,
    readonly lookup: (name: string) => BucketLayer | undefined,
  ) {
    this.headers = request.headers;
    const grant = auth.grant;
    if (grant) this.covers = (key) => grantCovers(grant, key);
  }

  readonly covers?: (key: string) => boolean;

  body(): Promise<RequestBody> {
    return (this.#body ??= readBody(this.request, this.auth.payload));
  }
}

/** A routed bucket's name, decoded when it came from the path (decodeBucketName refuses bytes that are not UTF-8). */
const bucketNameOf = (bucket: { name: string; encoded: boolean }): string =>
  bucket.encoded ? decodeBucketName(bucket.name) : bucket.name;

const asS3Error = (err: unknown): S3Error =>
  err instanceof S3Error ? err : (fromModelError(err) ?? s3Errors.internal());

/** A request body that failed while read is not answered: the fetch rejects (lib/fetch.ts). */
const rethrowBodyFailure = (err: unknown): void => {
  if (err instanceof BodyReadError) throw err;
};

/**
 * `{bucket}.<host>` when the first label names a served bucket (or on R2's own host names), else
 * path style. The bucket segment and key come back as sent (percent-encoded): they are decoded
 * after authentication, so an undecodable name is refused only for a request that may see it.
 */
function routeOf(
  url: URL,
  raw: RawTarget,
  served: ReadonlyMap<string, Bucket>,
): { bucket?: { name: string; encoded: boolean }; key: string } {
  const host = url.hostname;
  const dot = host.indexOf('.');
  const first = dot < 0 ? host : host.slice(0, dot);
  const virtual = host.includes('.') && !IP.test(host) && (served.has(first) || R2_HOST.test(host));
  if (virtual) return { bucket: { name: first, encoded: false }, key: raw.path.slice(1) };
  const path = raw.path.slice(1);
  if (path === '') return { key: '' };
  const slash = path.indexOf('/');
  if (slash < 0) return { bucket: { name: path, encoded: true }, key: '' };
  return { bucket: { name: path.slice(0, slash), encoded: true }, key: path.slice(slash + 1) };
}

async function serve(view: S3View, request: Request, method: string, target: string | undefined): Promise<Response> {
  const url = new URL(request.url);
  const raw = (target !== undefined ? splitTarget(target) : undefined) ?? { path: url.pathname, search: url.search };
  const query = new URLSearchParams(raw.search);
  const { buckets: served, jurisdiction } = servedBy(view, url.hostname);
  const route = routeOf(url, raw, served);
  // Browsers send preflights unsigned: answered from the bucket's CORS rules, before auth.
  if (method === 'OPTIONS' && route.bucket !== undefined) {
    const layer = layerIn(served, bucketNameOf(route.bucket));
    if (!layer) throw s3Errors.noSuchBucket();
    const settings = layer.currentSettings(); // read in a transaction on a persistent storage: another Bucket may have set them
    return preflight((settings instanceof Promise ? await settings : settings).cors, request.headers);
  }
  const authRequest = { method, url, path: raw.path, search: raw.search, query, headers: request.headers };
  if (
    method === 'POST' &&
    route.bucket !== undefined &&
    route.key === '' &&
    !query.has('delete') &&
    !Verifier.carriesAuth(authRequest)
  ) {
    throw notImplemented('Presigned post requests are not yet implemented'); // R2's doubled wording, verbatim
  }
  let auth = view.verifier.verify(authRequest);
  if (auth instanceof Promise) auth = await auth; // natively it comes at once: no turn of the microtask queue
  const bucketName = route.bucket && bucketNameOf(route.bucket);
  const key = decodeKey(route.key);
  if (bucketName === undefined) {
    if (method !== 'GET') throw s3Errors.routeNotFound();
    if (auth.grant)
      enforceGrant(auth.grant, { method, bucket: undefined, jurisdiction, key, operation: undefined, query });
    const all = [...served.keys()].map((name) => ({ name, created: view.created(name, jurisdiction) ?? 0 }));
    return listBuckets(all, query, request.headers, OWNER);
  }
  const operation: Operation =
    key === '' ? bucketOperation(method, query) : objectOperation(method, query, request.headers);
  if (auth.grant) {
    const op = operation.op;
    const copies = op === 'CopyObject' || op === 'UploadPartCopy';
    try {
      enforceGrant(auth.grant, {
        method,
        bucket: bucketName,
        jurisdiction,
        key,
        operation,
        query,
        ...(copies ? { copySource: () => copySource(request) } : {}),
      });
    } catch (err) {
      // Refused before the bucket is touched (its existence is not told), but answered with the
      // addressed bucket's CORS headers, so a page holding temporary credentials reads the 403
      // (our choice: whether R2 adds them to this refusal is not established).
      const cors = layerIn(served, bucketName)?.config.cors;
      const response = errorResponse(asS3Error(err), method);
      return cors ? withCorsHeaders(cors, request.headers, method, response) : response;
    }
  }
  if (operation.op === 'CreateBucket') return createBucketOf(view, bucketName, served, jurisdiction);
  const layer = layerIn(served, bucketName);
  if (!layer) throw s3Errors.noSuchBucket();
  if (operation.op === 'PutObject' || operation.op === 'UploadPart' || operation.op === 'UploadPartCopy')
    refuseDeclaredTooLarge(request.headers);
  const lookup = served === view.buckets ? view.lookup : (name: string) => layerIn(served, name);
  const ctx = new RequestContext(request, auth, method, url, query, bucketName, layer, key, view.clock, lookup);
  let response: Response;
  try {
    response = await dispatch(view, ctx, operation, { buckets: served, jurisdiction });
  } catch (err) {
    rethrowBodyFailure(err);
    response = errorResponse(asS3Error(err), method);
  }
  // The settings as the operation's own transaction read them (a persistent storage reads them
  // again with the objects whenever another Bucket wrote).
  const cors = layer.config.cors;
  return cors ? withCorsHeaders(cors, request.headers, method, response) : response;
}

function dispatch(
  view: S3View,
  ctx: S3Context,
  o: Operation,
  scope: { buckets: ReadonlyMap<string, Bucket>; jurisdiction: Jurisdiction },
): Response | Promise<Response> {
  // Bucket-level operations refuse what every operation refuses (x-amz-expected-bucket-owner).
  if (ctx.key === '' && o.op !== 'ListObjects' && o.op !== 'ListMultipartUploads' && o.op !== 'DeleteObjects')
    screenHeaders(o.op, ctx.headers);
  switch (o.op) {
    case 'HeadBucket':
      return new Response(null, { status: 200, headers: { 'x-amz-bucket-region': 'auto' } });
    case 'GetBucketLocation':
      return xmlResponse('LocationConstraint', 'auto');
    case 'BucketConfig':
      return bucketConfig(o.name);
    // Settings are the bucket's state: read and changed through its layer (logged, faulted, kept by its storage).
    case 'GetBucketCors':
      return ctx.bucket.readSettings('s3', 'getBucketCors', (c) => c.cors).then(corsConfigurationResponse);
    case 'PutBucketCors':
      return bodyText(ctx).then(async (text) => {
        const rules = await parseCorsConfiguration(text);
        await ctx.bucket.changeSettings('s3', 'putBucketCors', (c) => (c.cors = rules));
        return new Response(null, { status: 200 });
      });
    case 'DeleteBucketCors':
      return ctx.bucket
        .changeSettings('s3', 'deleteBucketCors', (c) => (c.cors = undefined))
        .then(() => new Response(null, { status: 204 }));
    // The bucket's one rule set, the REST API's `/lifecycle` too (lib/s3/lifecycle.ts).
    case 'GetBucketLifecycleConfiguration':
      return ctx.bucket
        .readSettings('s3', 'getBucketLifecycle', (c) => c.lifecycle)
        .then(lifecycleConfigurationResponse);
    case 'PutBucketLifecycleConfiguration':
      return bodyText(ctx).then(async (text) => {
        const rules = await parseLifecycleConfiguration(text);
        await ctx.bucket.changeSettings('s3', 'putBucketLifecycle', (c) => (c.lifecycle = rules));
        return new Response(null, { status: 200 });
      });
    case 'DeleteBucketLifecycle':
      return ctx.bucket
        .changeSettings('s3', 'deleteBucketLifecycle', (c) => (c.lifecycle = []))
        .then(() => new Response(null, { status: 204 }));
    case 'ListObjects':
      return listObjects(ctx);
    case 'ListMultipartUploads':
      return listMultipartUploads(ctx);
    case 'DeleteObjects':
      return deleteObjects(ctx);
    case 'PostBucket':
      return new Response(null, { status: 200 });
    case 'DeleteBucket':
      return deleteBucketOf(view, ctx, scope.jurisdiction);
    case 'CreateBucket':
      return createBucketOf(view, ctx.bucketName, scope.buckets, scope.jurisdiction);
    case 'GetObject':
    case 'HeadObject':
      return readObject(ctx);
    case 'PutObject':
      return putObject(ctx);
    case 'CopyObject':
      return copyObject(ctx);
    case 'DeleteObject':
      return deleteObject(ctx);
    case 'CreateMultipartUpload':
      return createMultipartUpload(ctx);
    case 'UploadPart':
      return uploadPart(ctx, o.uploadId);
    case 'UploadPartCopy':
      return uploadPartCopy(ctx, o.uploadId);
    case 'CompleteMultipartUpload':
      return completeMultipartUpload(ctx, o.uploadId);
    case 'AbortMultipartUpload':
      return abortMultipartUpload(ctx, o.uploadId);
    case 'ListParts':
      return listParts(ctx, o.uploadId);
  }
}

/** CreateBucket: over an account, through its R2 backend (lib/bucket/backend.ts); else into this view's own buckets, by the same name rule. */
function createBucketOf(
  view: S3View,
  name: string,
  served: ReadonlyMap<string, Bucket>,
  jurisdiction: Jurisdiction,
): Response {
  if (!isBucketName(name)) throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.');
  if (served.has(name)) throw s3Errors.bucketConflict();
  if (view.r2) {
    const info = jurisdiction === 'default' ? undefined : { jurisdiction, location: homeLocation(jurisdiction) };
    if (
      typeof view.r2.create(
        name,
        (storage) => new Bucket({ ...view.newBucket, ...(storage ? { storage } : {}) }),
        info,
      ) === 'string'
    )
      throw s3Errors.bucketConflict();
  } else view.addBucket(name);
  return new Response(null, { status: 200, headers: { location: `/${name}` } });
}

/** DeleteBucket, through the R2 backend (its settings cleared through its layer, the name free). */
async function deleteBucketOf(view: S3View, ctx: S3Context, jurisdiction: Jurisdiction): Promise<Response> {
  if ((await view.deleteBucket(ctx.bucketName, jurisdiction)) === 'notEmpty') {
    throw new S3Error(409, 'BucketNotEmpty', 'The bucket you tried to delete is not empty.');
  }
  return new Response(null, { status: 204 });
}
