/**
 * The records Cloudflare synthesises at every zone apex: the SOA and the NS set, from the zone's
 * assigned nameservers (docs/sources/dns-wire.md#apex-soa-and-ns). Observed SOA RDATA:
 * `<ns>.ns.cloudflare.com. dns.cloudflare.com. <serial> 10000 2400 604800 1800`, TTL 3600; NS TTL
 * 86400 (`ns_ttl`'s default). Serials seen are around 2.0e9–2.4e9 and rise over time.
 */
import type { DnsResourceRecord } from '../dns-answer.js';
import type { Zone } from './zone.js';

const SOA_TTL = 3600;
const SOA_MINIMUM = 1800;
const NS_TTL = 86400;
/** Where serials start: inside the observed range; every change to the zone adds one. */
const SERIAL_BASE = 2_300_000_000;

/** The zone's SOA serial: rises with every change to its records (Zone.version) and never repeats. */
const soaSerial = (zone: Zone): number => (SERIAL_BASE + zone.version) >>> 0;

export function synthesisedSoa(zone: Zone, owner: string, ttl = SOA_TTL): DnsResourceRecord {
  return {
    name: owner,
    type: 'SOA',
    class: 'IN',
    ttl,
    data: {
      mname: zone.nameServers[0] ?? 'ns.cloudflare.com',
      rname: 'dns.cloudflare.com',
      serial: soaSerial(zone),
      refresh: 10000,
      retry: 2400,
      expire: 604800,
      minimum: SOA_MINIMUM,
    },
  };
}

/** The SOA in a negative answer's authority, at min(SOA TTL, minimum) (RFC 2308 §3; observed 1800, §1.7). */
export const negativeSoa = (zone: Zone, owner: string): DnsResourceRecord =>
  synthesisedSoa(zone, owner, Math.min(SOA_TTL, SOA_MINIMUM));

export function synthesisedNs(zone: Zone, owner: string): DnsResourceRecord[] {
  return zone.nameServers.map((ns) => ({ name: owner, type: 'NS', class: 'IN', ttl: NS_TTL, data: ns }));
}
