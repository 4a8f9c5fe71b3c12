/**
 * `PublicBuckets`: R2's public hosts for an account's buckets, the third surface over a bucket
 * (ARCHITECTURE.md, "The joints") beside the binding and the S3 view. A bucket is public at its
 * managed r2.dev domain once that is enabled, and at each enabled custom domain connected to it
 * (lib/bucket/public.ts, set through the API: lib/r2-api/domains.ts, or wrangler `r2 bucket
 * dev-url` / `r2 bucket domain`). `fetch` answers a request by its host, as the edge does:
 * `https://pub-<32 hex>.r2.dev/<key>` or `https://<custom domain>/<key>`. serve.ts says how each
 * request is answered.
 *
 *   const pub = new PublicBuckets(api.account);     // or api.publicFetch on a CloudflareApi
 *   await pub.fetch(`https://${pub.managedDomain('photos')}/cat.png`);
 *
 * A host that serves no bucket (unknown, r2.dev disabled, a custom domain disabled or removed) is
 * answered `404 Not Found` as a missing object is: production's answer for those is not
 * established (Miniflare answers an unknown bucket so; public.worker.ts).
 */
import type { Account } from '../account/account.js';
import { accountState } from '../account/state.js';
import type { Bucket } from '../bucket/bucket.js';
import { R2 } from '../bucket/backend.js';
import { bucketLayer } from '../bucket/internal.js';
import type { BucketLayer } from '../bucket/layer.js';
import { frozenPublicAccess, servesCustomDomain } from '../bucket/public.js';
import { toHex, utf8 } from '../bytes.js';
import { fetchOver, type Fetch } from '../fetch.js';
import { digest } from '../hash.js';
import { notFound, servePublic } from './serve.js';

/** The managed domain's suffix. */
const R2_DEV = '.r2.dev';

const idCache = new Map<string, string>();

/**
 * 32 lowercase hex standing for a bucket of an account (the managed domain's label and the API's
 * `bucketId`): a hash of the account id, the bucket's name and `what`, so the same bucket has the
 * same r2.dev host in every run and after a snapshot is restored. Real r2.dev hosts have this form,
 * `pub-<32 hex>.r2.dev` (docs public-buckets.mdx, and every r2.dev URL in the wild); how the hex is
 * derived in production is not public.
 */
export function bucketHex(accountId: string, bucket: string, what: 'r2.dev' | 'bucket id'): string {
  const seed = `${what} ${accountId} ${bucket}`;
  let hex = idCache.get(seed);
  if (hex === undefined) {
    hex = toHex(digest('md5', utf8(`edge-doubles ${seed}`)));
    if (idCache.size > 10_000) idCache.clear();
    idCache.set(seed, hex);
  }
  return hex;
}

/** The r2.dev host of a bucket: `pub-<32 hex>.r2.dev`. */
export const managedDomainOf = (accountId: string, bucket: string): string =>
  `pub-${bucketHex(accountId, bucket, 'r2.dev')}${R2_DEV}`;

export class PublicBuckets {
  /** A standard fetch, already bound: answers requests to the account's public hosts. */
  readonly fetch: Fetch;
  readonly #account: Account;

  constructor(account: Account) {
    this.#account = account;
    this.fetch = fetchOver((request) => this.handle(request));
  }

  /** The r2.dev host bucket `name` is (or would be) served at; whether it is on is the bucket's setting. */
  managedDomain(name: string): string {
    return managedDomainOf(this.#account.id, name);
  }

  /**
   * Turns bucket `name`'s r2.dev domain on or off, as `PUT …/domains/managed` (`wrangler r2 bucket
   * dev-url enable|disable`) does, for code and servers that set a bucket public without the API
   * (`r2 serve --public-bucket`); returns the host. Throws for a bucket the account does not have.
   */
  setManagedDomain(name: string, enabled: boolean): string {
    const bucket = this.#account.bucket(name);
    const config = bucket && bucketLayer(bucket)?.config;
    if (!config) throw new TypeError(`PublicBuckets: the account has no bucket "${name}"`);
    config.publicAccess = frozenPublicAccess({ managed: enabled, custom: config.publicAccess.custom });
    return this.managedDomain(name);
  }

  /** The bucket `host` serves now (its name and bucket), or undefined. Hosts compare without case and a trailing dot. */
  bucketAt(host: string): { name: string; bucket: Bucket } | undefined {
    const h = host.toLowerCase().replace(/\.$/, '');
    const state = accountState(this.#account);
    const managed = h.endsWith(R2_DEV);
    for (const [name, bucket] of state.made(R2)?.buckets() ?? []) {
      const access = bucketLayer(bucket)?.config.publicAccess;
      if (!access || (!access.managed && access.custom.length === 0)) continue;
      if (managed ? access.managed && managedDomainOf(state.id, name) === h : servesCustomDomain(access, h))
        return { name, bucket };
    }
    return undefined;
  }

  /** Whether `host` is a public host of the account now (a server routes such requests here). */
  serves(host: string): boolean {
    return this.bucketAt(host) !== undefined;
  }

  /**
   * Answers one request by its URL's host. A fault armed on the bucket, or a bug of ours, is a
   * `500` with no body; only a request body that cannot be read rejects (none is read here).
   */
  async handle(request: Request): Promise<Response> {
    const found = this.bucketAt(new URL(request.url).hostname);
    const layer: BucketLayer | undefined = found && bucketLayer(found.bucket);
    if (!layer) return notFound();
    try {
      return await servePublic(layer, request);
    } catch {
      return new Response(null, { status: 500 });
    }
  }
}
