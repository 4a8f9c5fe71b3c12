/**
 * A zone's DNSSEC as its API shows it (docs/sources/dns-wire.md#dnssec): the status and its
 * transitions, and the keys made when it is first enabled (dnssec-keys.ts).
 *
 * States (developers.cloudflare.com/dns/dnssec/dnssec-states/): `pending` once enabled until the
 * registrar publishes the DS, then `active`; once disabled, `pending-disabled` while the DS is still
 * published, then `disabled`. DELETE drops the keys (`disabled` with `modified_on` null).
 */
import { ALGORITHM, DIGEST_TYPE, makeDnssecKeys, type DnssecKeys } from './dnssec-keys.js';
import { zoneSettings, type DnssecStatus } from './zone-settings.js';
import type { Zone } from './zone.js';

/** The TTL of the API's DS line and of the zsk route's DNSKEY: 3600 (the API's `ds`, its zsk route's `Ttl`). */
export const DNSSEC_RECORD_TTL = 3600;

/** The zone's keys, while it has any (from first enabling until DELETE). */
const zoneKeys = (zone: Zone): DnssecKeys | undefined => zoneSettings(zone).dnssec.keys;

/** Whether the owner last asked for DNSSEC on (PATCH `active`) rather than off. */
const enabled = (zone: Zone): boolean => {
  const s = zoneSettings(zone).dnssec.status;
  return s === 'pending' || s === 'active';
};

/**
 * Whether the zone's DS is published above it: the registrar (the test support says so, as the
 * double has none), or a parent zone of the same account holding a DS record that matches the
 * key-signing key, as a registry would publish it.
 */
function dsPublished(zone: Zone, zones: Iterable<Zone>): boolean {
  const d = zoneSettings(zone).dnssec;
  if (d.dsAtRegistrar) return true;
  const keys = d.keys;
  if (!keys) return false;
  let parent: Zone | undefined;
  for (const z of zones)
    if (zone.name.endsWith(`.${z.name}`) && (!parent || z.name.length > parent.name.length)) parent = z;
  return (
    parent?.atName(zone.name).some((r) => {
      const ds = r.data as { key_tag?: number; algorithm?: number; digest_type?: number; digest?: string } | null;
      return (
        r.type === 'DS' &&
        ds?.key_tag === keys.ksk.tag &&
        ds.algorithm === ALGORITHM &&
        ds.digest_type === DIGEST_TYPE &&
        String(ds.digest).toUpperCase() === keys.digest
      );
    }) ?? false
  );
}

/** The status the API shows, from what the owner asked and whether the DS is published. */
export function dnssecStatus(zone: Zone, zones: Iterable<Zone>): DnssecStatus {
  if (!zoneKeys(zone)) return enabled(zone) ? 'pending' : 'disabled';
  const ds = dsPublished(zone, zones);
  if (enabled(zone)) return ds ? 'active' : 'pending';
  return ds ? 'pending-disabled' : 'disabled';
}

/** Pending key generations, so that two enabling requests at once make one pair of keys. */
const making = new WeakMap<Zone, Promise<DnssecKeys>>();

/** The zone's keys, made now (WebCrypto, asynchronous) if it has none. */
export async function ensureKeys(zone: Zone): Promise<DnssecKeys> {
  const d = zoneSettings(zone).dnssec;
  if (d.keys) return d.keys;
  let pending = making.get(zone);
  if (!pending) {
    pending = makeDnssecKeys(zone.name);
    making.set(zone, pending);
  }
  try {
    const keys = await pending;
    // Two requests that enabled at once share one generation; keys already there are kept.
    d.keys ??= keys;
    return d.keys;
  } finally {
    making.delete(zone);
  }
}

/** The API's `ds` line: `<zone>. 3600 IN DS <key tag> 13 2 <digest>`. */
export const dsLine = (zone: Zone, keys: DnssecKeys): string =>
  `${zone.name}. ${DNSSEC_RECORD_TTL} IN DS ${keys.ksk.tag} ${ALGORITHM} ${DIGEST_TYPE} ${keys.digest}`;
