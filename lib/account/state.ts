/**
 * What the views of an `Account` share (account.ts), apart from the class: a view that only reads
 * and changes the account's buckets (the S3 view) imports this, not the API's credentials code, so
 * its bundle stays its own (bench/bundle-size.ts). Internal: never shown on `Account`.
 */
// Types only: the DNS entry point must not pull the bucket model into its bundle.
import type { Credentials } from '../api/auth.js';
import type { Bucket } from '../bucket/bucket.js';
import type { Zone } from '../dns/zone.js';
import type { Queue } from '../queue/queue.js';
import type { Account } from './account.js';

/** What the views share. Internal: reached through `accountState`, never shown on `Account`. */
export interface AccountState {
  readonly id: string;
  readonly name: string;
  readonly created: number;
  /** Zones by id, in the order added (the DNS view makes them with its own rules). */
  readonly zones: Map<string, Zone>;
  /** Buckets by name. Add with `addAccountBucket`, which records when. */
  readonly buckets: Map<string, Bucket>;
  /**
   * Queues by name: the queue a Worker's producer binding of that name sends to and its consumer
   * reads (`createEnv(config, { account })`), dead-letter queues made on demand included.
   */
  readonly queues: Map<string, Queue>;
  /** When each bucket was added (the S3 view's ListBuckets CreationDate), by the account's clock. */
  readonly bucketCreated: WeakMap<Bucket, number>;
  /** "Now" by the account's clock. */
  readonly now: () => number;
  readonly credentials: Credentials;
}

/** Set by the Account constructor. */
export const accountStates = new WeakMap<Account, AccountState>();

export const accountState = (account: Account): AccountState => {
  const s = accountStates.get(account);
  if (!s) throw new TypeError('not an edge-doubles Account');
  return s;
};

/** R2's rule for bucket names (wrangler's text is BUCKET_NAME_RULE, lib/env/bucket-bindings.ts). */
export const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/** Puts a bucket in the account's state under a name already checked, recording when. */
export function addAccountBucket(state: AccountState, name: string, bucket: Bucket): Bucket {
  state.buckets.set(name, bucket);
  state.bucketCreated.set(bucket, state.now());
  return bucket;
}
