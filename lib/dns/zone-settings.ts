/**
 * What the zone administration routes (zone-admin.ts) change on a zone beyond its records: paused,
 * type, DNSSEC and the zone-level DNS settings. Kept beside the zone (not in its model, zone.ts), so
 * that snapshots, restore and reset of the records leave it as it is; `presentZone` shows `paused`
 * and `type` from here, and resolution reads the DNSSEC keys (dnssec.ts) and nothing else
 * (flatten_all_cnames, which it reads, is the zone's own).
 */
import type { DnssecKeys } from './dnssec-keys.js';
import type { Zone } from './zone.js';

export type ZoneType = 'full' | 'partial' | 'secondary';
export type DnssecStatus = 'active' | 'pending' | 'disabled' | 'pending-disabled' | 'error';

export interface ZoneSettings {
  paused: boolean;
  type: ZoneType;
  modified: number | undefined;
  dnssec: {
    /**
     * What the zone's owner asked for: `pending` once enabled (PATCH `active`), `disabled` once
     * disabled; the status shown follows from it and the registrar (dnssec.ts, `dnssecStatus`).
     */
    status: DnssecStatus;
    multiSigner: boolean;
    presigned: boolean;
    /** `dnssec_use_nsec3` (absent in images written before it was kept: false). */
    useNsec3?: boolean;
    modified: number | undefined;
    /** The zone's keys: made when DNSSEC is first enabled, kept while disabled, dropped by DELETE. */
    keys?: DnssecKeys;
    /** Whether the registrar publishes the zone's DS (the double has no registrar: test support sets it). */
    dsAtRegistrar?: boolean;
  };
  /** The zone-level DNS settings as last set (the API's shape: foundation_dns, ns_ttl, soa, ...; flatten_all_cnames is the zone's own). */
  dns: Record<string, unknown>;
}

const settings = new WeakMap<Zone, ZoneSettings>();

/** The zone's settings (the defaults of a new zone until changed). */
export function zoneSettings(z: Zone): ZoneSettings {
  let s = settings.get(z);
  if (!s) {
    s = {
      paused: false,
      type: 'full',
      modified: undefined,
      dnssec: { status: 'disabled', multiSigner: false, presigned: false, useNsec3: false, modified: undefined },
      dns: {},
    };
    settings.set(z, s);
  }
  return s;
}
