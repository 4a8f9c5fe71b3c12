/**
 * Where the test-support functions (matchers, plain assertions) and the S3 view (a second surface
 * over a bucket, through its layer) find a double's insides without the double showing them: each double
 * registers itself here when built. Weakly held.
 */
import type { BucketLayer } from '../bucket/layer.js';
import type { BucketModel } from '../bucket/model.js';
import type { Zone } from '../dns/zone.js';
import type { BucketSupport } from './bucket-support.js';
import type { DnsSupport } from './dns-support.js';

export interface BucketInsides {
  /** The model, read directly by the synchronous matchers (`toHaveObject`). */
  readonly model: () => BucketModel;
  readonly support: BucketSupport;
  /** The one way in for every surface (the S3 view's). */
  readonly layer: BucketLayer;
}

export interface DnsInsides {
  readonly zone: (idOrName: string) => Zone | undefined;
  readonly zones: () => Iterable<Zone>;
  readonly retiredFields: boolean;
  readonly support: DnsSupport;
}

export const bucketInsides = new WeakMap<object, BucketInsides>();
export const dnsInsides = new WeakMap<object, DnsInsides>();
