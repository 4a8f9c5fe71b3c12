/**
 * `S3Api`: R2's S3-compatible API over the same `Bucket` objects a Worker's `env` holds. A second
 * surface over the bucket (ARCHITECTURE.md, "The joints"), reaching it through the bucket's layer
 * (lib/bucket/layer.ts) as the binding does: one state, one set of rules, one storage transaction
 * per operation, the bucket's faults and call log. This view routes, authenticates, reads S3
 * headers and writes S3's XML.
 *
 * The pipeline is R2's: route → authenticate (auth errors come before NoSuchBucket) → resolve the
 * bucket → detect the operation and screen its headers → touch state. It is in serve.ts, imported
 * by the first request any S3Api answers: most of the view's code, which importing the package need
 * not load. Credentials are read here, when the S3Api is made, as before.
 */
import type { Account } from '../account/account.js';
import { accountState, chosenAccount, type AccountHolder } from '../account/state.js';
import { Bucket } from '../bucket/bucket.js';
import { deleteBucketFrom, R2 } from '../bucket/backend.js';
import { bucketLayer } from '../bucket/internal.js';
import type { BucketLayer } from '../bucket/layer.js';
import { timeSource, type Clock } from '../clock.js';
import { fetchOver } from '../fetch.js';
import { frozenCorsRules } from '../bucket/cors.js';
import type { CorsRule } from './cors.js';
import { carriable } from './header-values.js';
import { Verifier, type S3Credential } from './sigv4.js';
import { addParentKeys } from '../account/temporary-credentials.js';
import { temporaryCredential } from './temporary-access.js';
import { lifecycleTimingOption, type LifecycleTiming } from '../bucket/lifecycle.js';
import { registerDouble } from '../support/registry.js';
import type { TestDouble } from '../support/double.js';
import { s3Double, type S3Snapshot } from './s3-support.js';
import type { handleS3, S3View } from './serve.js';

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
   * manual clock judges them by the system clock its clients sign with (lib/node/account-server.ts).
   */
  signatureClock?: Clock;
  /** When the lifecycle rules of the buckets this view makes (CreateBucket, `addBucket` without one) act: `new Bucket({ lifecycleTiming })`. */
  lifecycleTiming?: LifecycleTiming;
}

export type S3Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** The pipeline (serve.ts), once imported: every request after the first calls it without waiting. */
let pipeline: typeof handleS3 | undefined;
const loadPipeline = () => import('./serve.js').then((m) => (pipeline = m.handleS3));

export class S3Api {
  /** A standard fetch, already bound: hand it to an S3 client's request handler, or call it. */
  readonly fetch: S3Fetch;
  /** The buckets served, by name: the account's default jurisdiction's (its R2 backend's), or this view's own. */
  readonly #buckets: ReadonlyMap<string, Bucket>;
  /** Its test support: snapshot, restore, reset, the log the matchers read (s3-support.ts). */
  readonly #double: TestDouble;
  /** Without an account: the view's own buckets by name, and when each was added (ListBuckets' CreationDate). */
  readonly #own: Map<string, Bucket> | undefined;
  readonly #created = new WeakMap<Bucket, number>();
  readonly #account: Account | undefined;
  /** "Now", read from the clock option. */
  readonly #clock: () => number;
  /** The options of the buckets this view makes (they share its clock). */
  readonly #newBucket: { clock: Clock | undefined; lifecycleTiming: LifecycleTiming };
  /** What the request pipeline (serve.ts) reads of this S3Api. */
  readonly #view: S3View;

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
    const verifier = new Verifier(
      options.credentials,
      signed ?? (() => this.#clock()),
      shared && temporaryCredential(shared, () => this.#clock()),
    );
    const r2 = shared?.backend(R2);
    const own = (this.#own = r2 ? undefined : new Map());
    this.#buckets = r2 ? r2.buckets() : own!;
    this.#view = {
      verifier,
      clock: this.#clock,
      buckets: this.#buckets,
      created: r2
        ? (name, jurisdiction) => r2.entry(name, jurisdiction)?.created
        : (name) => {
            const bucket = own!.get(name);
            return bucket && this.#created.get(bucket);
          },
      r2,
      newBucket: this.#newBucket,
      lookup: this.#lookup,
      addBucket: (name) => this.addBucket(name),
      deleteBucket: r2
        ? (name, jurisdiction) => r2.delete(name, 's3', jurisdiction)
        : (name) => deleteBucketFrom(own!, name, 's3', () => own!.delete(name)),
    };
    for (const [name, bucket] of Object.entries(options.buckets ?? {})) this.addBucket(name, bucket);
    this.fetch = fetchOver((request, target) => this.handle(request, target));
    // Its own test support (lib/s3/s3-support.ts), kept here for snapshot, restore and reset, and
    // registered for the matchers and testFault.
    this.#double = s3Double(
      this.#buckets,
      r2
        ? { take: () => r2.held(), put: (held) => r2.hold(held) }
        : {
            take: () => [...own!],
            put: (held) => {
              own!.clear();
              for (const [name, bucket] of held) own!.set(name, bucket);
            },
          },
    );
    registerDouble(this, this.#double);
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
    return this.#double.snapshot() as S3Snapshot;
  }

  /** Brings back a snapshot of this S3Api: the buckets served then, what each held, their CORS rules. */
  restore(snapshot: S3Snapshot): void {
    this.#double.restore(snapshot);
  }

  /** Empties every bucket served (each bucket's reset); the buckets and their CORS rules stay. */
  reset(): void {
    this.#double.reset();
  }

  /**
   * Serves one more bucket under `name` (a new, empty `Bucket` when none is given); returns it.
   * Over an account, the bucket is added to the account, by its rules (`Account.addBucket`).
   */
  addBucket(name: string, bucket: Bucket = new Bucket(this.#newBucket)): Bucket {
    if (!bucketLayer(bucket)) throw new TypeError(`S3Api: bucket "${name}" is not an edge-doubles Bucket`);
    if (this.#account) return this.#account.bucket(name) === bucket ? bucket : this.#account.addBucket(name, bucket);
    this.#own!.set(name, bucket);
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

  /** The layer of the bucket served under `name`. */
  #layer(name: string): BucketLayer | undefined {
    const bucket = this.#buckets.get(name);
    return bucket && bucketLayer(bucket);
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
    return (pipeline ?? (await loadPipeline()))(this.#view, request, target);
  }
}
