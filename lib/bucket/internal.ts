/**
 * What a second surface over the same bucket (the S3 view, lib/s3) reaches past the binding for:
 * the bucket's layer (layer.ts), the one way into its model for every surface. Read from the one
 * registry of doubles' insides (lib/support/registry.ts), so a `Bucket` shows exactly the members
 * the runtime's R2Bucket shows.
 *
 * Internal: not exported from edge-doubles/bucket.
 */
import { doubleOf } from '../support/registry.js';
import type { BucketLayer } from './layer.js';

/** The layer behind a Bucket made by this library; undefined for anything else. */
export function bucketLayer(bucket: object): BucketLayer | undefined {
  return doubleOf(bucket)?.bucket;
}
