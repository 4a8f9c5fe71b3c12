/**
 * The R2 backend: an account's buckets (lib/support/backend.ts, one owner per product). It alone
 * holds which buckets the account has in each jurisdiction, under which names, where each lives
 * and when it was made, and where the buckets the surfaces make keep their state. Every surface
 * makes, finds and deletes an account's buckets through it (ARCHITECTURE.md, "The joints"): the S3
 * view's CreateBucket / DeleteBucket (lib/s3/serve.ts), the API's `POST` / `DELETE /r2/buckets`
 * (lib/r2-api/buckets.ts), `CloudflareApi#addBucket`, `Account#addBucket` (and so the CLI's
 * `--bucket`), `createEnv`'s buckets over an account, and a `--persist` server's image. One name
 * check (`isBucketName`), one record of what a bucket is in the account, one way a bucket goes
 * (empty, its settings cleared through its layer, its name free again). Each surface phrases the
 * outcome its own way (an S3 XML error, the API's envelope, a thrown Error): the backend answers
 * with the problem's name.
 *
 * Jurisdictions: R2 keeps each jurisdiction's buckets apart (a name may exist in `default` and in
 * `eu` at once; the API addresses the second with `cf-r2-jurisdiction: eu`,
 * docs/sources/r2-api.md#jurisdictions, and the S3 endpoint with
 * `<account>.eu.r2.cloudflarestorage.com`).
 *
 * Light on purpose: the account (lib/account/account.ts) imports it, and the DNS entry point must
 * not pull the bucket model into its bundle, so the model is imported as types only. Each bucket's
 * state is captured by the bucket itself (`Bucket#snapshot`), found a Bucket of this library by
 * its layer (internal.ts), never through the test-support registry.
 */
import type { Bucket, BucketSnapshot } from './bucket.js';
import type { BucketStorage } from './storage.js';
import type { SettingSurface } from './layer.js';
import { bucketLayer } from './internal.js';
import { BackendKind, EventTopic, type Backend, type BackendHost } from '../support/backend.js';

/** The `cf-r2-jurisdiction` values the API takes (the `cloudflare` SDK's `BucketCreateParams`). */
const JURISDICTIONS = ['default', 'eu', 'us', 'fedramp', 'fedramp-high'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

/** `locationHint` values (SDK `BucketCreateParams.locationHint`; docs r2/reference/data-location). */
const LOCATIONS = ['apac', 'eeur', 'enam', 'weur', 'wnam', 'oc'] as const;
export type Location = (typeof LOCATIONS)[number];

/** Default storage classes (SDK `Bucket.storage_class`). */
const STORAGE_CLASSES = ['Standard', 'InfrequentAccess'] as const;
export type StorageClass = (typeof STORAGE_CLASSES)[number];

/** Where a bucket lives: its jurisdiction and location, as the API made them. */
export interface BucketInfo {
  jurisdiction: Jurisdiction;
  location: Location;
}

/**
 * Where a bucket made without a location hint is placed. Production picks the region nearest the
 * caller; the double has no caller location, so it declares the jurisdiction's home region: `weur`
 * for `eu`, `enam` otherwise (our choice).
 */
export const homeLocation = (jurisdiction: Jurisdiction): Location => (jurisdiction === 'eu' ? 'weur' : 'enam');

export const isJurisdiction = (v: unknown): v is Jurisdiction => (JURISDICTIONS as readonly unknown[]).includes(v);
export const isLocation = (v: unknown): v is Location => (LOCATIONS as readonly unknown[]).includes(v);
export const isStorageClass = (v: unknown): v is StorageClass => (STORAGE_CLASSES as readonly unknown[]).includes(v);

/** R2's rule for bucket names (wrangler's text is BUCKET_NAME_RULE, lib/env/bucket-bindings.ts). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/** Whether `name` follows R2's rule for bucket names. */
export const isBucketName = (name: unknown): name is string => typeof name === 'string' && BUCKET_NAME.test(name);

/** Why a bucket could not be made: a name outside R2's rule, a name taken, a bucket already in the account. */
export type CreateProblem = 'invalidName' | 'exists' | 'alreadyIn';

/** Makes the Bucket a surface asked for, on `storage` when the account keeps its buckets outside memory (`keepBucketsIn`). */
export type BucketMaker = (storage: BucketStorage | undefined) => Bucket;

/**
 * What the account holds of one bucket under one name: the bucket, where it lives (absent: the
 * defaults, `infoOf`) and when it was put there (the S3 view's ListBuckets CreationDate, the API's
 * `creation_date`), by the account's clock. Replaced whole, never changed, so a snapshot copies it
 * and a persisted image sees a change by identity.
 */
export interface BucketEntry {
  readonly bucket: Bucket;
  readonly info: BucketInfo | undefined;
  readonly created: number;
}

/** A bucket's jurisdiction and location: as recorded, or the defaults for a bucket added without them. */
export const infoOf = (entry: BucketEntry): BucketInfo =>
  entry.info ?? { jurisdiction: 'default', location: homeLocation('default') };

/**
 * A bucket put in the account under a name, told once it is there (lib/account/events.ts gives it
 * the notifier its changes go through): `buckets` is its jurisdiction's, read live, so a change
 * notifies only while the bucket is still there under `name`.
 */
export interface BucketJoined {
  readonly buckets: ReadonlyMap<string, Bucket>;
  readonly name: string;
  readonly bucket: Bucket;
}

export const BUCKET_JOINED = new EventTopic<BucketJoined>('r2.bucketJoined');

/**
 * One jurisdiction's buckets by name, in the order made, read as a map of buckets by every surface;
 * only the backend changes it. One per jurisdiction for the backend's life (a restore refills it),
 * so what holds it (a bucket's notifier, an S3 view) never reads a map the account dropped.
 */
class JurisdictionBuckets implements ReadonlyMap<string, Bucket> {
  readonly byName = new Map<string, BucketEntry>();

  get size(): number {
    return this.byName.size;
  }
  get(name: string): Bucket | undefined {
    return this.byName.get(name)?.bucket;
  }
  has(name: string): boolean {
    return this.byName.has(name);
  }
  keys(): MapIterator<string> {
    return this.byName.keys();
  }
  *values(): MapIterator<Bucket> {
    for (const e of this.byName.values()) yield e.bucket;
  }
  *entries(): MapIterator<[string, Bucket]> {
    for (const [name, e] of this.byName) yield [name, e.bucket];
  }
  [Symbol.iterator](): MapIterator<[string, Bucket]> {
    return this.entries();
  }
  forEach(f: (bucket: Bucket, name: string, map: ReadonlyMap<string, Bucket>) => void, self?: unknown): void {
    for (const [name, e] of this.byName) f.call(self, e.bucket, name, this);
  }
}

/** The backend's state at one moment. Opaque outside this file; restored only into the backend that took it. */
export interface R2Snapshot {
  /** How many distinct buckets the account had. */
  readonly buckets: number;
}

interface Taken extends R2Snapshot {
  readonly owner: R2Backend;
  /** Each jurisdiction's entries by name, as they were. */
  readonly held: readonly (readonly [Jurisdiction, readonly (readonly [string, BucketEntry])[]])[];
  /** Each bucket's own snapshot (objects, uploads, settings: the default storage class among them). */
  readonly states: ReadonlyMap<Bucket, BucketSnapshot>;
}

/** A Bucket of this library (it has a layer), or the TypeError a foreign one gets. */
function ownBucket(bucket: Bucket): Bucket {
  if (!bucketLayer(bucket)) throw new TypeError('R2: an account bucket is not an edge-doubles Bucket');
  return bucket;
}

export class R2Backend implements Backend {
  readonly #host: BackendHost;
  /** Every jurisdiction the account has addressed, `default` first. */
  readonly #held = new Map<Jurisdiction, JurisdictionBuckets>([['default', new JurisdictionBuckets()]]);
  /** Where the buckets the surfaces make keep their state (`keepBucketsIn`); absent, in memory. */
  #storage: (() => BucketStorage) | undefined;

  constructor(host: BackendHost) {
    this.#host = host;
  }

  #in(jurisdiction: Jurisdiction): JurisdictionBuckets {
    let held = this.#held.get(jurisdiction);
    if (!held) this.#held.set(jurisdiction, (held = new JurisdictionBuckets()));
    return held;
  }

  /** One jurisdiction's buckets by name, in the order made (default: the default jurisdiction's). */
  buckets(jurisdiction: Jurisdiction = 'default'): ReadonlyMap<string, Bucket> {
    return this.#in(jurisdiction);
  }

  /** What the account holds under `name` in `jurisdiction`. */
  entry(name: string, jurisdiction: Jurisdiction = 'default'): BucketEntry | undefined {
    return this.#held.get(jurisdiction)?.byName.get(name);
  }

  /** Every entry of every jurisdiction, in the order made (the default jurisdiction first). */
  *entries(): Generator<readonly [Jurisdiction, string, BucketEntry]> {
    for (const [j, held] of this.#held) for (const [name, e] of held.byName) yield [j, name, e];
  }

  /** Every bucket of the account once, whichever jurisdictions and names it is under. */
  all(): Set<Bucket> {
    const out = new Set<Bucket>();
    for (const held of this.#held.values()) for (const e of held.byName.values()) out.add(e.bucket);
    return out;
  }

  /** One jurisdiction's entries by name now, in the order made: what an S3 view's snapshot keeps of the buckets it serves. */
  held(jurisdiction: Jurisdiction = 'default'): readonly (readonly [string, BucketEntry])[] {
    return [...(this.#held.get(jurisdiction)?.byName ?? [])];
  }

  /** Makes one jurisdiction's buckets those `held` returned (an S3 view's restore); their states are the buckets' own. */
  hold(entries: readonly (readonly [string, BucketEntry])[], jurisdiction: Jurisdiction = 'default'): void {
    const h = this.#in(jurisdiction);
    h.byName.clear();
    for (const [name, e] of entries) h.byName.set(name, e);
  }

  /**
   * Has every bucket the account's surfaces make from now on kept in a storage `make` returns (one
   * per bucket): a `--persist` server's buckets (lib/node/persist/). Buckets already made stay where they are.
   */
  keepBucketsIn(make: () => BucketStorage): void {
    this.#storage = make;
  }

  /**
   * Makes a bucket in the account under `name` (in `info.jurisdiction`, default the default one):
   * checked, then recorded; `bucket` is the Bucket to hold, or makes it once the checks passed (on a
   * new storage of `keepBucketsIn`'s, when set).
   */
  create(name: unknown, bucket: Bucket | BucketMaker, info?: BucketInfo): Bucket | CreateProblem {
    if (!isBucketName(name)) return 'invalidName';
    const held = this.#in(info?.jurisdiction ?? 'default');
    if (held.has(name)) return 'exists';
    if (typeof bucket !== 'function') {
      // A binding over a bucket (`new Bucket({ over })`) is that bucket: one bucket, one name.
      const layer = bucketLayer(bucket);
      if ([...held.values()].some((b) => b === bucket || (layer !== undefined && bucketLayer(b) === layer)))
        return 'alreadyIn';
    }
    return this.add(name, typeof bucket === 'function' ? bucket(this.#storage?.()) : bucket, info);
  }

  /**
   * Records a bucket under a name already checked (`create` does the checks): when it was made
   * (now, or `created` for one brought back from disk), its jurisdiction and location; then tells
   * `BUCKET_JOINED`, so its changes notify under this name while it is still there under it.
   */
  add(name: string, bucket: Bucket, info?: BucketInfo, created: number = this.#host.now()): Bucket {
    const held = this.#in(info?.jurisdiction ?? 'default');
    held.byName.set(name, { bucket, info, created });
    this.#host.emit(BUCKET_JOINED, { buckets: held, name, bucket });
    return bucket;
  }

  /**
   * Deletes the bucket named `name` in `jurisdiction`: refused ('notEmpty') while it holds an object
   * or an unfinished upload; else its settings are cleared through its layer (`deleteBucketFrom`),
   * and the name is free. Undefined when done; 'missing' when there is no such bucket.
   */
  async delete(
    name: string,
    surface: SettingSurface,
    jurisdiction: Jurisdiction = 'default',
  ): Promise<'notEmpty' | 'missing' | undefined> {
    const held = this.#in(jurisdiction);
    return deleteBucketFrom(held, name, surface, () => held.byName.delete(name));
  }

  // ---- the backend contract (lib/support/backend.ts) -------------------------------------------------

  /**
   * Which buckets exist in each jurisdiction and what each holds, its settings and default storage
   * class among them, in O(1) per bucket: later changes never reach it.
   */
  snapshot(): R2Snapshot {
    const held: [Jurisdiction, readonly (readonly [string, BucketEntry])[]][] = [];
    const states = new Map<Bucket, BucketSnapshot>();
    for (const [j, h] of this.#held) {
      held.push([j, this.held(j)]);
      for (const { bucket } of h.byName.values())
        if (!states.has(bucket)) states.set(bucket, ownBucket(bucket).snapshot());
    }
    const taken: Taken = { owner: this, held, states, buckets: states.size };
    return Object.freeze(taken);
  }

  /** Brings back a snapshot of this backend: buckets made since are gone, deleted ones are back with what they held. */
  restore(snapshot: object): void {
    const taken = snapshot as Partial<Taken>;
    if (taken.owner !== this || !taken.held || !taken.states) throw new TypeError('R2: not a snapshot of this account');
    for (const h of this.#held.values()) h.byName.clear();
    for (const [j, entries] of taken.held) this.hold(entries, j);
    for (const [bucket, state] of taken.states) bucket.restore(state);
  }

  /** Empties every bucket (objects and uploads; each bucket's own reset): the buckets and their settings stay, as `CloudflareApi#reset` says. */
  reset(): void {
    for (const bucket of this.all()) ownBucket(bucket).reset();
  }
}

/** The R2 backend of an account: `host.backend(R2)`. */
export const R2 = new BackendKind<R2Backend>('R2', (host) => new R2Backend(host));

/**
 * Deletes the bucket named `name` from `buckets` (an account's jurisdiction through its backend, or
 * an S3 view's own map): refused ('notEmpty') while it holds an object or an unfinished upload;
 * else its settings are cleared through its layer (a `deleteBucket` call of `surface`: logged,
 * faultable, kept by its storage), so a bucket made again under the name starts with none, and then
 * `remove` frees the name, if the name still holds that bucket. Undefined when done; 'missing'
 * when there is no such bucket.
 */
export async function deleteBucketFrom(
  buckets: ReadonlyMap<string, Bucket>,
  name: string,
  surface: SettingSurface,
  remove: () => void,
): Promise<'notEmpty' | 'missing' | undefined> {
  const bucket = buckets.get(name);
  const layer = bucket && bucketLayer(bucket);
  if (!layer) return 'missing';
  if (await layer.holdsAnything()) return 'notEmpty';
  await layer.changeSettings(surface, 'deleteBucket', (c) => c.clear());
  if (buckets.get(name) === bucket) remove();
  return undefined;
}
