/**
 * `Account`: what the platform's account holds, once: its zones, its buckets (by name) and the
 * credentials that reach them. Each surface is a view over one: `DnsApi` serves its zones at
 * `/client/v4`, `createEnv` binds a Worker to its buckets. A double built without one makes its own.
 */
// Type only: the DNS entry point must not pull the bucket model into its bundle (bench/bundle-size.ts).
import type { Bucket } from '../bucket/bucket.js';
import { timeSource, type Clock } from '../clock.js';
import { Credentials } from './credentials.js';
import type { ApiCredential } from '../api/types.js';
import { derivedId, HEX32 } from './ids.js';
import { AccountEvents } from './events.js';
// The R2 backend imports the bucket model as types only, so it costs the DNS entry point nothing of it.
import { BUCKET_JOINED, R2 } from '../bucket/backend.js';
import { accountState, accountStates, type AccountState } from './state.js';
import { Backends } from '../support/backend.js';
import { DNS } from '../dns/backend.js';

export { accountState, type AccountState } from './state.js';

/** The options of `new Account(options)`. */
export interface AccountOptions {
  /** 32 lowercase hex characters; generated when absent. */
  id?: string;
  /** As the API shows it (`account.name` on a zone, `GET /accounts`). Default `edge-doubles account`. */
  name?: string;
  /**
   * Accepted credentials, for every view of the account. When absent, any well-formed credential is
   * accepted for everything (requests still need one: a request with none gets the API's 9106).
   */
  credentials?: readonly ApiCredential[];
  /** "Now" for the account's own timestamps (`created_on`). Default `Date.now()`. */
  clock?: Clock;
  /**
   * Whether deleting a key that holds no object sends an `object-delete` notification. Production's
   * answer is not documented (docs/sources/r2-api.md#event-notifications); default false: nothing
   * changed, so nothing is sent. Set it when a consumer must cope with such messages.
   */
  notifyMissingKeyDeletes?: boolean;
  /**
   * @internal When the account was made (epoch ms), for an account brought back from disk
   * (`--persist`, lib/node/persist): default now, by `clock`.
   */
  created?: number;
}

const DEFAULT_ACCOUNT_NAME = 'edge-doubles account';

/** What the platform's account holds, once: its zones, its buckets by name, its credentials. The API double, the S3 view and `createEnv` share one to see the same state. */
export class Account {
  readonly id: string;
  readonly name: string;

  constructor(options: AccountOptions = {}) {
    const id = options.id ?? derivedId('account');
    if (!HEX32.test(id)) throw new Error(`Account: id must be 32 lowercase hex characters, got ${JSON.stringify(id)}`);
    const name = options.name ?? DEFAULT_ACCOUNT_NAME;
    if (typeof name !== 'string' || name.trim() === '')
      throw new Error(`Account: name must be a non-empty string, got ${JSON.stringify(name)}`);
    this.id = id;
    this.name = name;
    const now = timeSource(options.clock).now;
    let backends!: Backends;
    const state: Omit<AccountState, 'events' | 'backends'> & { events?: AccountEvents; backends?: Backends } = {
      id,
      name,
      created: options.created ?? now(),
      clock: options.clock,
      now,
      credentials: new Credentials(options.credentials),
      notifyMissingKeyDeletes: options.notifyMissingKeyDeletes ?? false,
      backend: (kind) => backends.backend(kind),
      made: (kind) => backends.made(kind),
      emit: (topic, event) => backends.emit(topic, event),
      on: (topic, listener) => backends.on(topic, listener),
    };
    state.backends = backends = new Backends(state as AccountState);
    const events = (state.events = new AccountEvents(state as AccountState));
    // A bucket put in the account (the R2 backend, lib/bucket/backend.ts) notifies through the account's events.
    backends.on(BUCKET_JOINED, (e) => events.bucketJoined(e.buckets, e.name, e.bucket));
    accountStates.set(this, state as AccountState);
  }

  /**
   * Puts a bucket in the account under `name`: the one a Worker's binding of that bucket name sees
   * (`createEnv(config, { account })`). Names follow R2's rule; a name already taken throws. The
   * bucket is given (`new Bucket(options)`) rather than made here, so an account costs the DNS
   * entry point nothing of the bucket model.
   */
  addBucket(name: string, bucket: Bucket): Bucket {
    const made = accountState(this).backend(R2).create(name, bucket);
    if (made === 'invalidName') {
      throw new Error(
        `Account: bucket name ${JSON.stringify(name)} is invalid: it must be 3 to 63 lowercase letters, digits and hyphens, beginning and ending with a letter or digit`,
      );
    }
    if (made === 'exists') throw new Error(`Account: a bucket named ${name} already exists`);
    if (made === 'alreadyIn') throw new Error('Account: that bucket is already in the account under another name');
    return made;
  }

  /** A bucket by name, in the default jurisdiction (another jurisdiction's are the API's: `cf-r2-jurisdiction`). */
  bucket(name: string): Bucket | undefined {
    return accountState(this).made(R2)?.buckets().get(name);
  }

  /** The default jurisdiction's buckets' names, in the order made. */
  get buckets(): string[] {
    const r2 = accountState(this).made(R2);
    return r2 ? [...r2.buckets().keys()] : [];
  }

  /** The zones (made by a `DnsApi` over this account), in the order added. */
  get zones(): { id: string; name: string }[] {
    const zones = accountState(this).made(DNS)?.zones.values() ?? [];
    return [...zones].map((z) => ({ id: z.id, name: z.name }));
  }

  /** Accepts one more credential, in every view of the account. */
  addCredential(credential: ApiCredential): void {
    accountState(this).credentials.add(credential);
  }
}
