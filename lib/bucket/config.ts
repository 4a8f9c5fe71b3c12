/**
 * A bucket's configuration: the settings R2 keeps per bucket, apart from its objects (CORS,
 * lifecycle rules, lock rules, event notification rules, public access, the default storage
 * class), and its background jobs (jobs.ts). Held by the bucket's layer (layer.ts), so every
 * surface over the bucket (each binding, whatever its compatibility date, each S3 view, the REST
 * API) reads and changes the same settings.
 *
 * Settings are bucket state (ARCHITECTURE.md, "The joints"): they change only through the
 * layer's setting operations (layer.ts `changeSettings`), each one a call like a put: run in the
 * bucket's storage transaction, logged, faultable. A persistent storage keeps them with the objects
 * (indexeddb-storage.ts: one `settings` record), so a second Bucket on the database sees and
 * enforces them. A snapshot takes them and `restore` brings them back with the objects; `reset`
 * keeps them, as emptying a real bucket keeps its settings. Values are replaced whole, never changed
 * in place, so a snapshot is O(1) and a record is plain data (structured-cloneable).
 */
import type { CorsRule } from './cors.js';
import type { QueueRules } from './notifications.js';
import { NO_PUBLIC_ACCESS, type PublicAccess } from './public.js';
import { DEFAULT_LIFECYCLE_RULES, type LifecycleRule, type LifecycleTiming } from './lifecycle.js';
import type { LockRule } from './locks.js';
import type { SippySettings } from './sippy.js';
import type { BucketJob } from './jobs.js';

/** The configuration at one moment: also the record a persistent storage keeps. */
export interface ConfigSnapshot {
  readonly cors: readonly CorsRule[] | undefined;
  readonly notifications: readonly QueueRules[];
  readonly publicAccess: PublicAccess;
  readonly lifecycle: readonly LifecycleRule[];
  readonly locks: readonly LockRule[];
  /** The default storage class when it was changed (R2's `PATCH` of the bucket); undefined: the Bucket's own. */
  readonly storageClass?: string | undefined;
  /** Sippy's source (sippy.ts), when it is on. */
  readonly sippy?: SippySettings | undefined;
  /** The bucket's background jobs (jobs.ts: prefix deletes), oldest first. */
  readonly jobs?: readonly BucketJob[] | undefined;
  /** Local uploads (the API's `/local-uploads`): recorded and shown; the double has one region, so nothing else changes. */
  readonly localUploads?: boolean | undefined;
}

/** A new bucket's settings (and a deleted bucket's: DeleteBucket). */
const NEW_BUCKET: ConfigSnapshot = Object.freeze({
  cors: undefined,
  notifications: [],
  publicAccess: NO_PUBLIC_ACCESS,
  lifecycle: DEFAULT_LIFECYCLE_RULES,
  locks: [],
  storageClass: undefined,
  sippy: undefined,
  jobs: undefined,
  localUploads: undefined,
});

/** The settings that act on objects (lifecycle, locks): changing one moves `changes`. */
const ACTING: ReadonlySet<keyof ConfigSnapshot> = new Set(['lifecycle', 'locks']);

export class BucketConfig {
  /**
   * The settings, as one record replaced whole by every change: the snapshot is the record itself
   * (O(1)), and a setting added to ConfigSnapshot and NEW_BUCKET needs only its accessor pair below.
   */
  #s: ConfigSnapshot = NEW_BUCKET;
  /**
   * Counts changes of the rules that act on objects (lifecycle, locks): the layer's lifecycle pass
   * re-reads the whole bucket when it moved, and otherwise only when an action falls due.
   */
  changes = 0;
  /** Counts every change: a persistent storage stores the settings when an operation moved it. */
  version = 0;
  /**
   * When lifecycle actions fall due (lifecycle.ts): a setting of the double, not of R2, so a
   * snapshot does not take it and `clear` keeps it.
   */
  lifecycleTiming: LifecycleTiming = 'exact';

  /** @param defaultStorageClass the Bucket's own default storage class (its `defaultStorageClass` option) */
  constructor(readonly defaultStorageClass = 'Standard') {}

  #set<K extends keyof ConfigSnapshot>(key: K, value: ConfigSnapshot[K]): void {
    this.#s = Object.freeze({ ...this.#s, [key]: value });
    if (ACTING.has(key)) this.changes++;
    this.version++;
  }

  /** The CORS rules (PutBucketCors, the API's `/cors`); undefined when the bucket has none. */
  get cors(): readonly CorsRule[] | undefined {
    return this.#s.cors;
  }

  set cors(rules: readonly CorsRule[] | undefined) {
    this.#set('cors', rules);
  }

  /** The r2.dev domain and the custom domains (public.ts); none on a new bucket. */
  get publicAccess(): PublicAccess {
    return this.#s.publicAccess;
  }

  set publicAccess(p: PublicAccess) {
    this.#set('publicAccess', p);
  }

  /** The lifecycle rules (validated: lifecycle.ts `lifecycleRules`); a new bucket has the default rule. */
  get lifecycle(): readonly LifecycleRule[] {
    return this.#s.lifecycle;
  }

  set lifecycle(rules: readonly LifecycleRule[]) {
    this.#set('lifecycle', rules);
  }

  /** The lock rules (validated: locks.ts `lockRules`); none on a new bucket. */
  get locks(): readonly LockRule[] {
    return this.#s.locks;
  }

  set locks(rules: readonly LockRule[]) {
    this.#set('locks', rules);
  }

  /** Event notification rules, by queue (notifications.ts); empty when the bucket notifies nothing. */
  get notifications(): readonly QueueRules[] {
    return this.#s.notifications;
  }

  set notifications(rules: readonly QueueRules[]) {
    this.#set('notifications', rules);
  }

  /** The class a put without one takes (R2's bucket default storage class). */
  get storageClass(): string {
    return this.#s.storageClass ?? this.defaultStorageClass;
  }

  set storageClass(c: string) {
    this.#set('storageClass', c);
  }

  /** Sippy's source (sippy.ts): reads of missing keys copy in from it; undefined when Sippy is off. */
  get sippy(): SippySettings | undefined {
    return this.#s.sippy;
  }

  set sippy(s: SippySettings | undefined) {
    this.#set('sippy', s);
  }

  /** The bucket's background jobs (jobs.ts), oldest first: kept with the settings, so snapshots and storages hold them. */
  get jobs(): readonly BucketJob[] {
    return this.#s.jobs ?? [];
  }

  set jobs(jobs: readonly BucketJob[]) {
    this.#set('jobs', jobs);
  }

  /** Whether local uploads are on (the API's `/local-uploads`); off on a new bucket. */
  get localUploads(): boolean {
    return this.#s.localUploads ?? false;
  }

  set localUploads(on: boolean) {
    this.#set('localUploads', on);
  }

  /** The settings now: a frozen record, shared until the next change replaces it. */
  snapshot(): ConfigSnapshot {
    return this.#s;
  }

  restore(s: ConfigSnapshot): void {
    // A record read back from storage may lack the fields added since it was written: a new bucket's.
    this.#s = Object.freeze({ ...NEW_BUCKET, ...s });
    this.changes++;
    this.version++;
  }

  /** A new bucket's settings: a deleted bucket's (DeleteBucket). */
  clear(): void {
    this.restore(NEW_BUCKET);
  }
}
