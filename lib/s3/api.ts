/**
 * `S3Api`: R2's S3-compatible API over the same `Bucket` objects a Worker's `env` holds. A second
 * surface over the bucket (ARCHITECTURE.md, "The joints"), reaching it through the bucket's layer
 * (lib/bucket/layer.ts) as the binding does: one state, one set of rules, one storage transaction
 * per operation, the bucket's faults and call log. This view routes, authenticates, reads S3
 * headers and writes S3's XML.
 *
 * The pipeline is R2's: route → authenticate (auth errors come before NoSuchBucket) → resolve the
 * bucket → detect the operation and screen its headers → touch state.
 */
import type { Account } from '../account/account.js';
import { accountState, chosenAccount, type AccountHolder } from '../account/state.js';
import { createBucket, deleteBucket, isBucketName } from '../account/directory.js';
import { bucketsIn, homeLocation, isJurisdiction, type Jurisdiction } from '../account/buckets.js';
import { Bucket } from '../bucket/bucket.js';
import { bucketLayer } from '../bucket/internal.js';
import type { BucketLayer } from '../bucket/layer.js';
import { timeSource, type Clock } from '../clock.js';
import { toHex, utf8 } from '../bytes.js';
import { digest } from '../hash.js';
import { BodyReadError, fetchOver } from '../fetch.js';
import { readBody, refuseDeclaredTooLarge } from './body.js';
import { bucketConfig, listBuckets } from './buckets.js';
import { frozenCorsRules } from '../bucket/cors.js';
import { lifecycleConfigurationResponse, parseLifecycleConfiguration } from './lifecycle.js';
import {
  corsConfigurationResponse,
  parseCorsConfiguration,
  preflight,
  withCorsHeaders,
  type CorsRule,
} from './cors.js';
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
import { carriable } from './header-values.js';
import { Verifier, type Authenticated, type S3Credential } from './sigv4.js';
import { addParentKeys } from '../account/temporary-credentials.js';
import { enforceGrant, grantCovers, temporaryCredential } from './temporary-access.js';
import { lifecycleTimingOption, type LifecycleTiming } from '../bucket/lifecycle.js';
import { doubleOf, registerDouble } from '../support/registry.js';
import { s3Double, type S3Snapshot } from './s3-support.js';

export type { S3Credential, S3Snapshot };

export interface S3ApiOptions {
  /**
   * The account whose buckets this view serves: a bucket in the account (`account.addBucket`, a
   * `createEnv(config, { account })`) is served under its name, and CreateBucket, DeleteBucket and
   * `addBucket` here change the account's buckets, so every view of the account (the Worker's
   * bindings, another S3Api) sees the same ones. Default: a list of buckets of this view's own.
   */
  account?: Account;
  /** The API double whose account this view serves (`new S3Api({ api })`): the same as `account: api.account`. */
  api?: AccountHolder;
  /** The buckets by name: the same `Bucket` objects the Worker's `env` holds (added to `account` when given). */
  buckets?: Record<string, Bucket>;
  /** Accepted key pairs. Without any, every well-formed signature is accepted. */
  credentials?: readonly S3Credential[];
  /** "Now" in epoch ms (signature expiry and skew, CreationDate). Default `Date.now()` per request. */
  clock?: Clock;
  /**
   * The clock signatures alone are judged by (expiry and skew), when it is not `clock`: a server on a
   * manual clock judges them by the system clock its clients sign with (lib/node/s3-server.ts).
   */
  signatureClock?: Clock;
  /** When the lifecycle rules of the buckets this view makes (CreateBucket, `addBucket` without one) act: `new Bucket({ lifecycleTiming })`. */
  lifecycleTiming?: LifecycleTiming;
}

export type S3Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** `<bucket>.<account id>[.<jurisdiction>].r2.cloudflarestorage.com`: R2's virtual-hosted names (an account id is 32 hex). */
const R2_HOST = /^([^.]+)\.[0-9a-f]{32}\.(?:(?:eu|fedramp|us)\.)?r2\.cloudflarestorage\.com$/;
const IP = /^(\d+\.){3}\d+$|^\[|:/;
/**
 * The jurisdiction R2's S3 host names (`<account id>.eu.r2.cloudflarestorage.com`, with or without a
 * bucket label before it): each jurisdiction's buckets are apart (lib/account/buckets.ts).
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

export class S3Api {
  /** A standard fetch, already bound: hand it to an S3 client's request handler, or call it. */
  readonly fetch: S3Fetch;
  /** The buckets served, by name: the account's, or this view's own. */
  readonly #buckets: Map<string, Bucket>;
  /** When each was added (ListBuckets' CreationDate): the account's record, or this view's. */
  readonly #created: WeakMap<Bucket, number>;
  readonly #account: Account | undefined;
  readonly #verifier: Verifier;
  /** "Now", read from the clock option. */
  readonly #clock: () => number;
  /** The options of the buckets this view makes (they share its clock). */
  readonly #newBucket: { clock: Clock | undefined; lifecycleTiming: LifecycleTiming };
  readonly #owner = toHex(digest('md5', utf8('edge-doubles S3 owner')));

  constructor(options: S3ApiOptions = {}) {
    this.#clock = timeSource(options.clock).now;
    this.#newBucket = {
      clock: options.clock,
      lifecycleTiming: lifecycleTimingOption(options.lifecycleTiming, 'S3Api'),
    };
    const signed = options.signatureClock === undefined ? undefined : timeSource(options.signatureClock).now;
    this.#account = chosenAccount(options, 'S3Api');
    const shared = this.#account && accountState(this.#account);
    // Over an account: its key pairs may parent temporary credentials, and those it mints are
    // accepted here until they expire on this view's clock (temporary-access.ts).
    if (shared && options.credentials) addParentKeys(shared, options.credentials);
    this.#verifier = new Verifier(
      options.credentials,
      signed ?? (() => this.#clock()),
      shared && temporaryCredential(shared, () => this.#clock()),
    );
    this.#buckets = shared?.buckets ?? new Map();
    this.#created = shared?.bucketCreated ?? new WeakMap();
    for (const [name, bucket] of Object.entries(options.buckets ?? {})) this.addBucket(name, bucket);
    this.fetch = fetchOver((request, target) => this.handle(request, target));
    // The test support (snapshot, restore, reset, the matchers) reaches the S3Api through the registry: lib/s3/s3-support.ts.
    registerDouble(this, s3Double(this.#buckets));
  }

  // ---- test support (not part of the S3 API): lib/s3/s3-support.ts says what each covers ----
  //
  // Faults: the S3Api has no fault list of its own; the rules of the bucket a request reaches are
  // the one place (lib/bucket/bucket-support.ts), and they fail an S3 call with R2's S3 answer for
  // the error (fromModelError: 'internal' → 500 InternalError, 'rateLimit' → 429 TooManyRequests).
  // Why: one rule then fails the Worker's call and the S3 client's alike, which is what a test of
  // "R2 is failing" means; and R2 has no S3-only throttle to model: it answers a hot key with 429
  // TooManyRequests (10058), not AWS's 503 SlowDown (docs/sources/r2-s3.md#limits). Not faultable
  // as a result: requests answered before a bucket is reached (signature, ListBuckets,
  // CreateBucket, NoSuchBucket) and R2's 503 ServiceUnavailable, whose binding text is not known.

  /** The buckets served, each one's state and their CORS rules now; later changes never reach it. */
  snapshot(): S3Snapshot {
    return doubleOf(this)!.snapshot() as S3Snapshot;
  }

  /** Brings back a snapshot of this S3Api: the buckets served then, what each held, their CORS rules. */
  restore(snapshot: S3Snapshot): void {
    doubleOf(this)!.restore(snapshot);
  }

  /** Empties every bucket served (each bucket's reset); the buckets and their CORS rules stay. */
  reset(): void {
    doubleOf(this)!.reset();
  }

  /**
   * Serves one more bucket under `name` (a new, empty `Bucket` when none is given); returns it.
   * Over an account, the bucket is added to the account, by its rules (`Account.addBucket`).
   */
  addBucket(name: string, bucket: Bucket = new Bucket(this.#newBucket)): Bucket {
    if (!bucketLayer(bucket)) throw new TypeError(`S3Api: bucket "${name}" is not an edge-doubles Bucket`);
    if (this.#account) return this.#account.bucket(name) === bucket ? bucket : this.#account.addBucket(name, bucket);
    this.#buckets.set(name, bucket);
    this.#created.set(bucket, this.#clock());
    return bucket;
  }

  /**
   * Sets a bucket's CORS rules, as PutBucketCors would (undefined removes them): for tests whose
   * browser uploads to a presigned URL from another origin.
   */
  setBucketCors(name: string, rules: readonly CorsRule[] | undefined): void {
    const layer = this.#layer(name);
    if (!layer) throw new TypeError(`S3Api: no bucket "${name}"`);
    for (const value of rules?.flatMap((r) => r.expose) ?? []) {
      if (!carriable(value))
        throw new TypeError(`S3Api: ExposeHeader ${JSON.stringify(value)} cannot be sent as a header value`);
    }
    // As PutBucketCors would: a change of the bucket's settings, logged (surface `s3`) and kept by its storage.
    layer.settingsNow(
      's3',
      rules ? 'putBucketCors' : 'deleteBucketCors',
      (c) => (c.cors = rules && frozenCorsRules(rules)),
    );
  }

  /** `#layer` over the default jurisdiction's buckets, made once: most requests' contexts carry it (copy sources). */
  readonly #lookup = (name: string): BucketLayer | undefined => this.#layer(name);

  /** The layer of the bucket served under `name` (in `served`: a request's jurisdiction's buckets). */
  #layer(name: string, served = this.#buckets): BucketLayer | undefined {
    const bucket = served.get(name);
    return bucket && bucketLayer(bucket);
  }

  /**
   * The buckets a request addresses: over an account, those of the jurisdiction its host names
   * (`<account id>.eu.r2.cloudflarestorage.com`), else the default jurisdiction's (or this view's own).
   */
  #served(host: string): { buckets: Map<string, Bucket>; jurisdiction: Jurisdiction } {
    const j = this.#account ? JURISDICTION_HOST.exec(host)?.[1] : undefined;
    if (j === undefined || !isJurisdiction(j)) return { buckets: this.#buckets, jurisdiction: 'default' };
    return { buckets: bucketsIn(accountState(this.#account!), j), jurisdiction: j };
  }

  /** The bucket served under `name`. */
  bucket(name: string): Bucket | undefined {
    return this.#buckets.get(name);
  }

  /** The names of the buckets served (the default jurisdiction's, over an account), as `Account#buckets`. */
  get buckets(): string[] {
    return [...this.#buckets.keys()];
  }

  /**
   * Answers one request: every failure is an S3 error response, except a body stream that fails
   * while read, which rejects (`TypeError: fetch failed`). `target` is the request-target as the
   * client wrote it (the HTTP server's `IncomingMessage#url`); when given, the path and query are
   * taken from it, never from `request.url`, whose parsing collapses `..` and `%2e%2e` and would
   * name another key.
   */
  async handle(request: Request, target?: string): Promise<Response> {
    const method = request.method.toUpperCase();
    try {
      return await this.#serve(request, method, target);
    } catch (err) {
      rethrowBodyFailure(err);
      return errorResponse(asS3Error(err), method);
    }
  }

  /**
   * `{bucket}.<host>` when the first label names a served bucket (or on R2's own host names), else
   * path style. The bucket segment and key come back as sent (percent-encoded): they are decoded
   * after authentication, so an undecodable name is refused only for a request that may see it.
   */
  #route(
    url: URL,
    raw: RawTarget,
    served: Map<string, Bucket>,
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

  async #serve(request: Request, method: string, target: string | undefined): Promise<Response> {
    const url = new URL(request.url);
    const raw = (target !== undefined ? splitTarget(target) : undefined) ?? { path: url.pathname, search: url.search };
    const query = new URLSearchParams(raw.search);
    const { buckets: served, jurisdiction } = this.#served(url.hostname);
    const route = this.#route(url, raw, served);
    // Browsers send preflights unsigned: answered from the bucket's CORS rules, before auth.
    if (method === 'OPTIONS' && route.bucket !== undefined) {
      const layer = this.#layer(bucketNameOf(route.bucket), served);
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
    let auth = this.#verifier.verify(authRequest);
    if (auth instanceof Promise) auth = await auth; // natively it comes at once: no turn of the microtask queue
    const bucketName = route.bucket && bucketNameOf(route.bucket);
    const key = decodeKey(route.key);
    if (bucketName === undefined) {
      if (method !== 'GET') throw s3Errors.routeNotFound();
      if (auth.grant)
        enforceGrant(auth.grant, { method, bucket: undefined, jurisdiction, key, operation: undefined, query });
      const all = [...served].map(([name, bucket]) => ({ name, created: this.#created.get(bucket) ?? 0 }));
      return listBuckets(all, query, request.headers, this.#owner);
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
        const cors = this.#layer(bucketName, served)?.config.cors;
        const response = errorResponse(asS3Error(err), method);
        return cors ? withCorsHeaders(cors, request.headers, method, response) : response;
      }
    }
    if (operation.op === 'CreateBucket') return this.#createBucket(bucketName, served, jurisdiction);
    const layer = this.#layer(bucketName, served);
    if (!layer) throw s3Errors.noSuchBucket();
    if (operation.op === 'PutObject' || operation.op === 'UploadPart' || operation.op === 'UploadPartCopy')
      refuseDeclaredTooLarge(request.headers);
    const lookup = served === this.#buckets ? this.#lookup : (name: string) => this.#layer(name, served);
    const ctx = new RequestContext(request, auth, method, url, query, bucketName, layer, key, this.#clock, lookup);
    let response: Response;
    try {
      response = await this.#dispatch(ctx, operation, { buckets: served, jurisdiction });
    } catch (err) {
      rethrowBodyFailure(err);
      response = errorResponse(asS3Error(err), method);
    }
    // The settings as the operation's own transaction read them (a persistent storage reads them
    // again with the objects whenever another Bucket wrote).
    const cors = layer.config.cors;
    return cors ? withCorsHeaders(cors, request.headers, method, response) : response;
  }

  #dispatch(
    ctx: S3Context,
    o: Operation,
    scope: { buckets: Map<string, Bucket>; jurisdiction: Jurisdiction },
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
        return this.#deleteBucket(ctx, scope.buckets);
      case 'CreateBucket':
        return this.#createBucket(ctx.bucketName, scope.buckets, scope.jurisdiction);
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

  /** CreateBucket: over an account, through its bucket directory (lib/account/directory.ts); else into this view's own buckets, by the same name rule. */
  #createBucket(name: string, served: Map<string, Bucket>, jurisdiction: Jurisdiction): Response {
    if (!isBucketName(name)) throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.');
    if (served.has(name)) throw s3Errors.bucketConflict();
    if (this.#account) {
      const info = jurisdiction === 'default' ? undefined : { jurisdiction, location: homeLocation(jurisdiction) };
      if (
        typeof createBucket(
          accountState(this.#account),
          name,
          (storage) => new Bucket({ ...this.#newBucket, ...(storage ? { storage } : {}) }),
          info,
        ) === 'string'
      )
        throw s3Errors.bucketConflict();
    } else this.addBucket(name);
    return new Response(null, { status: 200, headers: { location: `/${name}` } });
  }

  /** DeleteBucket, through the bucket directory (its settings cleared through its layer, the name free). */
  async #deleteBucket(ctx: S3Context, served: Map<string, Bucket>): Promise<Response> {
    if ((await deleteBucket(served, ctx.bucketName, 's3')) === 'notEmpty') {
      throw new S3Error(409, 'BucketNotEmpty', 'The bucket you tried to delete is not empty.');
    }
    return new Response(null, { status: 204 });
  }
}
