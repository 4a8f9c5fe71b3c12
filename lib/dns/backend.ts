/**
 * The DNS backend: the one owner of an account's DNS state (lib/support/backend.ts). It holds the
 * account's zones, by id in the order added, and the account's DNS settings and internal views
 * (account-settings.ts); every surface (the `/client/v4` routes, DnsApi's test support, DNS on the
 * wire, `--persist`) reaches them through `host.backend(DNS)`.
 *
 * Its snapshot is O(zones): each zone's own is O(1) (persistent maps, zone.ts) and the settings are
 * a value replaced whole, never changed in place. A zone's settings (zone-settings.ts) stay beside
 * the zone, as they always have: a snapshot of the records leaves them as they are.
 */
import { BackendKind, type Backend } from '../support/backend.js';
import type { Zone, ZoneSnapshot } from './zone.js';

/** An internal DNS view of the account. */
export interface DnsView {
  readonly id: string;
  readonly name: string;
  readonly zones: readonly string[];
  readonly created: number;
  readonly modified: number;
}

/** The account's DNS settings and views: replaced whole (never changed in place), so a snapshot is the value itself. */
export interface AccountDns {
  /** The zone defaults as set (the API's field names); a default not set is shown as account-settings.ts fills it. */
  readonly zoneDefaults: Readonly<Record<string, unknown>>;
  readonly enforceDnsOnly: boolean;
  readonly views: readonly DnsView[];
}

/** A new account's DNS settings: no default set, no view. */
export const NEW_ACCOUNT_DNS: AccountDns = Object.freeze({
  zoneDefaults: Object.freeze({}),
  enforceDnsOnly: false,
  views: [],
});

/** What `DnsBackend.snapshot` takes: restored only into the backend that took it. */
class DnsState {
  constructor(
    readonly owner: DnsBackend,
    readonly zones: readonly (readonly [Zone, ZoneSnapshot])[],
    readonly settings: AccountDns,
  ) {}
}

export class DnsBackend implements Backend {
  /** The account's zones by id, in the order added (zones-api.ts `addZone` makes them with their rules). */
  readonly zones = new Map<string, Zone>();
  /** The account's DNS settings and views now (account-settings.ts replaces them whole). */
  settings: AccountDns = NEW_ACCOUNT_DNS;

  /** Every zone's records and the account's DNS settings now; later changes never reach it. */
  snapshot(): object {
    const zones = [...this.zones.values()].map((z) => [z, z.snapshot()] as const);
    return new DnsState(this, zones, this.settings);
  }

  /** Back to a snapshot of this backend: zones added since are dropped, each zone's records as they were. */
  restore(snapshot: object): void {
    if (!(snapshot instanceof DnsState) || snapshot.owner !== this)
      throw new TypeError('DNS restore: not a snapshot of this account');
    this.zones.clear();
    for (const [z, zs] of snapshot.zones) {
      z.restore(zs);
      this.zones.set(z.id, z);
    }
    this.settings = snapshot.settings;
  }

  /** Empties every zone of records; the zones and the settings stay (a DNS double's `reset`). */
  reset(): void {
    for (const z of this.zones.values()) z.clear();
  }
}

/** The account's DNS backend: `host.backend(DNS)`. */
export const DNS = new BackendKind<DnsBackend>('DNS', () => new DnsBackend());
