/**
 * Everything an account holds apart from its buckets' contents, as a persisted image (`--persist`,
 * issue 27 point 2): written after every request that may have changed it, and brought back on
 * start. The engine (persistence.ts: one Store commit a request) hands it an `ImageStore`; the
 * buckets' objects, uploads and settings are their storages' own (StoreStorage).
 *
 * What the image holds is what the in-process snapshots hold (lib/support/double.ts, "State"), one
 * part a kind, each its own module: the account, its credentials and ids (credentials-image.ts),
 * the bucket directory (buckets-image.ts), zones and records (zones-image.ts), the account's DNS
 * settings and views (dns-account-image.ts), queues and messages
 * (queues-image.ts). Each part remembers what it last wrote and writes only what changed since; a
 * write that finds nothing changed costs O(zones + queues + buckets) compares, never a
 * serialisation.
 *
 * Loading rebuilds through the paths the in-process restore takes (a zone through the API's
 * `addZone`, a queue's messages through its state's `restore`, which schedules their delivery, its
 * consumer as the Queues backend's restore attaches it), into a target freshly made over an Account
 * with the persisted id (`persistedAccount`) and created time. After a load, the parts compare themselves once against the
 * store, so a write writes nothing unless the server added something of its own at start.
 */
import type { Account } from '../../account/account.js';
import { accountState } from '../../account/state.js';
import type { DnsApi } from '../../dns-api/dns-api.js';
import { BucketsPart, loadBuckets, type OpenBucket } from './buckets-image.js';
import { accountRecord, CredentialsPart, loadCredentials } from './credentials-image.js';
import { Differences, type ImagePart, type ImageStore } from './image-store.js';
import { loadQueues, QueuesPart } from './queues-image.js';
import { loadZones, ZonesPart, type LoadedZones } from './zones-image.js';
import { AccountDnsPart, loadAccountDns } from './dns-account-image.js';

export type { ImageStore } from './image-store.js';
export type { OpenBucket } from './buckets-image.js';

/**
 * What a server serves: the account, and the API double over it when there is one (api serve:
 * CloudflareApi; dns serve: DnsApi; r2 serve: none, the S3 view is over the account).
 */
export interface ImageTarget {
  account: Account;
  api?: DnsApi;
}

/**
 * The account's id, name and created time as persisted, to construct the Account with before
 * anything else (`new Account({ id, name, created, notifyMissingKeyDeletes })`); undefined: DIR is new.
 */
export function persistedAccount(
  store: ImageStore,
): { id: string; name: string; created: number; notifyMissingKeyDeletes: boolean } | undefined {
  return accountRecord(store);
}

/** A writer's parts with what they last wrote, made by a load for the first writer of the account. */
const primed = new WeakMap<Account, { parts: ImagePart[]; differences: Differences }>();

const partsFor = (account: Account, zones?: LoadedZones): ImagePart[] => {
  const state = accountState(account);
  return [
    new CredentialsPart(state),
    new BucketsPart(state),
    new ZonesPart(state, zones),
    new AccountDnsPart(state),
    new QueuesPart(state),
  ];
};

/**
 * Rebuilds what was persisted into `target` (made over an Account with the persisted id: see
 * `persistedAccount`); `openBucket(storageName, options)` gives the storage of a persisted bucket,
 * or the Bucket made on it (with `options`, its own options as persisted). Zones are
 * brought back only through an API double (`target.api`). A bucket, zone or queue the account
 * already has under the persisted name (or id) is kept as it is; credentials join the account's.
 */
export function loadAccountImage(store: ImageStore, target: ImageTarget, openBucket: OpenBucket): void {
  const state = accountState(target.account);
  loadCredentials(store, state);
  loadBuckets(store, state, openBucket);
  let zones: LoadedZones | undefined;
  if (target.api) {
    // The account's zone defaults first: a zone brought back keeps its own settings all the same.
    loadAccountDns(store, state);
    zones = loadZones(store, state, target.api);
  }
  loadQueues(store, state);
  // The parts start from what is persisted: the zones loaded as loaded, then one pass noting only
  // what differs from it.
  const parts = partsFor(target.account, zones);
  const differences = new Differences(store);
  for (const p of parts) p.write(differences);
  primed.set(target.account, { parts, differences });
}

/** Writes what changed since the last write (or since load). Synchronous. */
export class AccountImageWriter {
  readonly #parts: ImagePart[];
  #differences: Differences | undefined;

  constructor(target: ImageTarget) {
    const loaded = primed.get(target.account);
    primed.delete(target.account);
    this.#parts = loaded?.parts ?? partsFor(target.account);
    this.#differences = loaded?.differences;
  }

  /** Writes what changed, inside the engine's write transaction; whether it wrote anything. */
  write(store: ImageStore): boolean {
    let wrote = false;
    if (this.#differences) {
      wrote = this.#differences.flush(store);
      this.#differences = undefined;
    }
    for (const p of this.#parts) if (p.write(store)) wrote = true;
    return wrote;
  }
}
