/**
 * The account's bucket directory (ARCHITECTURE.md, "The joints"): the one place
 * every surface makes, finds and deletes buckets: the S3 view's CreateBucket / DeleteBucket
 * (lib/s3/api.ts), the API's `POST` / `DELETE /r2/buckets` (lib/r2-api/buckets.ts),
 * `CloudflareApi#addBucket`, `Account#addBucket` (and so the CLI's `--bucket`), and `createEnv`'s
 * buckets over an account. One name check (`BUCKET_NAME`), one record of what a bucket is in the
 * account (its jurisdiction's map, when it was made, its location, where its events go), one way a
 * bucket goes (empty, its settings cleared through its layer, its name free again).
 *
 * Each surface phrases the outcome its own way (an S3 XML error, the API's envelope, a thrown
 * Error): the directory answers with the problem's name.
 */
// Type only: the DNS entry point must not pull the bucket model into its bundle.
import type { Bucket } from '../bucket/bucket.js';
import type { BucketStorage } from '../bucket/storage.js';
import { bucketLayer } from '../bucket/internal.js';
import type { SettingSurface } from '../bucket/layer.js';
import { bucketsIn, type BucketInfo } from './buckets.js';
import type { AccountState } from './state.js';

/** R2's rule for bucket names (wrangler's text is BUCKET_NAME_RULE, lib/env/bucket-bindings.ts). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/** Whether `name` follows R2's rule for bucket names. */
export const isBucketName = (name: unknown): name is string => typeof name === 'string' && BUCKET_NAME.test(name);

/** Why a bucket could not be made: a name outside R2's rule, a name taken, a bucket already in the account. */
export type CreateProblem = 'invalidName' | 'exists' | 'alreadyIn';

/** Makes the Bucket a surface asked for, on `storage` when the account keeps its buckets outside memory (`keepBucketsIn`). */
export type BucketMaker = (storage: BucketStorage | undefined) => Bucket;

/**
 * Makes a bucket in the account under `name` (in `info.jurisdiction`, default the default one):
 * checked, then recorded; `bucket` is the Bucket to hold, or makes it once the checks passed (on a
 * new storage of the account's `bucketStorage`, when set).
 */
export function createBucket(
  state: AccountState,
  name: unknown,
  bucket: Bucket | BucketMaker,
  info?: BucketInfo,
): Bucket | CreateProblem {
  if (!isBucketName(name)) return 'invalidName';
  const map = bucketsIn(state, info?.jurisdiction ?? 'default');
  if (map.has(name)) return 'exists';
  if (typeof bucket !== 'function') {
    // A binding over a bucket (`new Bucket({ over })`) is that bucket: one bucket, one name.
    const layer = bucketLayer(bucket);
    if ([...map.values()].some((b) => b === bucket || (layer !== undefined && bucketLayer(b) === layer)))
      return 'alreadyIn';
  }
  return addAccountBucket(state, name, typeof bucket === 'function' ? bucket(state.bucketStorage?.()) : bucket, info);
}

/**
 * Has every bucket the account's surfaces make from now on kept in a storage `make` returns (one
 * per bucket): a `--persist` server's buckets (lib/node/persist/). Buckets already made stay where they are.
 */
export function keepBucketsIn(state: AccountState, make: () => BucketStorage): void {
  state.bucketStorage = make;
}

/**
 * Records a bucket in the account's state under a name already checked (`createBucket` does the
 * checks): when it was made, its jurisdiction and location, and where its events go.
 */
export function addAccountBucket(state: AccountState, name: string, bucket: Bucket, info?: BucketInfo): Bucket {
  const map = bucketsIn(state, info?.jurisdiction ?? 'default');
  map.set(name, bucket);
  state.bucketCreated.set(bucket, state.now());
  if (info) state.bucketInfo.set(bucket, info);
  // The bucket's changes notify under this name, in this account, while it is still there under it
  // (a deleted bucket, or a name reused, notifies nothing): the account's events (events.ts).
  state.events.bucketJoined(map, name, bucket);
  return bucket;
}

/**
 * Deletes the bucket named `name` from `buckets` (a jurisdiction's map of an account, or an S3
 * view's own): refused ('notEmpty') while it holds an object or an unfinished upload; else its
 * settings are cleared through its layer (a `deleteBucket` call of `surface`: logged, faultable,
 * kept by its storage), so a bucket made again under the name starts with none, and the name is
 * free. Undefined when done; 'missing' when there is no such bucket.
 */
export async function deleteBucket(
  buckets: Map<string, Bucket>,
  name: string,
  surface: SettingSurface,
): Promise<'notEmpty' | 'missing' | undefined> {
  const bucket = buckets.get(name);
  const layer = bucket && bucketLayer(bucket);
  if (!layer) return 'missing';
  if (await layer.holdsAnything()) return 'notEmpty';
  await layer.changeSettings(surface, 'deleteBucket', (c) => c.clear());
  if (buckets.get(name) === bucket) buckets.delete(name);
  return undefined;
}
