/**
 * A zone's DNSSEC as its API shows it and its nameservers answer it (docs/sources/dns-wire.md#dnssec):
 * the status and its transitions, the records made from the keys (DNSKEY, CDS, CDNSKEY at the apex),
 * and the NSEC records of compact denial (RFC 9824 and Cloudflare's earlier "black lies"). The keys
 * themselves are dnssec-keys.ts; signing an answer is dnssec-sign.ts.
 *
 * States (developers.cloudflare.com/dns/dnssec/dnssec-states/): `pending` once enabled until the
 * registrar publishes the DS, then `active`; once disabled, `pending-disabled` while the DS is still
 * published, then `disabled`. In all four the zone is signed and serves its DNSKEY; CDS and CDNSKEY
 * carry the key while enabled and RFC 8078's delete form while disabled. DELETE drops the keys
 * (`disabled` with `modified_on` null: nothing signed).
 */
import type { DnsResourceRecord } from '../dns-answer.js';
import {
  ALGORITHM,
  DIGEST_TYPE,
  dnskeyRdata,
  dsRdata,
  makeDnssecKeys,
  type DnssecKey,
  type DnssecKeys,
} from './dnssec-keys.js';
import { labelsWire, nameLabels, nsecRdata } from './dnssec-sign.js';
import { dnsTypeCode } from './rr-types.js';
import { changeZoneSettings, zoneSettings, type DnssecStatus } from './zone-settings.js';
import type { Zone } from './zone.js';

/** DNSKEY, CDS and CDNSKEY TTL, and the API's DS line's: 3600 (the API's `ds`, its zsk route's `Ttl`). */
export const DNSSEC_RECORD_TTL = 3600;

/** The zone's keys, while it has any (from first enabling until DELETE). */
export const zoneKeys = (zone: Zone): DnssecKeys | undefined => zoneSettings(zone).dnssec.keys;

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
  const made = zoneSettings(zone).dnssec.keys;
  if (made) return made;
  let pending = making.get(zone);
  if (!pending) {
    pending = makeDnssecKeys(zone.name);
    making.set(zone, pending);
  }
  try {
    const keys = await pending;
    // Two requests that enabled at once share one generation; keys already there are kept.
    return (
      zoneSettings(zone).dnssec.keys ?? changeZoneSettings(zone, (s) => (s.dnssec.keys = keys)).dnssec.keys ?? keys
    );
  } finally {
    making.delete(zone);
  }
}

/** The API's `ds` line: `<zone>. 3600 IN DS <key tag> 13 2 <digest>`. */
export const dsLine = (zone: Zone, keys: DnssecKeys): string =>
  `${zone.name}. ${DNSSEC_RECORD_TTL} IN DS ${keys.ksk.tag} ${ALGORITHM} ${DIGEST_TYPE} ${keys.digest}`;

const dnskey = (owner: string, key: DnssecKey): DnsResourceRecord => ({
  name: owner,
  type: 'DNSKEY',
  class: 'IN',
  ttl: DNSSEC_RECORD_TTL,
  data: dnskeyRdata(key.flags, key.publicKey),
});

/** RFC 8078 §4: the CDS and CDNSKEY that ask the parent to remove the DS ("0 0 0 00", "0 3 0 AA=="). */
const DELETE_CDS = new Uint8Array([0, 0, 0, 0, 0]);
const DELETE_CDNSKEY = new Uint8Array([0, 0, 3, 0, 0]);

/**
 * The DNSKEY, CDS or CDNSKEY set at the apex, spelled `owner`, from the zone's keys; undefined when
 * it has none (the question is then answered from the zone's records, as any other type).
 */
export function apexKeyRecords(zone: Zone, type: string, owner: string): DnsResourceRecord[] | undefined {
  const keys = zoneKeys(zone);
  if (!keys) return undefined;
  if (type === 'DNSKEY') return [dnskey(owner, keys.ksk), dnskey(owner, keys.zsk)];
  const on = enabled(zone);
  const data =
    type === 'CDS'
      ? on
        ? dsRdata(keys)
        : DELETE_CDS
      : on
        ? dnskeyRdata(keys.ksk.flags, keys.ksk.publicKey)
        : DELETE_CDNSKEY;
  return [{ name: owner, type, class: 'IN', ttl: DNSSEC_RECORD_TTL, data }];
}

const code = (type: string) => dnsTypeCode(type)!;

/**
 * The types a NODATA denial's NSEC claims at an existing name, less the one asked: recorded from
 * Cloudflare on 2026-10-04 for a question of type A, whose NSEC listed every type below but A
 * ("black lies": docs/sources/dns-wire.md#dnssec). No NS, SOA, CNAME or DS, so no validator reads it
 * as a delegation, an apex or an alias.
 */
const NODATA_TYPES = [
  'A',
  'PTR',
  'HINFO',
  'MX',
  'TXT',
  'AAAA',
  'LOC',
  'SRV',
  'NAPTR',
  'CERT',
  'SSHFP',
  'RRSIG',
  'NSEC',
  'TLSA',
  'SMIMEA',
  'HIP',
  'OPENPGPKEY',
  'SVCB',
  'HTTPS',
  'URI',
  'CAA',
];

/** HIP (55) has no entry in rr-types.ts (the API stores no HIP records). */
const HIP = 55;
const typeNumber = (t: string) => (t === 'HIP' ? HIP : code(t));

/**
 * The NSEC of a compact denial (RFC 9824 §3), owner `owner` (as asked), next name `\000.<name>` (the
 * name's immediate successor), at the negative TTL:
 * - `nxname`: the name does not exist: RRSIG, NSEC, NXNAME (§3.1; NXNAME, type 128, says so);
 * - `cut`: the name is a delegation without DS: NS, RRSIG, NSEC (an insecure delegation, RFC 4035 §5.2);
 * - `nodata`: the name exists without `type`: every type of NODATA_TYPES but `type`.
 */
export function compactNsec(
  owner: string,
  name: string,
  kind: 'nxname' | 'cut' | 'nodata',
  type: string,
  ttl: number,
): DnsResourceRecord {
  const types =
    kind === 'nxname'
      ? [code('RRSIG'), code('NSEC'), code('NXNAME')]
      : kind === 'cut'
        ? [code('NS'), code('RRSIG'), code('NSEC')]
        : NODATA_TYPES.filter((t) => t !== type).map(typeNumber);
  // The NSEC's next name is not lower-cased in canonical form (RFC 6840 §5.1): it is made lower case
  // here, so what is signed is what is sent.
  const next = labelsWire([new Uint8Array([0]), ...nameLabels(name)]);
  return { name: owner, type: 'NSEC', class: 'IN', ttl, data: nsecRdata(next, types) };
}
