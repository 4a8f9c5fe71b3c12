/**
 * A bucket's configuration: the settings R2 keeps per bucket, apart from its objects (CORS,
 * lifecycle rules, lock rules; public access belongs here next). Held by the bucket's layer
 * (layer.ts), so every surface over the bucket (each binding, whatever its compatibility date, and
 * each S3 view) reads and changes the same settings.
 *
 * Kept in memory on every storage (IndexedDbStorage keeps objects and uploads only). A snapshot
 * takes it and `restore` brings it back with the objects, as the bucket's state at that moment;
 * `reset` keeps it, as emptying a real bucket keeps its settings. Values are replaced whole, never
 * changed in place, so a snapshot is O(1).
 */
import type { CorsRule } from './cors.js';
import type { QueueRules } from './notifications.js';
import { NO_PUBLIC_ACCESS, type PublicAccess } from './public.js';
import { DEFAULT_LIFECYCLE_RULES, type LifecycleRule, type LifecycleTiming } from './lifecycle.js';
import type { LockRule } from './locks.js';

/** The configuration at one moment. */
export interface ConfigSnapshot {
  readonly cors: readonly CorsRule[] | undefined;
  readonly notifications: readonly QueueRules[];
  readonly publicAccess: PublicAccess;
  readonly lifecycle: readonly LifecycleRule[];
  readonly locks: readonly LockRule[];
}

export class BucketConfig {
  /** The CORS rules (PutBucketCors, `S3Api.setBucketCors`); undefined when the bucket has none. */
  cors: readonly CorsRule[] | undefined;
  /** The r2.dev domain and the custom domains (public.ts); none on a new bucket. */
  publicAccess: PublicAccess = NO_PUBLIC_ACCESS;
  #lifecycle: readonly LifecycleRule[] = DEFAULT_LIFECYCLE_RULES;
  #locks: readonly LockRule[] = [];
  /**
   * Counts changes of the rules that act on objects (lifecycle, locks): the layer's lifecycle pass
   * re-reads the whole bucket when it moved, and otherwise only when an action falls due.
   */
  changes = 0;
  /**
   * When lifecycle actions fall due (lifecycle.ts): a setting of the double, not of R2, so a
   * snapshot does not take it and `clear` keeps it.
   */
  lifecycleTiming: LifecycleTiming = 'exact';

  /** The lifecycle rules (validated: lifecycle.ts `lifecycleRules`); a new bucket has the default rule. */
  get lifecycle(): readonly LifecycleRule[] {
    return this.#lifecycle;
  }

  set lifecycle(rules: readonly LifecycleRule[]) {
    this.#lifecycle = rules;
    this.changes++;
  }

  /** The lock rules (validated: locks.ts `lockRules`); none on a new bucket. */
  get locks(): readonly LockRule[] {
    return this.#locks;
  }

  set locks(rules: readonly LockRule[]) {
    this.#locks = rules;
    this.changes++;
  }

  /** Event notification rules, by queue (notifications.ts); empty when the bucket notifies nothing. */
  notifications: readonly QueueRules[] = [];

  snapshot(): ConfigSnapshot {
    return { cors: this.cors, publicAccess: this.publicAccess, lifecycle: this.#lifecycle, locks: this.#locks, notifications: this.notifications };
  }

  restore(s: ConfigSnapshot): void {
    this.cors = s.cors;
    this.notifications = s.notifications;
    this.publicAccess = s.publicAccess;
    this.lifecycle = s.lifecycle;
    this.locks = s.locks;
  }

  /** A new bucket's settings: a deleted bucket's (DeleteBucket). */
  clear(): void {
    this.cors = undefined;
    this.notifications = [];
    this.publicAccess = NO_PUBLIC_ACCESS;
    this.lifecycle = DEFAULT_LIFECYCLE_RULES;
    this.locks = [];
  }
}
