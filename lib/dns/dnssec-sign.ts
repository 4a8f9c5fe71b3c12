/**
 * Online signing of one answer, as Cloudflare signs (docs/sources/dns-wire.md#dnssec): an RRSIG made
 * at question time for every RRset of the answer and authority sections whose zone has keys, except a
 * delegation's NS set (the parent does not sign it, RFC 4035 §2.2) and anything in additional (glue).
 * The DNSKEY, CDS and CDNSKEY sets are signed with the key-signing key, the rest with the
 * zone-signing key. The RRSIG is laid out, and the data it signs built, as RFC 4034 §3.1 and §3.1.8.1
 * say, with names and RDATA in the canonical form of §6.2 (names lower-cased in the RDATA of the
 * types it lists, the NSEC's own excepted, RFC 6840 §5.1).
 *
 * Records come in `dns-packet`'s shapes (lib/dns-answer.ts); `rdataWire` writes the same bytes the
 * wire does (spec/dns/dnssec.test.ts holds it to `dns-packet`'s codecs). Runtime-neutral: WebCrypto
 * signs, asynchronously, so this is the one asynchronous step of an answer.
 */
import type { DnsAnswer, DnsResourceRecord } from '../dns-answer.js';
import { concat, utf8 } from '../bytes.js';
import { digestHex } from '../hash.js';
import { addressBytes } from './rdata-bytes.js';
import { ALGORITHM, signWith, type DnssecKey, type DnssecKeys } from './dnssec-keys.js';
import { dnsTypeCode } from './rr-types.js';

/** The zone that signs an owner: its apex (lower case) and keys. */
export interface ZoneSigner {
  apex: string;
  keys: DnssecKeys;
}

/**
 * Signature validity (docs/sources/dns-wire.md#dnssec): inception a day before the moment of signing
 * and expiration 26 hours after it, a 50-hour window. The window is what four recorded Cloudflare
 * answers show (2016, 2023, 2026 twice); where "now" sits in it is our reading of two of them whose
 * moment is known to within hours.
 */
const INCEPTION_BEFORE_S = 24 * 3600;
const EXPIRATION_AFTER_S = 26 * 3600;
/**
 * How long a signature made for an RRset is given again for the same RRset (and an encoded signed
 * answer is kept, lib/node/dns-answer-cache.ts): Cloudflare was seen serving an SOA signature 189 s
 * older than the NSEC signature beside it (docs/sources/dns-wire.md#dnssec); five minutes is our
 * choice, short beside the 26 hours a signature has left.
 */
export const SIGNATURE_REUSE_MS = 5 * 60 * 1000;

/** The types whose RDATA names are lower-cased in canonical form (RFC 4034 §6.2, as RFC 6840 §5.1 amends it). */
const NAMES_LOWERED = new Set(['NS', 'CNAME', 'SOA', 'PTR', 'MX', 'SRV', 'NAPTR']);

/** ASCII-only lower case of bytes (RFC 4034 §6.2: US-ASCII letters only). */
function lowerBytes(b: Uint8Array): Uint8Array {
  let upper = false;
  for (let i = 0; i < b.length && !upper; i++) upper = b[i]! >= 0x41 && b[i]! <= 0x5a;
  if (!upper) return b;
  return b.map((c) => (c >= 0x41 && c <= 0x5a ? c + 32 : c));
}

/**
 * A name in presentation form (`\DDD` and `\X` escapes, as dns-names.ts writes an asked name; a final
 * dot optional) as its wire labels, without the root.
 */
export function nameLabels(name: string): Uint8Array[] {
  const text = name.endsWith('.') && !name.endsWith('\\.') ? name.slice(0, -1) : name;
  if (text === '' || text === '.') return [];
  if (!text.includes('\\')) return text.split('.').map((l) => utf8(l));
  const labels: Uint8Array[] = [];
  let bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '.') {
      labels.push(new Uint8Array(bytes));
      bytes = [];
    } else if (c === '\\' && /^\d{3}$/.test(text.slice(i + 1, i + 4))) {
      bytes.push(Number(text.slice(i + 1, i + 4)) & 0xff);
      i += 3;
    } else {
      const escaped = c === '\\' && i + 1 < text.length ? text[++i]! : c;
      bytes.push(...utf8(escaped));
    }
  }
  labels.push(new Uint8Array(bytes));
  return labels;
}

/** Wire labels as an uncompressed name (RFC 1035 §3.1), the root's zero byte included. */
export function labelsWire(labels: readonly Uint8Array[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const l of labels) parts.push(new Uint8Array([l.length]), l);
  parts.push(new Uint8Array([0]));
  return concat(parts);
}

/**
 * Names made into wire form before (a zone's answers repeat the same owners and targets, and a
 * reused signature still needs its key built): bounded, emptied past WIRE_NAMES_MAX.
 */
const wireNames = new Map<string, Uint8Array>();
const WIRE_NAMES_MAX = 10_000;

/** A name's uncompressed wire form, lower-cased when `lower` (canonical form, RFC 4034 §6.2). */
function nameWire(name: string, lower: boolean): Uint8Array {
  const key = lower ? `l${name}` : `k${name}`;
  let wire = wireNames.get(key);
  if (!wire) {
    const labels = nameLabels(name);
    wire = labelsWire(lower ? labels.map(lowerBytes) : labels);
    if (wireNames.size >= WIRE_NAMES_MAX) wireNames.clear();
    wireNames.set(key, wire);
  }
  return wire;
}

const u16 = (n: number) => new Uint8Array([(n >> 8) & 0xff, n & 0xff]);
const u32 = (n: number) => new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
/** A character-string (RFC 1035 §3.3): a length byte, then the bytes. */
const charString = (s: string | Uint8Array) => {
  const b = typeof s === 'string' ? utf8(s) : s;
  return concat([new Uint8Array([b.length]), b]);
};

/**
 * A record's RDATA as the wire carries it, names lower-cased where canonical form asks: the shapes
 * resolution gives (lib/dns/rdata.ts, apex.ts, the edge's addresses, ANY's HINFO), or raw bytes.
 */
export function rdataWire(type: string, data: unknown): Uint8Array {
  if (data instanceof Uint8Array) return data;
  const lower = NAMES_LOWERED.has(type);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the dns-packet shape of `type` (lib/dns-answer.ts)
  const d = data as any;
  switch (type) {
    case 'A':
    case 'AAAA': {
      const b = addressBytes(d as string);
      if (!b) throw new Error(`${type} data ${JSON.stringify(d)} is not an address`);
      return b;
    }
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return nameWire(d as string, lower);
    case 'MX':
      return concat([u16(d.preference ?? 0), nameWire(d.exchange, lower)]);
    case 'TXT':
      return concat((Array.isArray(d) ? d : [d]).map(charString));
    case 'SRV':
      return concat([u16(d.priority ?? 0), u16(d.weight ?? 0), u16(d.port ?? 0), nameWire(d.target, lower)]);
    case 'CAA':
      return concat([new Uint8Array([d.flags ?? 0]), charString(d.tag), utf8(d.value)]);
    case 'NAPTR':
      return concat([
        u16(d.order ?? 0),
        u16(d.preference ?? 0),
        charString(d.flags),
        charString(d.services),
        charString(d.regexp),
        nameWire(d.replacement, lower),
      ]);
    case 'SOA':
      return concat([
        nameWire(d.mname, lower),
        nameWire(d.rname, lower),
        ...[d.serial, d.refresh, d.retry, d.expire, d.minimum].map((n: number) => u32(n ?? 0)),
      ]);
    case 'HINFO':
      return concat([charString(d.cpu), charString(d.os)]);
    default:
      throw new Error(`no canonical RDATA for ${type}`);
  }
}

/**
 * The Type Bit Maps field of an NSEC record (RFC 4034 §4.1.2): one window block per 256 types that
 * holds any, each as long as its highest type needs.
 */
export function typeBitmap(types: readonly number[]): Uint8Array {
  const windows = new Map<number, number[]>();
  for (const t of types) {
    const w = windows.get(t >> 8) ?? [];
    w.push(t & 0xff);
    windows.set(t >> 8, w);
  }
  const parts: Uint8Array[] = [];
  for (const window of [...windows.keys()].sort((a, b) => a - b)) {
    const bits = windows.get(window)!;
    const bitmap = new Uint8Array((Math.max(...bits) >> 3) + 1);
    for (const b of bits) bitmap[b >> 3]! |= 0x80 >> (b & 7);
    parts.push(new Uint8Array([window, bitmap.length]), bitmap);
  }
  return concat(parts);
}

/** NSEC RDATA (RFC 4034 §4.1): the next name, uncompressed and as given, then the type bitmap. */
export function nsecRdata(next: Uint8Array, types: readonly number[]): Uint8Array {
  return concat([next, typeBitmap([...new Set(types)].sort((a, b) => a - b))]);
}

/** The RRSIG Labels field (RFC 4034 §3.1.3): the labels of the owner's wire form, a leading `*` not counted. */
function labelCount(wire: Uint8Array): number {
  let n = 0;
  for (let at = 0; wire[at]! !== 0; at += 1 + wire[at]!) n++;
  const wild = wire[0] === 1 && wire[1] === 0x2a;
  return n - (wild ? 1 : 0);
}

interface Made {
  rdata: Uint8Array;
  /** When it was signed (ms): reused until SIGNATURE_REUSE_MS later, never before it. */
  at: number;
}

/** Signatures made, by the keys and then by what they sign (the RRSIG fields but the times, and the RRset). */
const made = new WeakMap<DnssecKeys, Map<string, Made>>();
const MADE_MAX = 20_000;

/** A key for bytes in a Map: their SHA-256, native where the platform has it (lib/hash.ts). */
const bytesKey = (b: Uint8Array): string => digestHex('sha256', b);

/** The RDATAs without repeats (RFC 4034 §6.3: an RRset holds each RR once). */
function dedupe(rdatas: Uint8Array[]): Uint8Array[] {
  if (rdatas.length < 2) return rdatas;
  const out: Uint8Array[] = [];
  for (const b of rdatas) if (!out.some((o) => compareBytes(o, b) === 0)) out.push(b);
  return out;
}

/** Compares two byte strings as unsigned octets, the shorter first on a tie (RFC 4034 §6.3). */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The RRSIG RDATA over one RRset (the records of one owner and type), signed with `key` of `signer`
 * at `now` (ms), or a signature made for the same RRset less than SIGNATURE_REUSE_MS ago.
 */
async function rrsig(
  records: readonly DnsResourceRecord[],
  signer: ZoneSigner,
  key: DnssecKey,
  now: number,
): Promise<Uint8Array> {
  const first = records[0]!;
  const type = first.type.toUpperCase();
  const code = dnsTypeCode(type);
  if (code === undefined) throw new Error(`no type number for ${type}`);
  const owner = nameWire(first.name, true);
  const ttl = Math.min(...records.map((r) => r.ttl));
  const rdatas = dedupe(records.map((r) => rdataWire(type, r.data))).sort(compareBytes);
  const signerName = nameWire(signer.apex, true);
  // RFC 4034 §3.1.8.1: RRSIG_RDATA (signature excluded) ‖ each RR as owner | type | class | TTL | RDLENGTH | RDATA.
  const rrs = rdatas.map((rd) => concat([owner, u16(code), u16(1), u32(ttl), u16(rd.length), rd]));
  const head = concat([u16(code), new Uint8Array([ALGORITHM, labelCount(owner)]), u32(ttl)]);
  const tail = concat([u16(key.tag), signerName]);
  const cacheKey = bytesKey(concat([head, tail, ...rrs]));
  let cache = made.get(signer.keys);
  if (!cache) made.set(signer.keys, (cache = new Map()));
  const kept = cache.get(cacheKey);
  if (kept && now >= kept.at && now - kept.at < SIGNATURE_REUSE_MS) return kept.rdata;
  const seconds = Math.floor(now / 1000);
  const times = concat([u32(seconds + EXPIRATION_AFTER_S), u32(seconds - INCEPTION_BEFORE_S)]);
  const unsigned = concat([head, times, tail]);
  const signature = await signWith(key, concat([unsigned, ...rrs]));
  const rdata = concat([unsigned, signature]);
  if (cache.size >= MADE_MAX) cache.clear();
  cache.set(cacheKey, { rdata, at: now });
  return rdata;
}

/** The types signed with the key-signing key (RFC 7344 §4.1 for CDS and CDNSKEY). */
const KSK_SIGNED = new Set(['DNSKEY', 'CDS', 'CDNSKEY']);

/**
 * `answer` with an RRSIG after each RRset of its answer and authority sections that `signerFor`
 * finds a signed zone for (the zone holding the owner), the delegation NS sets excepted. Records
 * keep their order; an RRset's records are grouped where it first appears.
 */
export async function signAnswer(
  answer: DnsAnswer,
  signerFor: (owner: string) => ZoneSigner | undefined,
  now: number,
): Promise<DnsAnswer> {
  const section = async (records: readonly DnsResourceRecord[]): Promise<DnsResourceRecord[]> => {
    const sets = new Map<string, DnsResourceRecord[]>();
    for (const r of records) {
      const key = `${r.name.toLowerCase()}\u0000${r.type}`;
      const set = sets.get(key);
      if (set) set.push(r);
      else sets.set(key, [r]);
    }
    const out: DnsResourceRecord[] = [];
    const signed = await Promise.all(
      [...sets.values()].map(async (set) => {
        const first = set[0]!;
        const signer = first.type === 'RRSIG' ? undefined : signerFor(first.name.toLowerCase());
        // A delegation's NS set is the child's, not signed by the parent (RFC 4035 §2.2).
        if (!signer || (first.type === 'NS' && first.name.toLowerCase() !== signer.apex)) return undefined;
        const key = KSK_SIGNED.has(first.type) ? signer.keys.ksk : signer.keys.zsk;
        const data = await rrsig(set, signer, key, now);
        const sig: DnsResourceRecord = {
          name: first.name,
          type: 'RRSIG',
          class: 'IN',
          ttl: Math.min(...set.map((r) => r.ttl)),
          data,
        };
        return sig;
      }),
    );
    [...sets.values()].forEach((set, i) => {
      out.push(...set);
      if (signed[i]) out.push(signed[i]);
    });
    return out;
  };
  const [answers, authorities] = await Promise.all([section(answer.answers), section(answer.authorities)]);
  return { ...answer, answers, authorities };
}
