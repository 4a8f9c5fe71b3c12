/**
 * What a second surface over the same bucket (the S3 view, lib/s3) reaches past the binding for:
 * the bucket's model and its default storage class. Read from the one registry of doubles' insides
 * (lib/support/registry.ts), so a `Bucket` shows exactly the members the runtime's R2Bucket shows.
 *
 * Internal: not exported from edge-doubles/bucket.
 */
import { bucketInsides } from '../support/registry.js';
import type { BucketModel } from './model.js';

export interface BucketInternals {
  readonly model: BucketModel;
  readonly defaultStorageClass: string;
}

/** The model behind a Bucket made by this library; undefined for anything else. */
export function bucketInternals(bucket: object): BucketInternals | undefined {
  const insides = bucketInsides.get(bucket);
  return insides && { model: insides.model(), defaultStorageClass: insides.defaultStorageClass };
}
