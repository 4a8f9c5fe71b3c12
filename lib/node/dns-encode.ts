/**
 * A response message written with name compression (RFC 1035 §4.1.4). `dns-packet` writes every name
 * in full, so an answer of 55 A records needs 1,900 bytes where Knot sends 894, and a UDP answer that
 * fits 1232 bytes compressed went out truncated and empty (issue 26, point 1). This file writes the
 * frame itself: the header, the query's question copied byte for byte (its case and any escaped
 * label echo exactly, RFC 1035 §7.3), owner names and the names inside CNAME, NS, PTR, MX and SOA
 * RDATA compressed (the types RFC 3597 §4 allows); every other RDATA is `dns-packet`'s codec.
 *
 * Names compress case-insensitively against earlier ones, as Knot does, so a name that is a suffix of
 * the question always points into it: the answer is then the same bytes whatever case the question
 * came in, apart from the question itself (which dns-answer-cache.ts relies on).
 */
import packet from 'dns-packet';
import type { DnsResourceRecord } from '../dns-answer.js';
import { dnsTypeCode } from '../dns/rr-types.js';
import { lowerAscii } from '../dns/resolve.js';
import { nameLabels } from './dns-names.js';

/** The parts of a response, as dns-message.ts decides them. */
export interface ResponseParts {
  id: number;
  flags: number;
  /** The query's question section (name, type, class) as it came, or undefined to send none. */
  question?: Buffer;
  answers?: readonly DnsResourceRecord[];
  authorities?: readonly DnsResourceRecord[];
  additionals?: readonly DnsResourceRecord[];
  /** An OPT record, last in additional (RFC 6891 §6.1.1), with no options. */
  opt?: { udpPayloadSize: number; extendedRcode: number; flags: number };
}

/** The largest message there is (TCP's 2-byte length prefix, RFC 1035 §4.2.2). */
const MAX = 65535;
/** Written into, then copied out: one response at a time (encoding is synchronous). */
const scratch = Buffer.alloc(MAX);
const OPT_TYPE = 41;
const COMPRESSED_RDATA = new Set(['CNAME', 'NS', 'PTR', 'MX', 'SOA']);

/** A name's wire labels, and the compression key of each of its suffixes (length byte + lower-cased label, joined). */
interface ParsedName {
  labels: Buffer[];
  keys: string[];
}

/**
 * Names parsed before: a zone's answers repeat the same few owners and targets, and parsing and
 * folding them was most of the encoder's time. Bounded: emptied past PARSED_MAX names.
 */
const parsedNames = new Map<string, ParsedName>();
const PARSED_MAX = 10_000;

function parsed(text: string): ParsedName {
  let p = parsedNames.get(text);
  if (p) return p;
  const labels = nameLabels(text);
  const keys: string[] = new Array(labels.length);
  let key = '';
  for (let i = labels.length - 1; i >= 0; i--) {
    key = String.fromCharCode(labels[i]!.length) + lowerAscii(labels[i]!.toString('latin1')) + key;
    keys[i] = key;
  }
  p = { labels, keys };
  if (parsedNames.size >= PARSED_MAX) parsedNames.clear();
  parsedNames.set(text, p);
  return p;
}

/** Thrown inside the writer when the message would pass 65,535 bytes. */
class TooLarge extends Error {}

class Writer {
  at = 12;
  /** Each name written so far, and each of its suffixes: lower-cased label bytes → offset. */
  private readonly seen = new Map<string, number>();

  room(n: number): void {
    if (this.at + n > MAX) throw new TooLarge();
  }

  /** The question's name is at offset 12 as it came: every suffix of it may be pointed at. */
  question(q: Buffer): void {
    const starts: number[] = [];
    let at = 0;
    while (at < q.length && q[at]! !== 0) {
      starts.push(at);
      at += 1 + q[at]!;
    }
    let key = '';
    for (let i = starts.length - 1; i >= 0; i--) {
      key = lowerAscii(q.toString('latin1', starts[i]!, starts[i]! + 1 + q[starts[i]!]!)) + key;
      if (!this.seen.has(key)) this.seen.set(key, 12 + starts[i]!);
    }
    this.room(q.length);
    q.copy(scratch, this.at);
    this.at += q.length;
  }

  name(text: string): void {
    const { labels, keys } = parsed(text);
    this.room(256);
    for (let i = 0; i < labels.length; i++) {
      const pointer = this.seen.get(keys[i]!);
      if (pointer !== undefined) {
        scratch.writeUInt16BE(0xc000 | pointer, this.at);
        this.at += 2;
        return;
      }
      if (this.at < 0x4000) this.seen.set(keys[i]!, this.at);
      const label = labels[i]!;
      scratch[this.at++] = label.length;
      label.copy(scratch, this.at);
      this.at += label.length;
    }
    scratch[this.at++] = 0;
  }

  record(r: DnsResourceRecord): void {
    const raw = r.data instanceof Uint8Array;
    const type = r.type.toUpperCase();
    const code = dnsTypeCode(type);
    if (code === undefined) throw new Error(`no type number for ${r.type}`);
    this.name(r.name);
    this.room(10);
    scratch.writeUInt16BE(code, this.at);
    scratch.writeUInt16BE(1, this.at + 2); // IN: the only class the double serves
    scratch.writeUInt32BE(r.ttl >>> 0, this.at + 4);
    this.at += 8;
    if (raw || COMPRESSED_RDATA.has(type)) {
      const lengthAt = this.at;
      this.at += 2;
      if (raw) {
        const bytes = r.data as Uint8Array;
        this.room(bytes.length);
        scratch.set(bytes, this.at);
        this.at += bytes.length;
      } else this.names(type, r.data);
      scratch.writeUInt16BE(this.at - lengthAt - 2, lengthAt);
      return;
    }
    const data = type === 'TXT' ? txtStrings(r) : r.data;
    const codec = rdataCodec(type);
    this.room(codec.encodingLength(data));
    codec.encode(data, scratch, this.at);
    this.at += codec.encodingLength(data);
  }

  /** RDATA holding names (RFC 1035 §3.3): compressed like owner names. */
  private names(type: string, data: unknown): void {
    if (type === 'MX') {
      const mx = data as { preference?: number; exchange: string };
      this.room(2);
      scratch.writeUInt16BE(mx.preference ?? 0, this.at);
      this.at += 2;
      this.name(mx.exchange);
    } else if (type === 'SOA') {
      const soa = data as {
        mname: string;
        rname: string;
        serial?: number;
        refresh?: number;
        retry?: number;
        expire?: number;
        minimum?: number;
      };
      this.name(soa.mname);
      this.name(soa.rname);
      this.room(20);
      for (const n of [soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum]) {
        scratch.writeUInt32BE((n ?? 0) >>> 0, this.at);
        this.at += 4;
      }
    } else this.name(data as string);
  }

  opt(o: NonNullable<ResponseParts['opt']>): void {
    this.room(11);
    scratch[this.at] = 0; // the root
    scratch.writeUInt16BE(OPT_TYPE, this.at + 1);
    scratch.writeUInt16BE(o.udpPayloadSize, this.at + 3);
    // TTL: extended rcode, version 0, flags (RFC 6891 §6.1.3); then an empty RDATA.
    scratch.writeUInt32BE(((o.extendedRcode & 0xff) << 24) | (o.flags & 0xffff), this.at + 5);
    scratch.writeUInt16BE(0, this.at + 9);
    this.at += 11;
  }
}

/** dns-packet's RDATA codec for a type (its RDLENGTH included), which its type declarations leave out. */
const rdataCodec = (
  packet as unknown as {
    record(type: string): { encode(d: unknown, b: Buffer, o: number): void; encodingLength(d: unknown): number };
  }
).record;

/** Bytes as a Buffer over the same memory (a string as UTF-8). */
export const asBuffer = (bytes: string | Uint8Array): Buffer =>
  Buffer.isBuffer(bytes)
    ? bytes
    : typeof bytes === 'string'
      ? Buffer.from(bytes)
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * TXT data as `dns-packet` encodes it. Strings over 255 bytes are refused, not sent: `dns-packet`
 * would wrap the length byte and corrupt the message (docs/sources/dns-wire.md#dns-packet).
 */
function txtStrings(record: DnsResourceRecord): Buffer[] {
  const strings = (Array.isArray(record.data) ? record.data : [record.data]).map((s) =>
    asBuffer(s as string | Uint8Array),
  );
  if (strings.some((s) => s.length > 255)) throw new Error(`TXT character-string over 255 bytes at ${record.name}`);
  return strings;
}

/**
 * The response as bytes, or undefined when it would pass 65,535 bytes. Throws when a record cannot be
 * encoded (the caller answers SERVFAIL).
 */
export function encodeResponse(parts: ResponseParts): Buffer | undefined {
  const w = new Writer();
  const answers = parts.answers ?? [];
  const authorities = parts.authorities ?? [];
  const additionals = parts.additionals ?? [];
  scratch.writeUInt16BE(parts.id, 0);
  scratch.writeUInt16BE(parts.flags, 2);
  scratch.writeUInt16BE(parts.question ? 1 : 0, 4);
  scratch.writeUInt16BE(answers.length, 6);
  scratch.writeUInt16BE(authorities.length, 8);
  scratch.writeUInt16BE(additionals.length + (parts.opt ? 1 : 0), 10);
  try {
    if (parts.question) w.question(parts.question);
    for (const r of answers) w.record(r);
    for (const r of authorities) w.record(r);
    for (const r of additionals) w.record(r);
    if (parts.opt) w.opt(parts.opt);
  } catch (e) {
    if (e instanceof TooLarge) return undefined;
    throw e;
  }
  return Buffer.from(scratch.subarray(0, w.at));
}
