/**
 * The account's DNS settings and internal DNS views in the persisted image (`--persist`;
 * lib/dns/account-settings.ts): one key, `dns/account`, the value as the DNS backend holds it, written
 * when it was replaced (it is never changed in place). Cost of a write that finds nothing changed:
 * one compare.
 */
import { DNS, NEW_ACCOUNT_DNS, type AccountDns } from '../../dns/backend.js';
import type { BackendHost } from '../../support/backend.js';
import type { ImagePart, ImageStore } from './image-store.js';

const KEY = 'dns/account';

export class AccountDnsPart implements ImagePart {
  readonly #host: BackendHost;
  #written: AccountDns | undefined;

  constructor(host: BackendHost) {
    this.#host = host;
  }

  write(store: ImageStore): boolean {
    // Read, never made: an account without DNS (r2 serve) has a new account's settings.
    const now = this.#host.made(DNS)?.settings ?? NEW_ACCOUNT_DNS;
    if (now === this.#written) return false;
    this.#written = now;
    // A new account's value is none at all: nothing to keep.
    if (
      store.get(KEY) === undefined &&
      now.views.length === 0 &&
      Object.keys(now.zoneDefaults).length === 0 &&
      !now.enforceDnsOnly
    )
      return false;
    store.put(KEY, { zoneDefaults: now.zoneDefaults, enforceDnsOnly: now.enforceDnsOnly, views: now.views });
    return true;
  }
}

/** Brings back the account's DNS settings and views, when persisted. */
export function loadAccountDns(store: ImageStore, host: BackendHost): void {
  const v = store.get(KEY) as AccountDns | undefined;
  if (v)
    host.backend(DNS).settings = Object.freeze({
      zoneDefaults: Object.freeze({ ...v.zoneDefaults }),
      enforceDnsOnly: v.enforceDnsOnly,
      views: (v.views ?? []).map((x) => Object.freeze({ ...x, zones: [...x.zones] })),
    });
}
