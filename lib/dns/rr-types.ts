/**
 * Resource record type numbers (IANA "Resource Record (RR) TYPEs"): the types the double stores or
 * synthesises, and the question spellings it accepts (`TXT`, RFC 3597's `TYPE16`, and `dns-packet`'s
 * `UNKNOWN_16`, which is how it decodes a type it has no name for).
 */

const CODES: Readonly<Record<string, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  LOC: 29,
  SRV: 33,
  NAPTR: 35,
  CERT: 37,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  SMIMEA: 53,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  /** RFC 9824 §2: a meta-type for compact denial's NSEC bitmap, never a record (a question for it is FORMERR). */
  NXNAME: 128,
  IXFR: 251,
  AXFR: 252,
  ANY: 255,
  URI: 256,
  CAA: 257,
};

const NAMES = new Map(Object.entries(CODES).map(([name, code]) => [code, name]));

/** The type number of a mnemonic (`HTTPS` → 65); undefined for a name the table does not hold. */
export function dnsTypeCode(type: string): number | undefined {
  return CODES[type.toUpperCase()] ?? numbered(type);
}

/**
 * A question's type as a mnemonic: `txt`, `TYPE16` and `UNKNOWN_16` are all `TXT`; a number with no
 * name here stays `TYPE<n>` (RFC 3597 §5). Undefined when it is neither a known name nor a number
 * in 0–65535.
 */
export function questionType(type: string): string | undefined {
  const upper = type.toUpperCase();
  if (upper === '*') return 'ANY'; // dns-packet's other spelling of 255
  if (CODES[upper] !== undefined) return upper;
  const n = numbered(upper);
  return n === undefined ? undefined : (NAMES.get(n) ?? `TYPE${n}`);
}

function numbered(type: string): number | undefined {
  const m = /^(?:TYPE|UNKNOWN_)(\d{1,5})$/i.exec(type);
  if (!m) return undefined;
  const n = Number(m[1]);
  return n <= 65535 ? n : undefined;
}
