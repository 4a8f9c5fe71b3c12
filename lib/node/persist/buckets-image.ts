/**
 * The account's bucket directory in the persisted image (`--persist`): which buckets exist in each
 * jurisdiction, and of each what the account knows beyond its contents (lib/bucket/backend.ts):
 * when it was made, its jurisdiction and location, the Bucket's own options (its default storage
 * class before any setting replaced it, its lifecycle timing) and the name of the storage its
 * objects, uploads and settings live in, which keeps those itself (StoreStorage).
 *
 * Keys: `bucket/<jurisdiction>/<name>` (one per bucket, written when the bucket first appears under
 * that name) and `buckets`, the [jurisdiction, name] pairs in the order made (written when the set
 * changes). A bucket on memory (no storage name) holds nothing that could come back: not written.
 *
 * Cost of a write that finds nothing changed: O(buckets) identity compares (the R2 backend's
 * entries are replaced whole on every change, and carry no counter).
 */
import { Bucket, storageOf } from '../../bucket/bucket.js';
import { bucketLayer } from '../../bucket/internal.js';
import type { LifecycleTiming } from '../../bucket/lifecycle.js';
import type { BucketStorage } from '../../bucket/storage.js';
import { homeLocation, R2, type BucketEntry, type BucketInfo, type Jurisdiction } from '../../bucket/backend.js';
import type { AccountState } from '../../account/state.js';
import type { ImagePart, ImageStore } from './image-store.js';

/** One bucket as persisted. */
interface BucketRecord {
  storage: string;
  created: number;
  /** Jurisdiction and location as the API made them; null: the defaults (a bucket added without them). */
  info: BucketInfo | null;
  /** The Bucket's `defaultStorageClass` option (a setting changing it is kept by the storage). */
  storageClass: string;
  lifecycleTiming: LifecycleTiming;
}

/**
 * What a persisted bucket is opened on: its storage (the loader makes the Bucket on the account's
 * clock), or the Bucket itself, made as the server makes its own. `options` are the Bucket's own
 * options as made (the API's create takes a default storage class no setting holds): a Bucket made
 * by the caller should take them.
 */
export type OpenBucket = (
  storageName: string,
  options: { defaultStorageClass: string; lifecycleTiming: LifecycleTiming },
) => BucketStorage | Bucket;

type Entry = readonly [jurisdiction: string, name: string, entry: BucketEntry];

const bucketKey = (jurisdiction: string, name: string) => `bucket/${jurisdiction}/${name}`;

/** The storage name a bucket's state lives under, when it is on a named storage (StoreStorage). */
function storageName(bucket: Bucket): string | undefined {
  const name = (storageOf(bucket) as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

export class BucketsPart implements ImagePart {
  readonly #state: AccountState;
  /** Every bucket of every jurisdiction as last written, in the order made. */
  #written: Entry[] = [];

  constructor(state: AccountState) {
    this.#state = state;
  }

  /** The directory now, in the order made (default jurisdiction first). */
  #entries(): Entry[] {
    return [...this.#state.backend(R2).entries()];
  }

  #unchanged(): boolean {
    const written = this.#written;
    let i = 0;
    for (const [j, name, e] of this.#state.backend(R2).entries()) {
      const w = written[i++];
      if (w === undefined || w[2] !== e || w[1] !== name || w[0] !== j) return false;
    }
    return i === written.length;
  }

  write(store: ImageStore): boolean {
    if (this.#unchanged()) return false;
    const before = new Map(this.#written.map((e) => [bucketKey(e[0], e[1]), e[2]]));
    const now = this.#entries().filter((e) => storageName(e[2].bucket) !== undefined);
    for (const [j, name, e] of now) {
      const key = bucketKey(j, name);
      const was = before.get(key);
      before.delete(key);
      if (was === e) continue;
      const config = bucketLayer(e.bucket)!.config;
      const record: BucketRecord = {
        storage: storageName(e.bucket)!,
        created: e.created,
        info: e.info ?? null,
        storageClass: config.defaultStorageClass,
        lifecycleTiming: config.lifecycleTiming,
      };
      store.put(key, record);
    }
    for (const key of before.keys()) store.remove(key);
    store.put(
      'buckets',
      now.map(([j, name]) => [j, name]),
    );
    // Buckets on memory are remembered too, so an unchanged directory compares equal next time.
    this.#written = this.#entries();
    return true;
  }
}

/**
 * Puts the persisted buckets back in the account, each a Bucket on `openBucket(storage name)`, in
 * the order made; a name the account already has (a server's own bucket, given again at start) is
 * kept as it is.
 */
export function loadBuckets(store: ImageStore, state: AccountState, openBucket: OpenBucket): void {
  const order = (store.get('buckets') as [string, string][] | undefined) ?? [];
  const r2 = state.backend(R2);
  for (const [j, name] of order) {
    const record = store.get(bucketKey(j, name)) as BucketRecord | undefined;
    if (!record) continue;
    if (r2.buckets(j as Jurisdiction).has(name)) continue;
    const options = { defaultStorageClass: record.storageClass, lifecycleTiming: record.lifecycleTiming };
    const opened = openBucket(record.storage, options);
    const bucket =
      opened instanceof Bucket
        ? opened
        : new Bucket({ storage: opened, ...options, ...(state.clock !== undefined ? { clock: state.clock } : {}) });
    const info =
      record.info ??
      (j === 'default' ? undefined : { jurisdiction: j as Jurisdiction, location: homeLocation(j as Jurisdiction) });
    r2.add(name, bucket, info, record.created);
  }
}
