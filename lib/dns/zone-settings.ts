/**
 * What the zone administration routes (zone-admin.ts) change on a zone beyond its records: paused,
 * type, DNSSEC and the zone-level DNS settings, as a value replaced whole on each change. Kept beside the zone (not in its model, zone.ts), so
 * that snapshots, restore and reset of the records leave it as it is; `presentZone` shows `paused`
 * and `type` from here, and resolution reads the DNSSEC keys (dnssec.ts) and nothing else
 * (flatten_all_cnames, which it reads, is the zone's own).
 */
import type { DnssecKeys } from './dnssec-keys.js';
import type { Zone } from './zone.js';

export type ZoneType = 'full' | 'partial' | 'secondary';
export type DnssecStatus = 'active' | 'pending' | 'disabled' | 'pending-disabled' | 'error';

/** The zone's DNSSEC as its owner and the registrar left it. */
interface DnssecSettings {
  /**
   * What the zone's owner asked for: `pending` once enabled (PATCH `active`), `disabled` once
   * disabled; the status shown follows from it and the registrar (dnssec.ts, `dnssecStatus`).
   */
  readonly status: DnssecStatus;
  readonly multiSigner: boolean;
  readonly presigned: boolean;
  /** `dnssec_use_nsec3` (absent in images written before it was kept: false). */
  readonly useNsec3?: boolean;
  readonly modified: number | undefined;
  /** The zone's keys: made when DNSSEC is first enabled, kept while disabled, dropped by DELETE. */
  readonly keys?: DnssecKeys | undefined;
  /** Whether the registrar publishes the zone's DS (the double has no registrar: test support sets it). */
  readonly dsAtRegistrar?: boolean | undefined;
}

/**
 * A zone's settings. A value: never changed in place, replaced whole by `changeZoneSettings`, so
 * whoever keeps one (a snapshot, `--persist`'s image) knows it changed by identity alone, and a field
 * added here is kept with the rest without anyone listing it.
 */
export interface ZoneSettings {
  readonly paused: boolean;
  readonly type: ZoneType;
  readonly modified: number | undefined;
  readonly dnssec: DnssecSettings;
  /** The zone-level DNS settings as last set (the API's shape: foundation_dns, ns_ttl, soa, ...; flatten_all_cnames is the zone's own). */
  readonly dns: Readonly<Record<string, unknown>>;
}

/** What `changeZoneSettings` hands its change: a copy of the settings (and of their DNSSEC) to change. */
export type ZoneSettingsDraft = { -readonly [K in Exclude<keyof ZoneSettings, 'dnssec'>]: ZoneSettings[K] } & {
  dnssec: { -readonly [K in keyof DnssecSettings]: DnssecSettings[K] };
};

/** A new zone's settings, shared by every zone until it changes them (frozen: a value). */
const DEFAULTS: ZoneSettings = Object.freeze({
  paused: false,
  type: 'full',
  modified: undefined,
  dnssec: Object.freeze({
    status: 'disabled',
    multiSigner: false,
    presigned: false,
    useNsec3: false,
    modified: undefined,
  }),
  dns: Object.freeze({}),
});

const settings = new WeakMap<Zone, ZoneSettings>();

/** The zone's settings (the defaults of a new zone until changed). */
export const zoneSettings = (z: Zone): ZoneSettings => settings.get(z) ?? DEFAULTS;

/** Replaces the zone's settings with a copy that `change` changed; returns the new settings. */
export function changeZoneSettings(z: Zone, change: (draft: ZoneSettingsDraft) => void): ZoneSettings {
  const s = zoneSettings(z);
  const draft: ZoneSettingsDraft = { ...s, dnssec: { ...s.dnssec } };
  change(draft);
  settings.set(z, draft);
  return draft;
}
