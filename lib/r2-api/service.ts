/**
 * What R2's control-plane routes ask of the double, beyond every route's service: a new bucket (the
 * bucket model is loaded only by the views that serve buckets, so the DNS entry point stays small),
 * and the bucket a request names.
 */
import type { Bucket } from '../bucket/bucket.js';
import type { ApiService, Incoming, RouteParams } from '../api/router.js';
import { r2ApiErrors } from './errors.js';

export interface R2Service extends ApiService {
  /** A new, empty bucket on the double's clock. */
  newBucket(): Bucket;
}

/** The bucket the path names (`params.id`), in the account the router resolved, or R2's 10006. */
export function namedBucket(svc: R2Service, _req: Incoming, params: RouteParams): { name: string; bucket: Bucket } {
  const name = params.id!;
  const bucket = (params.account ?? svc.account).buckets.get(name);
  if (!bucket) throw r2ApiErrors.noSuchBucket();
  return { name, bucket };
}
