/**
 * A DNSSEC signature checker for the tests, written apart from lib/dns's signer so that each holds
 * the other to RFC 4034: the records' RDATA comes from `dns-packet`'s codecs (not lib/dns's
 * `rdataWire`), the RRSIG is read field by field, and node:crypto verifies ECDSA P-256 / SHA-256
 * (algorithm 13, RFC 6605) against the DNSKEYs given. It checks Knot's signatures in the differential
 * (spec/dns/wire/knot-dnssec.test.ts) as well as the double's, so the checker is itself checked.
 *
 * Records are `dns-packet` shapes: either as the double's `api.answer` gives them (RRSIG, NSEC and
 * DNSKEY data as RDATA bytes) or as `dns-packet` decodes them off the wire.
 */
import { createPublicKey, verify } from 'node:crypto';
import packet from 'dns-packet';

/** A record as either side gives it. */
export interface SignedRr {
  name: string;
  type: string;
  ttl: number;
  data: unknown;
}

/** dns-packet's RDATA codec for a type (its RDLENGTH included), which its type declarations leave out. */
const codec = (
  packet as unknown as {
    record(type: string): { encode(d: unknown): Buffer };
  }
).record;

/** The types whose RDATA names are lower-cased in canonical form (RFC 4034 §6.2 as RFC 6840 §5.1 amends it). */
const LOWERED: Record<string, string[]> = {
  NS: [''],
  CNAME: [''],
  PTR: [''],
  MX: ['exchange'],
  SRV: ['target'],
  SOA: ['mname', 'rname'],
  NAPTR: ['replacement'],
};

const wireType = (type: string) => (/^TYPE\d+$/.test(type) ? `UNKNOWN_${type.slice(4)}` : type);

/** A record's RDATA bytes, in canonical form when `canonical` (names lower-cased where §6.2 says). */
function rdataBytes(rr: SignedRr, canonical = true): Buffer {
  if (rr.data instanceof Uint8Array) return Buffer.from(rr.data);
  let data = rr.data;
  const fields = canonical ? LOWERED[rr.type] : undefined;
  if (fields) {
    if (fields[0] === '') data = String(data).toLowerCase();
    else {
      const copy = { ...(data as Record<string, unknown>) };
      for (const f of fields) copy[f] = String(copy[f]).toLowerCase();
      data = copy;
    }
  }
  if (rr.type === 'TXT') data = (Array.isArray(data) ? data : [data]).map((s: string | Uint8Array) => Buffer.from(s));
  return codec(wireType(rr.type)).encode(data).subarray(2);
}

/** An uncompressed wire name, lower-cased, from presentation text (`\DDD` escapes as dig writes them). */
function wireName(name: string): { bytes: Buffer; labels: Buffer[] } {
  const text = name.replace(/\.$/, '');
  const labels: Buffer[] = [];
  if (text !== '') {
    let cur: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === '.') {
        labels.push(Buffer.from(cur));
        cur = [];
      } else if (c === '\\' && /^\d{3}$/.test(text.slice(i + 1, i + 4))) {
        cur.push(Number(text.slice(i + 1, i + 4)));
        i += 3;
      } else if (c === '\\') cur.push(...Buffer.from(text[++i]!));
      else cur.push(...Buffer.from(c));
    }
    labels.push(Buffer.from(cur));
  }
  const lower = labels.map((l) => Buffer.from(l.map((b) => (b >= 0x41 && b <= 0x5a ? b + 32 : b))));
  return { bytes: Buffer.concat([...lower.flatMap((l) => [Buffer.of(l.length), l]), Buffer.of(0)]), labels: lower };
}

/** An RRSIG's fields, read from its RDATA (RFC 4034 §3.1). */
export interface Rrsig {
  typeCovered: number;
  algorithm: number;
  labels: number;
  originalTtl: number;
  expiration: number;
  inception: number;
  keyTag: number;
  signer: string;
  /** The RDATA up to the signature: the first part of what is signed (§3.1.8.1). */
  head: Buffer;
  signature: Buffer;
}

export function readRrsig(rr: SignedRr): Rrsig {
  const b = rdataBytes(rr, false);
  let at = 18;
  const labels: string[] = [];
  while (b[at]! !== 0) {
    labels.push(b.toString('latin1', at + 1, at + 1 + b[at]!));
    at += 1 + b[at]!;
  }
  at++;
  return {
    typeCovered: b.readUInt16BE(0),
    algorithm: b[2]!,
    labels: b[3]!,
    originalTtl: b.readUInt32BE(4),
    expiration: b.readUInt32BE(8),
    inception: b.readUInt32BE(12),
    keyTag: b.readUInt16BE(16),
    signer: labels.join('.'),
    head: b.subarray(0, at),
    signature: b.subarray(at),
  };
}

/** A DNSKEY's flags, public key and key tag (RFC 4034 Appendix B), from its RDATA. */
export function readDnskey(rr: SignedRr): { flags: number; publicKey: Buffer; tag: number } {
  const b = rdataBytes(rr, false);
  let ac = 0;
  for (let i = 0; i < b.length; i++) ac += i & 1 ? b[i]! : b[i]! << 8;
  ac += (ac >> 16) & 0xffff;
  return { flags: b.readUInt16BE(0), publicKey: b.subarray(4), tag: ac & 0xffff };
}

const TYPE_CODES: Record<string, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DS: 43,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  CDS: 59,
  CDNSKEY: 60,
  CAA: 257,
};
export const typeCode = (type: string): number =>
  TYPE_CODES[type] ?? Number(/^(?:TYPE|UNKNOWN_)(\d+)$/.exec(type)?.[1] ?? NaN);

/**
 * Why the RRSIG `sig` does not validate `rrset` (one owner, one type) under `keys`, or undefined when
 * it does: its type covered, a key with its tag, the signature over RFC 4034 §3.1.8.1's data.
 */
function checkRrsig(sig: SignedRr, rrset: readonly SignedRr[], keys: readonly SignedRr[]): string | undefined {
  const r = readRrsig(sig);
  const first = rrset[0];
  if (!first) return 'no records';
  if (r.typeCovered !== typeCode(first.type)) return `covers type ${r.typeCovered}, the set is ${first.type}`;
  if (r.algorithm !== 13) return `algorithm ${r.algorithm}`;
  const key = keys.map(readDnskey).find((k) => k.tag === r.keyTag);
  if (!key) return `no DNSKEY with tag ${r.keyTag}`;
  const owner = wireName(first.name);
  // RFC 4035 §5.3.2: a wildcard's expansion is signed under `*.` and the rightmost `labels` labels.
  const signedOwner =
    r.labels < owner.labels.length
      ? Buffer.concat([
          Buffer.from([1, 0x2a]),
          ...owner.labels.slice(owner.labels.length - r.labels).flatMap((l) => [Buffer.of(l.length), l]),
          Buffer.of(0),
        ])
      : owner.bytes;
  const rdatas = [...new Map(rrset.map((rr) => rdataBytes(rr)).map((b) => [b.toString('hex'), b])).values()].sort(
    Buffer.compare,
  );
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(r.typeCovered, 0);
  fixed.writeUInt16BE(1, 2);
  fixed.writeUInt32BE(r.originalTtl, 4);
  const data = Buffer.concat([
    r.head,
    ...rdatas.flatMap((rd) => {
      const f = Buffer.from(fixed);
      f.writeUInt16BE(rd.length, 8);
      return [signedOwner, f, rd];
    }),
  ]);
  const b64url = (b: Buffer) => b.toString('base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(key.publicKey.subarray(0, 32)), y: b64url(key.publicKey.subarray(32)) },
    format: 'jwk',
  });
  return verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, r.signature)
    ? undefined
    : 'the signature does not verify';
}

/**
 * Every RRSIG in `records` (a section or several) checked against the RRset it covers there;
 * returns the failures (owner, type, why), none when all validate.
 */
export function checkSection(records: readonly SignedRr[], keys: readonly SignedRr[]): string[] {
  const failures: string[] = [];
  for (const sig of records.filter((r) => r.type === 'RRSIG')) {
    const covered = readRrsig(sig).typeCovered;
    const set = records.filter(
      (r) => r.type !== 'RRSIG' && r.name.toLowerCase() === sig.name.toLowerCase() && typeCode(r.type) === covered,
    );
    const why = checkRrsig(sig, set, keys);
    if (why) failures.push(`${sig.name} ${covered}: ${why}`);
  }
  return failures;
}

/** The NSEC's next name and types, from its RDATA (RFC 4034 §4.1). */
export function readNsec(rr: SignedRr): { next: Buffer; types: number[] } {
  const b = rdataBytes(rr, false);
  let at = 0;
  while (b[at]! !== 0) at += 1 + b[at]!;
  at++;
  const types: number[] = [];
  for (let o = at; o < b.length;) {
    const window = b[o]!;
    const len = b[o + 1]!;
    for (let i = 0; i < len; i++)
      for (let bit = 0; bit < 8; bit++) if (b[o + 2 + i]! & (0x80 >> bit)) types.push(window * 256 + i * 8 + bit);
    o += 2 + len;
  }
  return { next: b.subarray(0, at), types };
}
