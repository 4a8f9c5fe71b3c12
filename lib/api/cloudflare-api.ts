/**
 * `CloudflareApi`: one double of the `/client/v4` API for every product the library models, over
 * one account: the DNS routes (exactly `DnsApi`'s: it is a `DnsApi`, so there is one DNS
 * implementation), R2's control plane (lib/r2-api/) and the account's routes. Its `account` is the
 * one `createEnv(config, { api })` and `new S3Api({ api })` take their buckets from, so a bucket made
 * through the API is the bucket a Worker's binding and the S3 view see, and the reverse.
 */
import { Bucket } from '../bucket/bucket.js';
import { accountRoutes } from '../account/routes.js';
import { DnsApi } from '../dns/api.js';
import { dnsRoutes, type DnsService } from '../dns/routes.js';
import type { DnsApiOptions } from '../dns/types.js';
import { r2Routes } from '../r2-api/routes.js';
import type { R2Service } from '../r2-api/service.js';
import type { RouteTable } from './router.js';
import { PublicBuckets } from '../r2-public/public-buckets.js';

export type CloudflareApiOptions = DnsApiOptions;

/** The service every CloudflareApi route sees: the DNS routes' and R2's. */
type CloudflareService = DnsService & R2Service;

export class CloudflareApi extends DnsApi {
  /** The account's public bucket hosts (r2.dev, custom domains): `api.public.fetch(url)` (lib/r2-public). */
  readonly public: PublicBuckets;

  constructor(options: CloudflareApiOptions = {}) {
    super(options);
    const clock = options.clock;
    const service = this.service as CloudflareService;
    service.newBucket = () => new Bucket({ clock });
    // DNS first (nearly every DNS request is one), then R2's, then the account's; no path matches two.
    // The service this view passes every route is a CloudflareService (set just above).
    this.routes = [dnsRoutes, r2Routes as unknown as RouteTable<DnsService>, accountRoutes];
    this.public = new PublicBuckets(this.account);
  }
}
