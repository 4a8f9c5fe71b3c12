/**
 * Which bucket layer (layer.ts) is behind a Bucket binding: what a second surface over the same
 * bucket (the S3 view, the API, the account's directory, `--persist`) reaches past the binding for,
 * the one way into its model for every surface. Kept here, by the bucket, so a `Bucket` shows
 * exactly the members the runtime's R2Bucket shows and nothing finds it through the test support.
 *
 * Internal: not exported from edge-doubles/bucket.
 */
import type { BucketLayer } from './layer.js';

const layers = new WeakMap<object, BucketLayer>();

/** Records the layer a Bucket binding was made over (its constructor). */
export function bindLayer(bucket: object, layer: BucketLayer): void {
  layers.set(bucket, layer);
}

/** The layer behind a Bucket made by this library; undefined for anything else. */
export function bucketLayer(bucket: object): BucketLayer | undefined {
  return layers.get(bucket);
}
