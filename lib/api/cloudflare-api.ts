/**
 * `CloudflareApi`: one double of the `/client/v4` API for every product the library models, over
 * one account: the DNS routes (exactly `DnsApi`'s: it is a `DnsApi`, so there is one DNS
 * implementation), R2's control plane (lib/r2-api/) and the account's routes. Its `account` is the
 * one `createEnv(config, { api })` and `new S3Api({ api })` take their buckets from, so a bucket made
 * through the API is the bucket a Worker's binding and the S3 view see, and the reverse.
 */
import { Bucket } from '../bucket/bucket.js';
import { accountRoutes } from '../account/routes.js';
import { accountState } from '../account/state.js';
import { BUCKET_NAME } from '../account/state.js';
import { bucketsIn, homeLocation, isJurisdiction, isLocation, isStorageClass, type Jurisdiction, type Location, type StorageClass } from '../account/buckets.js';
import { DnsApi } from '../dns/api.js';
import { dnsRoutes, type DnsService } from '../dns/routes.js';
import type { DnsApiOptions } from '../dns/types.js';
import { graphqlRoutes } from '../r2-api/metrics.js';
import { r2Routes } from '../r2-api/routes.js';
import type { R2Service } from '../r2-api/service.js';
import { addAccountBucket } from '../account/state.js';
import type { RouteTable } from './router.js';
import { PublicBuckets } from '../r2-public/public-buckets.js';

export interface CloudflareApiOptions extends DnsApiOptions {
  /** Buckets the account has from the start (in the default jurisdiction), as if made through the API. */
  buckets?: readonly string[];
}

/** What `addBucket` takes: the create call's body fields and its jurisdiction header. */
export interface BucketCreateOptions {
  jurisdiction?: Jurisdiction;
  locationHint?: Location;
  storageClass?: StorageClass;
}

/** The service every CloudflareApi route sees: the DNS routes' and R2's. */
type CloudflareService = DnsService & R2Service;

export class CloudflareApi extends DnsApi {
  /** The account's public bucket hosts (r2.dev, custom domains): `api.public.fetch(url)` (lib/r2-public). */
  readonly public: PublicBuckets;

  constructor(options: CloudflareApiOptions = {}) {
    const { buckets, ...dnsOptions } = options;
    super(dnsOptions);
    const clock = options.clock;
    const service = this.service as CloudflareService;
    service.newBucket = (defaultStorageClass) => new Bucket({ clock, ...(defaultStorageClass ? { defaultStorageClass } : {}) });
    // DNS first (nearly every DNS request is one), then R2's, the GraphQL metrics wrangler asks, the account's; no path matches two.
    // The service this view passes every route is a CloudflareService (set just above).
    this.routes = [dnsRoutes, r2Routes as unknown as RouteTable<DnsService>, graphqlRoutes as unknown as RouteTable<DnsService>, accountRoutes];
    this.public = new PublicBuckets(this.account);
    for (const name of buckets ?? []) this.addBucket(name);
  }

  /**
   * Makes a bucket as `POST /accounts/{id}/r2/buckets` would (same rules, thrown as errors here),
   * for tests that start with buckets; returns it. The Worker's binding and the S3 view over this
   * account see it under `name`.
   */
  addBucket(name: string, options: BucketCreateOptions = {}): Bucket {
    const state = accountState(this.account);
    const jurisdiction = options.jurisdiction ?? 'default';
    if (!isJurisdiction(jurisdiction)) throw new Error(`CloudflareApi: unknown jurisdiction ${JSON.stringify(jurisdiction)}`);
    if (typeof name !== 'string' || !BUCKET_NAME.test(name)) throw new Error(`CloudflareApi: bucket name ${JSON.stringify(name)} is invalid`);
    if (options.locationHint !== undefined && !isLocation(options.locationHint)) throw new Error(`CloudflareApi: unknown locationHint ${JSON.stringify(options.locationHint)}`);
    if (options.storageClass !== undefined && !isStorageClass(options.storageClass)) throw new Error(`CloudflareApi: unknown storageClass ${JSON.stringify(options.storageClass)}`);
    if (bucketsIn(state, jurisdiction).has(name)) throw new Error(`CloudflareApi: a bucket named ${name} already exists${jurisdiction === 'default' ? '' : ` in ${jurisdiction}`}`);
    const bucket = (this.service as CloudflareService).newBucket(options.storageClass);
    const location = options.locationHint ?? homeLocation(jurisdiction);
    return addAccountBucket(state, name, bucket, { jurisdiction, location });
  }
}
