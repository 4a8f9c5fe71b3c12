/**
 * What R2's control-plane routes ask of the double, beyond every route's service: a new bucket (the
 * bucket model is loaded only by the views that serve buckets, so the DNS entry point stays small),
 * the jurisdiction a request addresses, and the bucket a request names.
 */
import type { Bucket } from '../bucket/bucket.js';
import type { BucketStorage } from '../bucket/storage.js';
import { isJurisdiction, R2, type Jurisdiction, type R2Backend } from '../bucket/backend.js';
import type { Principal } from '../api/auth.js';
import { apiErrors } from '../api/errors.js';
import type { ApiAccount, ApiService, Incoming, RouteParams } from '../api/router.js';
import { r2ApiErrors } from './errors.js';

export interface R2Service extends ApiService {
  /** A new, empty bucket on the double's clock, whose puts default to `defaultStorageClass` (`Standard`), on `storage` (default memory). */
  newBucket(defaultStorageClass?: string, storage?: BucketStorage): Bucket;
}

/**
 * The jurisdiction a request addresses: its `cf-r2-jurisdiction` header (every R2 bucket route
 * takes it, docs/sources/r2-api.md#jurisdictions; values from the SDK's params), `default` when
 * absent or empty (wrangler sends the header only when `-J` is given). A value outside the API's
 * set is refused as a malformed request, 10040: what production answers is not established (our
 * choice).
 */
function requestJurisdiction(req: Incoming): Jurisdiction {
  const raw = req.headers.get('cf-r2-jurisdiction');
  if (raw === null || raw.trim() === '') return 'default';
  const value = raw.trim().toLowerCase();
  if (!isJurisdiction(value)) throw r2ApiErrors.malformed();
  return value;
}

/** The buckets of the account the router resolved, in the jurisdiction the request addresses. */
export function addressedBuckets(
  svc: R2Service,
  req: Incoming,
  params: RouteParams,
): { account: ApiAccount; r2: R2Backend; jurisdiction: Jurisdiction; buckets: ReadonlyMap<string, Bucket> } {
  const account = params.account ?? svc.account;
  const jurisdiction = requestJurisdiction(req);
  const r2 = account.backend(R2);
  return { account, r2, jurisdiction, buckets: r2.buckets(jurisdiction) };
}

/**
 * The bucket the path names (`params.id`), in the account the router resolved and the jurisdiction
 * the request addresses (`cf-r2-jurisdiction`), or R2's 10006.
 */
export function namedBucket(
  svc: R2Service,
  req: Incoming,
  params: RouteParams,
): { name: string; bucket: Bucket; jurisdiction: Jurisdiction } {
  const name = params.id!;
  const { buckets, jurisdiction } = addressedBuckets(svc, req, params);
  const bucket = buckets.get(name);
  if (!bucket) throw r2ApiErrors.noSuchBucket();
  return { name, bucket, jurisdiction };
}

/**
 * Refuses a token whose R2 permission (`ApiCredential.r2`) does not cover the request: reads need
 * `read` or `write`, everything else `write`. The answer is the API gateway's for a valid token
 * without the resource's permission group, 403 10000 "Authentication error" (what clients report
 * for account resources their token lacks, e.g. gronxb/hot-updater#449 for D1; wrangler prints its
 * "check your token's permissions" hint on 10000, cloudflare/workers-sdk#4597), not R2's own
 * 10003 AccessDenied, which its error-code page gives for the object surfaces. Another account's
 * path was refused before this, by the router (9109).
 */
export function requireR2(who: Principal, method: string): void {
  const granted = who.r2 ?? 'write';
  const needed = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  if (granted === 'none' || (needed === 'write' && granted !== 'write')) throw apiErrors.notAuthorized();
}
