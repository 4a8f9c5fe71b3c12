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
import type { QueueRules } from './notifications.js';

/** The configuration at one moment. */
export interface ConfigSnapshot {
  readonly cors: readonly CorsRule[] | undefined;
  readonly notifications: readonly QueueRules[];
}

export class BucketConfig {
  /** The CORS rules (PutBucketCors, `S3Api.setBucketCors`); undefined when the bucket has none. */
  cors: readonly CorsRule[] | undefined;
  /** Event notification rules, by queue (notifications.ts); empty when the bucket notifies nothing. */
  notifications: readonly QueueRules[] = [];

  snapshot(): ConfigSnapshot {
    return { cors: this.cors, notifications: this.notifications };
  }

  restore(s: ConfigSnapshot): void {
    this.cors = s.cors;
    this.notifications = s.notifications;
  }

  /** No settings at all: a deleted bucket's (DeleteBucket). */
  clear(): void {
    this.cors = undefined;
    this.notifications = [];
  }
}
