/**
 * A bucket's configuration: the settings R2 keeps per bucket, apart from its objects (CORS today;
 * lifecycle rules, locks and public access belong here next). Held by the bucket's layer
 * (layer.ts), so every surface over the bucket (each binding, whatever its compatibility date, and
 * each S3 view) reads and changes the same settings.
 *
 * Kept in memory on every storage (IndexedDbStorage keeps objects and uploads only). A snapshot
 * takes it and `restore` brings it back with the objects, as the bucket's state at that moment;
 * `reset` keeps it, as emptying a real bucket keeps its settings. Values are replaced whole, never
 * changed in place, so a snapshot is O(1).
 */
import type { CorsRule } from './cors.js';
import { NO_PUBLIC_ACCESS, type PublicAccess } from './public.js';

/** The configuration at one moment. */
export interface ConfigSnapshot {
  readonly cors: readonly CorsRule[] | undefined;
  readonly publicAccess: PublicAccess;
}

export class BucketConfig {
  /** The CORS rules (PutBucketCors, `S3Api.setBucketCors`); undefined when the bucket has none. */
  cors: readonly CorsRule[] | undefined;
  /** The r2.dev domain and the custom domains (public.ts); none on a new bucket. */
  publicAccess: PublicAccess = NO_PUBLIC_ACCESS;

  snapshot(): ConfigSnapshot {
    return { cors: this.cors, publicAccess: this.publicAccess };
  }

  restore(s: ConfigSnapshot): void {
    this.cors = s.cors;
    this.publicAccess = s.publicAccess;
  }

  /** No settings at all: a deleted bucket's (DeleteBucket). */
  clear(): void {
    this.cors = undefined;
    this.publicAccess = NO_PUBLIC_ACCESS;
  }
}
