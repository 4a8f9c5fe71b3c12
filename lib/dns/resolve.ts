/**
 * What Cloudflare's authoritative DNS answers for a question, from the double's zones: pure and
 * runtime-neutral (no sockets, no wire format). The facts and their sources are in
 * docs/sources/dns-wire.md (its sections cited below); the algorithm is RFC 1034 §4.3.2 with RFC 4592
 * wildcards, plus Cloudflare's proxying, CNAME flattening, the MX and SRV targets it rewrites, and,
 * for a question with the DO bit to a zone with DNSSEC keys, compact denial of existence (the
 * answer is signed afterwards, asynchronously: dnssec-sign.ts).
 */
import { toHex, utf8 } from '../bytes.js';
import { digest } from '../hash.js';
import { canonicalIPv6, isIPv4 } from './addresses.js';
import type { DnsAnswer, DnsQuestion, DnsResourceRecord } from '../dns-answer.js';
import { synthesisedNs, synthesisedSoa, negativeSoa } from './apex.js';
import { apexKeyRecords, compactNsec, zoneKeys } from './dnssec.js';
import { rdataOf } from './rdata.js';
import { Unencodable } from './rdata-bytes.js';
import { questionType } from './rr-types.js';
import { ancestors } from './shadow.js';
import type { StoredRecord, Zone } from './zone.js';

/** Where proxied names point, by family (two per family: docs/sources/dns-wire.md#proxied-names). */
export interface EdgeAddresses {
  A: readonly string[];
  AAAA: readonly string[];
}

/** Two per family inside the published ranges 104.16.0.0/13, 172.64.0.0/13, 2606:4700::/32. */
const DEFAULT_EDGE = ['104.21.0.1', '172.67.0.1', '2606:4700:3030::6815:1', '2606:4700:3031::ac43:1'];

/** Edge addresses by family from a mixed list (the `proxyAddresses` option); throws on one that is neither. */
export function edgeAddresses(list: readonly string[] = DEFAULT_EDGE): EdgeAddresses {
  const A: string[] = [];
  const AAAA: string[] = [];
  for (const ip of list) {
    const v6 = isIPv4(ip) ? undefined : canonicalIPv6(ip);
    if (isIPv4(ip)) A.push(ip);
    else if (v6 !== undefined) AAAA.push(v6);
    else throw new Error(`DnsApi: proxyAddresses holds ${JSON.stringify(ip)}, not an IPv4 or IPv6 address`);
  }
  return { A, AAAA };
}

export interface ResolveContext {
  /** The account's zones; iterated once per zone lookup, so not a one-shot iterator. */
  zones: Iterable<Zone>;
  edge: EdgeAddresses;
}

/** Proxied answers' TTL, and the TTL of "Auto" (`ttl: 1`) records (docs/sources/dns-wire.md#ttl). */
const AUTO_TTL = 300;
/**
 * Cloudflare's RFC 8482 answer to ANY: HINFO "RFC8482" "" at TTL 3789, for any name
 * (docs/sources/dns-wire.md#any).
 */
const ANY_TTL = 3789;
/** Longest CNAME chain followed (a loop stops sooner). */
const MAX_CHAIN = 16;

const PROXIABLE = new Set(['A', 'AAAA', 'CNAME']);

/** A record's TTL on the wire: proxied and Auto records answer 300 (docs/sources/dns-wire.md#ttl). */
const wireTtl = (r: StoredRecord): number => (r.proxied || r.ttl === 1 ? AUTO_TTL : r.ttl);

/** ASCII-only lower case: DNS names compare case-insensitively in ASCII only (RFC 4343 §3). */
export const lowerAscii = (s: string): string => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());

const answerOf = (rcode: DnsAnswer['rcode'], authoritative: boolean): DnsAnswer => ({
  rcode,
  authoritative,
  answers: [],
  authorities: [],
  additionals: [],
});

/**
 * The answer to one question. Never throws: a question it cannot read gets FORMERR, a name in no
 * zone REFUSED.
 */
export function resolve(ctx: ResolveContext, q: DnsQuestion): DnsAnswer {
  const type = typeof q.type === 'string' ? questionType(q.type) : undefined;
  if (typeof q.name !== 'string' || type === undefined) return answerOf('FORMERR', false);
  // Only the Internet class is served ([INFER]: an authoritative-only server refuses the rest).
  if (q.class !== undefined && q.class.toUpperCase() !== 'IN') return answerOf('REFUSED', false);
  // Zone transfers are opt-in on Cloudflare (secondary setups); a plain query for one is refused [INFER].
  if (type === 'AXFR' || type === 'IXFR') return answerOf('REFUSED', false);
  // NXNAME is a meta-type for denials only: a question for it is FORMERR (RFC 9824 §3.4).
  if (type === 'NXNAME') return answerOf('FORMERR', false);
  const asked = q.name === '.' ? '' : q.name.replace(/\.$/, '');
  const name = lowerAscii(asked);
  const zone = zoneFor(ctx.zones, name);
  // A name in no zone the double holds: REFUSED without AA, as authoritative-only servers answer
  // (docs/sources/dns-wire.md#negative-answers).
  if (!zone) return answerOf('REFUSED', false);
  return new Lookup(ctx, speller(asked, name), q.dnssecOk === true).at(zone, name, asked, type, 0, new Set());
}

/** The zone holding `name`: the one whose apex is its longest suffix. */
export function zoneFor(zones: Iterable<Zone>, name: string): Zone | undefined {
  let best: Zone | undefined;
  for (const z of zones) {
    if ((name === z.name || name.endsWith(`.${z.name}`)) && (!best || z.name.length > best.name.length)) best = z;
  }
  return best;
}

/**
 * Owner names spelled as asked: a name that is the question's name or one of its ancestors keeps
 * the asker's case (resolvers that randomise case check the echo, RFC 4343;
 * docs/sources/dns-wire.md#case); any other name is given as stored (lower case).
 */
function speller(asked: string, name: string): (owner: string) => string {
  return (owner) => {
    if (owner === name) return asked;
    if (name.endsWith(`.${owner}`)) return asked.slice(asked.length - owner.length);
    return owner;
  };
}

/** One question's walk through the zones (a CNAME chain may cross into another zone). */
class Lookup {
  constructor(
    private readonly ctx: ResolveContext,
    private readonly spell: (owner: string) => string,
    /** The question's DO bit: denials in a zone with keys are then compact (RFC 9824). */
    private readonly dnssecOk: boolean,
  ) {}

  /** Whether `zone`'s denials and referrals carry DNSSEC's records for this question. */
  private signs(zone: Zone): boolean {
    return this.dnssecOk && zoneKeys(zone) !== undefined;
  }

  /** The answer for `name` (lower case, inside `zone`), owners spelled `owner`; `depth` counts CNAME hops. */
  at(zone: Zone, name: string, owner: string, type: string, depth: number, seen: Set<string>): DnsAnswer {
    const cut = topmostCut(zone, name);
    // At or below a delegation the parent is not authoritative: a referral, except that DS at the
    // cut belongs to the parent (RFC 4035 §3.1.4.1; docs/sources/dns-wire.md#delegations).
    if (cut !== undefined && !(cut === name && type === 'DS')) return this.referral(zone, cut);
    // ANY inside the zone's authority: Cloudflare's one synthesised record, whether the name exists
    // or not (docs/sources/dns-wire.md#any); at or below a cut it is the referral above, as Knot and
    // NSD answer (issue 26).
    if (type === 'ANY') {
      const out = answerOf('NOERROR', true);
      out.answers.push({ name: owner, type: 'HINFO', class: 'IN', ttl: ANY_TTL, data: { cpu: 'RFC8482', os: '' } });
      return out;
    }
    let records = zone.atName(name);
    if (records.length === 0 && name !== zone.name) {
      // A name Cloudflare inserts for an MX or SRV target that is proxied (rewrite.ts below).
      const origin = insertedOrigin(zone, name);
      if (origin) return this.inserted(zone, name, owner, type, origin, depth, seen);
    }
    let exists = records.length > 0 || zone.exists(name);
    if (!exists) {
      // RFC 4592 §3.3.1: the closest encloser is the nearest existing ancestor; only `*.` + it may
      // answer, so an existing name (or empty non-terminal) between stops a higher wildcard
      // (docs/sources/dns-wire.md#wildcards).
      let encloser = name.slice(name.indexOf('.') + 1);
      while (!zone.exists(encloser)) encloser = encloser.slice(encloser.indexOf('.') + 1);
      const source = zone.atName(`*.${encloser}`);
      if (source.length) {
        records = source;
        exists = true;
      }
    }
    if (!exists) return this.negative(zone, 'NXDOMAIN', name, owner, type);
    const out = answerOf('NOERROR', true);
    this.fill(out, zone, name, owner, type, records, depth, seen);
    if (out.answers.length === 0 && out.authorities.length === 0 && out.rcode === 'NOERROR')
      return this.negative(zone, 'NOERROR', name, owner, type);
    return out;
  }

  /**
   * A name Cloudflare inserted for a proxied MX or SRV target: the origin's own records of the
   * asked type (what the proxied name would answer unproxied), its CNAME whatever the type, else
   * NODATA.
   */
  private inserted(
    zone: Zone,
    name: string,
    owner: string,
    type: string,
    origin: readonly StoredRecord[],
    depth: number,
    seen: Set<string>,
  ): DnsAnswer {
    const out = answerOf('NOERROR', true);
    const cname = origin.find((r) => r.type === 'CNAME');
    if (cname && type !== 'CNAME') this.follow(out, zone, name, owner, type, cname, depth, seen);
    else
      out.answers.push(
        ...this.rrset(
          origin.filter((r) => r.type === type),
          owner,
        ),
      );
    if (out.answers.length === 0 && out.rcode === 'NOERROR') return this.negative(zone, 'NOERROR', name, owner, type);
    return out;
  }

  /** Puts the answer for `records` (at `name`, or the wildcard that covers it) into `out`. */
  private fill(
    out: DnsAnswer,
    zone: Zone,
    name: string,
    owner: string,
    type: string,
    records: readonly StoredRecord[],
    depth: number,
    seen: Set<string>,
  ): void {
    if (name === zone.name && (type === 'DNSKEY' || type === 'CDS' || type === 'CDNSKEY')) {
      // Made from the zone's keys while it has any (dnssec.ts), whatever the DO bit; DNSKEY records
      // the zone stores (a multi-signer setup) join its own.
      const made = apexKeyRecords(zone, type, owner);
      if (made) {
        out.answers.push(
          ...made,
          ...this.rrset(type === 'DNSKEY' ? records.filter((r) => r.type === type) : [], owner),
        );
        return;
      }
    }
    if (name === zone.name && (type === 'SOA' || type === 'NS')) {
      // Synthesised at the apex; stored apex NS records are not served unless the zone is multi-provider
      // (developers.cloudflare.com/dns/nameservers/nameserver-options/, "Multi-provider DNS"), which the double has not.
      out.answers.push(...(type === 'SOA' ? [synthesisedSoa(zone, owner)] : synthesisedNs(zone, owner)));
      return;
    }
    const proxied = records.filter((r) => r.proxied && PROXIABLE.has(r.type));
    if (proxied.length && (type === 'A' || type === 'AAAA' || type === 'CNAME')) {
      // A proxied name answers with the edge's addresses, never the origin, and a proxied CNAME is
      // answered as those addresses, not as a CNAME (docs/sources/dns-wire.md#proxied-names). One
      // proxied A/AAAA makes the whole name proxied. The record's ipv4_only / ipv6_only settings
      // keep the other family out.
      if (type === 'CNAME') return;
      const off = type === 'A' ? 'ipv6_only' : 'ipv4_only';
      if (proxied.some((r) => r.settings[off] === true)) return;
      for (const ip of this.ctx.edge[type])
        out.answers.push({ name: owner, type, class: 'IN', ttl: AUTO_TTL, data: ip });
      return;
    }
    const cname = records.find((r) => r.type === 'CNAME');
    // A proxied CNAME is the edge (above); a flattened one is never seen as a CNAME [INFER: flattening
    // answers addresses instead, docs/sources/dns-wire.md#cname-flattening]: both leave nothing else
    // for the CNAME to answer.
    const hidden = cname !== undefined && (cname.proxied || flattens(zone, name, cname));
    const own = records.filter((r) => r.type === type && !(hidden && r === cname));
    if (own.length) {
      out.answers.push(...this.rrset(own, owner, type === 'MX' || type === 'SRV'));
      return;
    }
    if (cname && !cname.proxied) this.follow(out, zone, name, owner, type, cname, depth, seen);
  }

  /**
   * A DNS-only CNAME: flattened at the apex, or everywhere when the zone or the record asks
   * (docs/sources/dns-wire.md#cname-flattening): the chain's final records of the asked type under
   * the asked name, at the lowest TTL on the way. Otherwise the CNAME, then what its target answers
   * when the double holds the target (RFC 1034 §4.3.2 step 3.a). A target outside the double's
   * zones ends the chain (flattened: NODATA).
   */
  private follow(
    out: DnsAnswer,
    zone: Zone,
    name: string,
    owner: string,
    type: string,
    cname: StoredRecord,
    depth: number,
    seen: Set<string>,
  ): void {
    const flatten = flattens(zone, name, cname);
    const target = cname.content;
    const targetZone = depth < MAX_CHAIN && !seen.has(target) ? zoneFor(this.ctx.zones, target) : undefined;
    const next = targetZone && this.at(targetZone, target, target, type, depth + 1, new Set(seen).add(name));
    if (flatten) {
      if (!next || next.rcode !== 'NOERROR') return;
      const ttl = Math.min(wireTtl(cname), ...next.answers.map((rr) => rr.ttl));
      for (const rr of next.answers) if (rr.type === type) out.answers.push({ ...rr, name: owner, ttl });
      return;
    }
    out.answers.push({ name: owner, type: 'CNAME', class: 'IN', ttl: wireTtl(cname), data: target });
    if (!next) return;
    // RFC 6604 §3: the response code is the last name's; the authority section is its zone's.
    out.rcode = next.rcode;
    out.answers.push(...next.answers);
    out.authorities.push(...next.authorities);
    out.additionals.push(...next.additionals);
  }

  /** Records as answered; `rewrite`: MX and SRV targets that are proxied names are replaced (`rewriteTarget`). */
  private rrset(records: readonly StoredRecord[], owner: string, rewrite = false): DnsResourceRecord[] {
    const out: DnsResourceRecord[] = [];
    for (const r of records) {
      try {
        const data = rdataOf(r);
        out.push({
          name: owner,
          type: r.type,
          class: 'IN',
          ttl: wireTtl(r),
          data: rewrite ? rewriteTarget(this.ctx.zones, r.type, data) : data,
        });
      } catch (e) {
        // Stored data that has no wire form (hex of odd length, SvcParams that do not parse) is left
        // out rather than answered corrupt [INFER: the real API refuses such data on input].
        if (!(e instanceof Unencodable)) throw e;
      }
    }
    return out;
  }

  /**
   * NXDOMAIN or NODATA for `name` (spelled `owner`): the SOA in authority at the negative-caching TTL
   * (RFC 2308 §3; docs/sources/dns-wire.md#negative-answers). With DNSSEC, compact denial instead
   * (docs/sources/dns-wire.md#dnssec, RFC 9824): NOERROR, and one NSEC at the name after the SOA,
   * at the same TTL (RFC 9077 §3.2), saying the name does not exist (NXNAME) or which types it has.
   */
  private negative(zone: Zone, rcode: 'NXDOMAIN' | 'NOERROR', name: string, owner: string, type: string): DnsAnswer {
    const soa = negativeSoa(zone, this.spell(zone.name));
    if (!this.signs(zone)) {
      const out = answerOf(rcode, true);
      out.authorities.push(soa);
      return out;
    }
    const out = answerOf('NOERROR', true);
    const cut = name !== zone.name && zone.atName(name).some((r) => r.type === 'NS');
    const kind = rcode === 'NXDOMAIN' ? 'nxname' : cut ? 'cut' : 'nodata';
    out.authorities.push(soa, compactNsec(owner, name, kind, type, soa.ttl));
    return out;
  }

  /**
   * A referral to the delegated `cut`: AA clear, its NS set in authority, glue the zone holds in
   * additional (RFC 1034 §4.3.2 step 3.b; docs/sources/dns-wire.md#delegations).
   */
  private referral(zone: Zone, cut: string): DnsAnswer {
    const out = answerOf('NOERROR', false);
    const here = zone.atName(cut);
    const ns = here.filter((r) => r.type === 'NS');
    out.authorities.push(...this.rrset(ns, this.spell(cut)));
    if (this.signs(zone)) {
      // A signed parent proves the delegation's security: its DS set, or an NSEC saying there is
      // none, each signed (RFC 4035 §3.1.4; the NSEC in compact form, RFC 9824).
      const ds = here.filter((r) => r.type === 'DS');
      const soaTtl = negativeSoa(zone, zone.name).ttl;
      out.authorities.push(
        ...(ds.length ? this.rrset(ds, this.spell(cut)) : [compactNsec(this.spell(cut), cut, 'cut', 'DS', soaTtl)]),
      );
    }
    for (const r of ns) {
      const host = r.content;
      if (host !== zone.name && !host.endsWith(`.${zone.name}`)) continue;
      const glue = zone.atName(host).filter((g) => g.type === 'A' || g.type === 'AAAA');
      out.additionals.push(...this.rrset(glue, host));
    }
    return out;
  }
}

/**
 * Whether a DNS-only CNAME at `name` is flattened: always at the apex, else by the zone's or the
 * record's setting (docs/sources/dns-wire.md#cname-flattening).
 */
const flattens = (zone: Zone, name: string, cname: StoredRecord): boolean =>
  name === zone.name || zone.flattenAllCnames || cname.settings.flatten_cname === true;

/** The highest delegation (NS records below the apex) at or above `name`, if any: a few name look-ups. */
function topmostCut(zone: Zone, name: string): string | undefined {
  const path = ancestors(name, zone.name);
  for (let i = path.length - 1; i >= 0; i--) if (zone.atName(path[i]!).some((r) => r.type === 'NS')) return path[i];
  return undefined;
}

// ---- MX and SRV targets that are proxied names ---------------------------------------------------

/**
 * Cloudflare's answer to an MX or SRV record whose target is a proxied name: the target becomes a
 * name it inserts, `_dc-mx.<hash>.<zone>` (MX) or `dc-<hash>.<zone>` (SRV), which resolves to the
 * origin, so mail and services reach the origin and not the proxy; the records API never shows it
 * (developers.cloudflare.com/dns/manage-dns-records/troubleshooting/unexpected-dns-records/;
 * docs/sources/dns-wire.md#mx-and-srv-targets). The hash is not documented: observed ones are 12
 * lower-case hex digits, fixed for a name over time; the double's is SHA-256 of the zone id and the
 * target's name, cut to 12 (declared).
 */
function insertedHash(zone: Zone, target: string): string {
  return toHex(digest('sha256', utf8(`${zone.id}/${target}`))).slice(0, 12);
}

/**
 * Whether `name` has a proxied A, AAAA or CNAME record of its own (a name a proxied wildcard covers
 * is not rewritten: not observed either way, declared).
 */
const proxiedAt = (zone: Zone, name: string): boolean =>
  zone.atName(name).some((r) => r.proxied && PROXIABLE.has(r.type));

/** An MX or SRV RDATA with its target replaced by the inserted name when the target is proxied. */
function rewriteTarget(zones: Iterable<Zone>, type: string, data: unknown): unknown {
  const d = data as { exchange?: string; target?: string };
  const host = type === 'MX' ? d.exchange : d.target;
  if (typeof host !== 'string') return data;
  const target = lowerAscii(host.replace(/\.$/, ''));
  const zone = zoneFor(zones, target);
  if (!zone || !proxiedAt(zone, target)) return data;
  const hash = insertedHash(zone, target);
  return type === 'MX'
    ? { ...d, exchange: `_dc-mx.${hash}.${zone.name}` }
    : { ...d, target: `dc-${hash}.${zone.name}` };
}

const INSERTED = /^(?:_dc-mx\.|dc-)([0-9a-f]{12})\.(.+)$/;

/**
 * The origin's records (every record at the proxied name) behind an inserted name of `zone`, if
 * `name` is one: the hash is matched against each proxied name of the zone, which only names of the
 * inserted form pay for.
 */
function insertedOrigin(zone: Zone, name: string): readonly StoredRecord[] | undefined {
  const m = INSERTED.exec(name);
  if (!m || m[2] !== zone.name) return undefined;
  for (const type of PROXIABLE)
    for (const r of zone.ofType(type)) {
      if (!r.proxied || insertedHash(zone, r.name) !== m[1]) continue;
      return zone.atName(r.name).filter((o) => PROXIABLE.has(o.type));
    }
  return undefined;
}
