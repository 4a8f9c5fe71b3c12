/**
 * `CloudflareApi`: one double of the `/client/v4` API for every product the library models, an
 * assembly of the front door (lib/api/front-door.ts) over one account, as `DnsApi` is: the account's
 * zones and the DNS routes (the same as DnsApi's: lib/dns-api/zones-api.ts, lib/dns/routes.ts, so
 * there is one DNS implementation), R2's control plane (lib/r2-api/), the queues' routes
 * (lib/queue/routes.ts) and the account's routes. Its `account` is the
 * one `createEnv(config, { api })` and `new S3Api({ api })` take their buckets from, so a bucket made
 * through the API is the bucket a Worker's binding and the S3 view see, and the reverse.
 */
import { Bucket } from '../bucket/bucket.js';
import type { BucketStorage } from '../bucket/storage.js';
import { lifecycleTimingOption, type LifecycleTiming } from '../bucket/lifecycle.js';
import { accountState } from '../account/state.js';
import {
  homeLocation,
  isJurisdiction,
  isLocation,
  isStorageClass,
  R2,
  type Jurisdiction,
  type Location,
  type R2Snapshot,
  type StorageClass,
} from '../bucket/backend.js';
import { ZonesApi, type DnsSnapshot } from '../dns-api/zones-api.js';
import type { DnsApiOptions } from '../dns-api/options.js';
import type { CloudflareService } from './routes.js';
import { PublicBuckets } from '../r2-public/public-buckets.js';
import { bucketLayer } from '../bucket/internal.js';
import {
  addRules,
  EVENT_TYPE_ACTIONS,
  type NotificationAction,
  type NotificationRule,
} from '../bucket/notifications.js';
import { queueByName } from '../queue/account-queues.js';
import { DNS } from '../dns/backend.js';
import type { BackendsSnapshot } from '../support/backend.js';

/** A rule for `addEventNotification`: the queue by name, and R2's actions or wrangler's event types. */
export interface EventNotificationInit {
  queue: string;
  eventTypes?: readonly ('object-create' | 'object-delete')[];
  actions?: readonly NotificationAction[];
  prefix?: string;
  suffix?: string;
  description?: string;
}

export interface CloudflareApiOptions extends DnsApiOptions {
  /** Buckets the account has from the start (in the default jurisdiction), as if made through the API. */
  buckets?: readonly string[];
  /** When the lifecycle rules of the buckets this API makes act: `new Bucket({ lifecycleTiming })`. Default 'exact'. */
  lifecycleTiming?: LifecycleTiming;
}

/** What `addBucket` takes: the create call's body fields and its jurisdiction header. */
export interface BucketCreateOptions {
  jurisdiction?: Jurisdiction;
  locationHint?: Location;
  storageClass?: StorageClass;
}

/** Every product's route tables (routes.ts), imported on the first request (lib/api/front-door.ts). */
const routes = () => import('./routes.js').then((m) => m.CLOUDFLARE_API_ROUTES);

/** The zones and the buckets at one moment. Opaque; restore it with `restore` on the same CloudflareApi. */
export interface CloudflareSnapshot extends DnsSnapshot {
  readonly buckets: number;
}

/** What a snapshot holds: every backend of the account (DNS, R2, Queues, as made) and its credentials. */
interface Taken {
  owner: CloudflareApi;
  backends: BackendsSnapshot;
  credentials: object;
}
const taken = new WeakMap<object, Taken>();

export class CloudflareApi extends ZonesApi<CloudflareService> {
  /** The account's public bucket hosts (r2.dev, custom domains): `api.public.fetch(url)` (lib/r2-public). */
  readonly public: PublicBuckets;

  constructor(options: CloudflareApiOptions = {}) {
    const { buckets, lifecycleTiming: timing, ...dnsOptions } = options;
    const clock = options.clock;
    const lifecycleTiming = lifecycleTimingOption(timing, 'CloudflareApi');
    const newBucket = (defaultStorageClass?: string, storage?: BucketStorage) =>
      new Bucket({
        clock,
        lifecycleTiming,
        ...(defaultStorageClass ? { defaultStorageClass } : {}),
        ...(storage ? { storage } : {}),
      });
    super(dnsOptions, { service: (dns) => ({ ...dns, newBucket }), routes });
    this.public = new PublicBuckets(this.account);
    for (const name of buckets ?? []) this.addBucket(name);
  }

  // ---- test support: the whole account, one way: its backends and its credentials --------------

  /**
   * Everything the account holds now: its zones' records, its buckets (which exist in each
   * jurisdiction, what each holds, its configuration and default storage class), its queues (their
   * messages, API records and consumers), the account's DNS settings and its credentials, each
   * product's backend's own snapshot, in O(1) per zone, bucket and queue: later changes never reach it.
   */
  override snapshot(): CloudflareSnapshot {
    const state = accountState(this.account);
    const backends = state.backends.snapshot();
    const r2 = backends.states.get(R2) as R2Snapshot | undefined;
    const s: CloudflareSnapshot = Object.freeze({
      zones: state.made(DNS)?.zones.size ?? 0,
      buckets: r2?.buckets ?? 0,
    });
    taken.set(s, { owner: this, backends, credentials: state.credentials.snapshot() });
    return s;
  }

  /**
   * Brings back a snapshot of this CloudflareApi: zones, buckets and queues made since are gone,
   * deleted ones are back with what they held. Fault rules and the request log are cleared.
   */
  override restore(snapshot: DnsSnapshot): void {
    const t = taken.get(snapshot);
    if (!t || t.owner !== this)
      throw new TypeError('CloudflareApi.restore: not a snapshot taken by this CloudflareApi');
    const state = accountState(this.account);
    state.backends.restore(t.backends);
    state.credentials.restore(t.credentials);
    this.support.clear();
  }

  /** Empties every zone, bucket and queue (zones, buckets, queues and their settings and consumers stay); clears fault rules and the request log. */
  override reset(): void {
    accountState(this.account).backends.reset();
    this.support.clear();
  }

  /**
   * Adds an event notification rule to a bucket, as `wrangler r2 bucket notification create` does
   * through the API (the same checks: an overlapping rule on that queue, more than 100 rules, an
   * unknown queue or bucket, thrown here as errors); returns the rule. `eventTypes` are wrangler's
   * (`object-create`, `object-delete`), `actions` R2's own; give either.
   */
  addEventNotification(
    bucket: string,
    rule: EventNotificationInit,
    options: { jurisdiction?: Jurisdiction } = {},
  ): NotificationRule {
    const state = accountState(this.account);
    const target = state
      .backend(R2)
      .buckets(options.jurisdiction ?? 'default')
      .get(bucket);
    if (!target) throw new Error(`CloudflareApi.addEventNotification: no bucket ${bucket}`);
    const queue = queueByName(state, rule.queue);
    if (!queue)
      throw new Error(
        `CloudflareApi.addEventNotification: no queue ${rule.queue} (wrangler queues create ${rule.queue}, or a [[queues.producers]] entry in createEnv's config)`,
      );
    const actions = [...(rule.actions ?? []), ...(rule.eventTypes ?? []).flatMap((t) => EVENT_TYPE_ACTIONS[t] ?? [])];
    const layer = bucketLayer(target)!;
    const init = { actions, prefix: rule.prefix, suffix: rule.suffix, description: rule.description };
    const result = addRules(layer.config.notifications, queue.id, [init], () => crypto.randomUUID(), state.now());
    if ('problem' in result) {
      const p = result.problem;
      throw new Error(
        `CloudflareApi.addEventNotification: ${p.kind === 'invalid' ? p.detail : p.kind === 'overlap' ? `the rule overlaps with rule ${p.with.ruleId} on queue ${rule.queue}` : 'a bucket may have at most 100 rules'}`,
      );
    }
    // As the API's PUT would: a change of the bucket's settings, logged (surface `api`) and kept by its storage.
    layer.settingsNow('api', 'putBucketNotifications', (c) => (c.notifications = result.ok));
    const rules = result.ok.find((q) => q.queueId === queue.id)!.rules;
    return rules[rules.length - 1]!;
  }

  /**
   * Makes a bucket as `POST /accounts/{id}/r2/buckets` would (same rules, thrown as errors here),
   * for tests that start with buckets; returns it. The Worker's binding and the S3 view over this
   * account see it under `name`.
   */
  addBucket(name: string, options: BucketCreateOptions = {}): Bucket {
    const state = accountState(this.account);
    const jurisdiction = options.jurisdiction ?? 'default';
    if (!isJurisdiction(jurisdiction))
      throw new Error(`CloudflareApi: unknown jurisdiction ${JSON.stringify(jurisdiction)}`);
    if (options.locationHint !== undefined && !isLocation(options.locationHint))
      throw new Error(`CloudflareApi: unknown locationHint ${JSON.stringify(options.locationHint)}`);
    if (options.storageClass !== undefined && !isStorageClass(options.storageClass))
      throw new Error(`CloudflareApi: unknown storageClass ${JSON.stringify(options.storageClass)}`);
    const location = options.locationHint ?? homeLocation(jurisdiction);
    // The account's R2 backend (lib/bucket/backend.ts) checks the name and records the bucket.
    const made = state.backend(R2).create(name, (storage) => this.service.newBucket(options.storageClass, storage), {
      jurisdiction,
      location,
    });
    if (made === 'invalidName') throw new Error(`CloudflareApi: bucket name ${JSON.stringify(name)} is invalid`);
    if (typeof made === 'string')
      throw new Error(
        `CloudflareApi: a bucket named ${name} already exists${jurisdiction === 'default' ? '' : ` in ${jurisdiction}`}`,
      );
    return made;
  }
}
