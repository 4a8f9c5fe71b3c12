/**
 * What the account knows of a bucket beyond its contents: the jurisdiction it lives in and its
 * location (creation time is `bucketCreated`, state.ts; the default storage class is a setting of the
 * bucket itself, its layer's `defaultStorageClass`, read by every put). One home for these, so
 * the API (lib/r2-api/buckets.ts), `createEnv` (a binding's `jurisdiction`) and the S3 view agree.
 *
 * Jurisdictions: R2 keeps each jurisdiction's buckets apart (a name may exist in `default` and in
 * `eu` at once; the API addresses the second with `cf-r2-jurisdiction: eu`,
 * docs/sources/r2-api.md#jurisdictions, and the S3 endpoint with
 * `<account>.eu.r2.cloudflarestorage.com`). The account keeps one map per jurisdiction: `buckets`
 * (state.ts) is the default one, the others live in `jurisdictions`.
 */
// Type only: the DNS entry point must not pull the bucket model into its bundle.
import type { Bucket } from '../bucket/bucket.js';
import type { AccountState } from './state.js';

/** The `cf-r2-jurisdiction` values the API takes (the `cloudflare` SDK's `BucketCreateParams`). */
const JURISDICTIONS = ['default', 'eu', 'us', 'fedramp', 'fedramp-high'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

/** `locationHint` values (SDK `BucketCreateParams.locationHint`; docs r2/reference/data-location). */
const LOCATIONS = ['apac', 'eeur', 'enam', 'weur', 'wnam', 'oc'] as const;
export type Location = (typeof LOCATIONS)[number];

/** Default storage classes (SDK `Bucket.storage_class`). */
const STORAGE_CLASSES = ['Standard', 'InfrequentAccess'] as const;
export type StorageClass = (typeof STORAGE_CLASSES)[number];

export interface BucketInfo {
  jurisdiction: Jurisdiction;
  location: Location;
}

/**
 * Where a bucket made without a location hint is placed. Production picks the region nearest the
 * caller; the double has no caller location, so it declares the jurisdiction's home region: `weur`
 * for `eu`, `enam` otherwise (our choice).
 */
export const homeLocation = (jurisdiction: Jurisdiction): Location => (jurisdiction === 'eu' ? 'weur' : 'enam');

export const isJurisdiction = (v: unknown): v is Jurisdiction => (JURISDICTIONS as readonly unknown[]).includes(v);
export const isLocation = (v: unknown): v is Location => (LOCATIONS as readonly unknown[]).includes(v);
export const isStorageClass = (v: unknown): v is StorageClass => (STORAGE_CLASSES as readonly unknown[]).includes(v);

/** The buckets of one jurisdiction, by name (made empty on first use). */
export function bucketsIn(state: AccountState, jurisdiction: Jurisdiction = 'default'): Map<string, Bucket> {
  if (jurisdiction === 'default') return state.buckets;
  let map = state.jurisdictions.get(jurisdiction);
  if (!map) state.jurisdictions.set(jurisdiction, (map = new Map()));
  return map;
}

/** A bucket's jurisdiction and location: as recorded, or the defaults for a bucket added without them. */
export function bucketInfo(state: AccountState, bucket: Bucket): BucketInfo {
  return state.bucketInfo.get(bucket) ?? { jurisdiction: 'default', location: homeLocation('default') };
}
