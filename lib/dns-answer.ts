/**
 * What a DNS question gets from the double's zones: the contract between resolution (the model,
 * lib/dns/resolve*.ts, pure and runtime-neutral), the wire (lib/node/, which encodes it with
 * `dns-packet`) and the front door's test support (lib/api/support.ts logs each question and its
 * answer, and a fault rule answers one). Records are in `dns-packet`'s answer shape, so the wire adds
 * nothing but the header, EDNS and truncation.
 *
 * Why here, among the shared parts, and not in lib/dns/: three layers read it and none owns it, and
 * the front door (lib/api/) may not depend on a product's folder, not even for a type
 * (.dependency-cruiser.mjs, front-door-knows-no-product). It is data shapes only and imports nothing, so the
 * model never pulls the wire format in and the front door never pulls the model in.
 */

/** The response codes the double gives (RFC 1035 §4.1.1, RFC 6895). */
export type DnsRcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';

/** A question as asked: `name` keeps the asker's case (answers echo it), `type` a mnemonic (`TXT`) or `TYPE65`. */
export interface DnsQuestion {
  name: string;
  type: string;
  class?: string;
  /**
   * The DO bit of the question's EDNS record (RFC 3225 "DNSSEC OK"): a zone with DNSSEC keys then
   * answers signed, its denials in compact form (RFC 9824). Absent: false.
   */
  dnssecOk?: boolean;
}

/**
 * One resource record, as `dns-packet` encodes it: `data` has the shape `dns-packet` expects for
 * `type` (a string for A/AAAA/CNAME/NS/PTR, `{ preference, exchange }` for MX, an array of
 * byte strings of at most 255 bytes each for TXT, `{ flags, tag, value }` for CAA, a Uint8Array
 * for types it has no codec for, and so on).
 *
 * Bytes are Uint8Arrays, never Buffers (this side runs in browsers and workerd), so the wire wraps
 * them: a TXT string that is not whole UTF-8 is a Uint8Array; and when `data` itself is a Uint8Array
 * it is the whole RDATA (RFC 3597), which `dns-packet` encodes with type `UNKNOWN_<n>`, n being
 * `dnsTypeCode(type)` (edge-doubles/dns): HTTPS, SVCB, URI, LOC, CERT, SMIMEA, OPENPGPKEY, DS,
 * DNSKEY, TLSA and SSHFP come this way. `type` is always the mnemonic (`HTTPS`), as dig prints it.
 */
export interface DnsResourceRecord {
  name: string;
  type: string;
  class: 'IN';
  ttl: number;
  data: unknown;
}

/** The sections and flags of one response. */
export interface DnsAnswer {
  rcode: DnsRcode;
  /** AA: set for names inside one of the double's zones (it is their authoritative server). */
  authoritative: boolean;
  answers: DnsResourceRecord[];
  authorities: DnsResourceRecord[];
  additionals: DnsResourceRecord[];
}
