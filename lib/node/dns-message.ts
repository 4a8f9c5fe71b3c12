/**
 * One DNS message in, one out: what the double's DNS server (dns-wire.ts) answers to the bytes of a
 * query, whatever the transport. The model (lib/dns, through a `DnsAnswerer`) decides the sections,
 * the flags and the response code; this file owns everything about the message itself: decoding
 * with `dns-packet`, refusing what is not a single-question QUERY, EDNS(0), the UDP size limit and
 * truncation. It never throws: bytes it cannot read are dropped (undefined), a model that fails
 * gives SERVFAIL, a question the model drops (null) gets no answer.
 */
import packet from 'dns-packet';
import type { DnsAnswer, DnsQuestion, DnsRcode, DnsResourceRecord } from '../dns/answer.js';
import { dnsTypeCode } from '../dns/rr-types.js';

/**
 * What the server asks the model for each question (with the transport it came by). `null`: no
 * answer at all (a fault rule dropped the question, as a lost datagram or a dead server), so the
 * client's retries and timeouts can be tested.
 */
export type DnsAnswerer = (question: DnsQuestion, transport: 'udp' | 'tcp') => DnsAnswer | null | Promise<DnsAnswer | null>;

/**
 * The EDNS(0) UDP payload the server advertises and the most it sends over UDP: DNS Flag Day 2020's
 * value, which Cloudflare's authoritative servers met (blog.cloudflare.com/dns-flag-day-2020;
 * reference/dns-wire.md §1.11).
 */
export const EDNS_PAYLOAD = 1232;
/** A UDP answer's limit without EDNS (RFC 1035 §4.2.1); also the floor of a smaller EDNS size (RFC 6891 §6.2.5). */
export const CLASSIC_UDP = 512;
/** A TCP message's 2-byte length prefix caps it (RFC 1035 §4.2.2). */
export const TCP_MAX = 65535;

/** RFC 1035 §4.1.1 and RFC 6891 §9 (BADVERS, carried in the OPT record's upper bits). */
const RCODE: Record<DnsRcode | 'BADVERS', number> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5, BADVERS: 16 };
const QR = 1 << 15;
const OPCODE_SHIFT = 11;

/** What happened to one query, for a log line (`dns serve --log`) or a test. */
export interface DnsExchange {
  transport: 'udp' | 'tcp';
  /** The question as asked (undefined when the message had none that could be read). */
  question?: DnsQuestion;
  rcode: DnsRcode | 'BADVERS';
  answers: number;
  /** Sent with TC set and empty sections: the answer did not fit. */
  truncated: boolean;
  /** The size the answer needed before any truncation (bytes). */
  size: number;
}

export interface RespondOptions {
  transport: 'udp' | 'tcp';
  onExchange?: (exchange: DnsExchange) => void;
}

/**
 * The type as `dns-packet` spells it. A record whose `data` is bytes is whole RDATA (answer.ts), sent
 * as an RFC 3597 unknown type `UNKNOWN_<n>`: dns-packet has no codec for HTTPS, SVCB, URI and others,
 * and its own DS/DNSKEY/TLSA/SSHFP codecs want objects (reference/dns-wire.md §2).
 */
function packetType(type: string, rdata: boolean): string {
  const upper = type.toUpperCase();
  if (!rdata) return upper;
  const code = dnsTypeCode(upper);
  if (code === undefined) throw new Error(`no type number for ${type}`);
  return `UNKNOWN_${code}`;
}

/** The type as the model reads it: `dns-packet`'s `UNKNOWN_<n>` becomes `TYPE<n>` (RFC 3597 §5). */
function questionType(type: string): string {
  return type.startsWith('UNKNOWN_') ? `TYPE${type.slice(8)}` : type;
}

const asBuffer = (bytes: string | Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * A model record as `dns-packet` encodes it, copied (the encoder replaces TXT strings in place, and
 * the model's records are not ours to change). TXT strings over 255 bytes are refused, not sent:
 * `dns-packet` would wrap the length byte and corrupt the message (reference/dns-wire.md §1.4, §5.2).
 */
function packetRecord(record: DnsResourceRecord): packet.Answer {
  let data = record.data;
  const type = packetType(record.type, data instanceof Uint8Array);
  if (type === 'TXT') {
    const strings = (Array.isArray(data) ? data : [data]).map((s) => asBuffer(s as string | Uint8Array));
    if (strings.some((s) => s.length > 255)) throw new Error(`TXT character-string over 255 bytes at ${record.name}`);
    data = strings;
  } else if (data instanceof Uint8Array) {
    data = asBuffer(data);
  }
  return { name: record.name, type, class: record.class, ttl: record.ttl, data } as packet.Answer;
}

interface Query {
  id: number;
  flags: number;
  questions: packet.Question[];
  opt?: packet.OptAnswer;
}

/** The response's header flags: QR, the query's opcode, RD and CD copied (RFC 1035 §4.1.1, RFC 4035 §3.1.6). */
function responseFlags(queryFlags: number, rcode: number, aa = false): number {
  const copied = queryFlags & ((0xf << OPCODE_SHIFT) | packet.RECURSION_DESIRED | packet.CHECKING_DISABLED);
  return QR | copied | (aa ? packet.AUTHORITATIVE_ANSWER : 0) | (rcode & 0xf);
}

/** The OPT record of a response to an EDNS query: our payload size, the extended rcode bits, DO copied (RFC 3225 §3). */
function responseOpt(query: Query, rcode: number): packet.OptAnswer {
  return {
    type: 'OPT',
    name: '.',
    udpPayloadSize: EDNS_PAYLOAD,
    extendedRcode: rcode >> 4,
    ednsVersion: 0,
    flags: (query.opt!.flags ?? 0) & packet.DNSSEC_OK,
  } as packet.OptAnswer;
}

/** A response with no records: an error, or one whose question could not be echoed. */
function bare(query: Query, rcode: DnsRcode | 'BADVERS', echo: boolean): Buffer {
  const code = RCODE[rcode];
  return packet.encode({
    id: query.id,
    type: 'response',
    flags: responseFlags(query.flags, code),
    questions: echo ? query.questions : [],
    additionals: query.opt ? [responseOpt(query, code)] : [],
  });
}

/**
 * Whether the header's section counts could fit in the message: a question takes at least 5 bytes, a
 * record at least 11. `dns-packet` allocates an array of each count before reading, so 12 random
 * bytes claiming 4 × 65535 entries would cost megabytes per datagram (seen in the fuzz test).
 */
function countsFit(buf: Buffer): boolean {
  const records = buf.readUInt16BE(6) + buf.readUInt16BE(8) + buf.readUInt16BE(10);
  return buf.readUInt16BE(4) * 5 + records * 11 <= buf.length - 12;
}

/** The most a UDP answer to this query may hold. */
function udpLimit(query: Query): number {
  if (!query.opt) return CLASSIC_UDP;
  return Math.max(CLASSIC_UDP, Math.min(query.opt.udpPayloadSize ?? CLASSIC_UDP, EDNS_PAYLOAD));
}

/** A query that passed every check: what `finish` needs once the model has answered. */
interface Asked {
  query: Query;
  q: packet.Question;
  question: DnsQuestion;
  /** The query's bytes, to check the echoed question against. */
  buf: Buffer;
}

/** dns-packet's name codec, which its type declarations leave out. */
const names = (packet as unknown as { name: { encodingLength(name: string): number } }).name;
/** The classes dns-packet encodes back to their number (others it would send as 0, so they are refused). */
const CLASSES = new Set(['IN', 'CS', 'CH', 'HS', 'ANY']);

/**
 * The response to `bytes` (one DNS message without TCP's length prefix), or undefined when none is
 * due: fewer than 12 bytes (no header to answer), or a message that is itself a response (answering
 * it could start a loop between two servers). Synchronous when the answerer is (DnsApi.answer is),
 * so the server's loop pays for no promise per datagram; a promise when the answerer gives one.
 */
export function respond(bytes: Uint8Array, answerer: DnsAnswerer, options: RespondOptions): Buffer | undefined | null | Promise<Buffer | undefined | null> {
  const asked = check(asBuffer(bytes), options);
  if (!('q' in asked)) return asked.out;
  let answer: DnsAnswer | null | Promise<DnsAnswer | null>;
  try {
    answer = answerer(asked.question, options.transport);
  } catch {
    return failed(asked, options);
  }
  if (answer instanceof Promise) {
    return answer.then(
      (a) => (a === null ? null : finish(asked, a, options)),
      () => failed(asked, options),
    );
  }
  return answer === null ? null : finish(asked, answer, options);
}

function report(options: RespondOptions, rcode: DnsRcode | 'BADVERS', size: number, extra?: Partial<DnsExchange>): void {
  options.onExchange?.({ transport: options.transport, rcode, answers: 0, truncated: false, size, ...extra });
}

/** Everything before the model: the message read, and what is refused without asking it. */
function check(buf: Buffer, options: RespondOptions): Asked | { out: Buffer | undefined } {
  if (buf.length < 12) return { out: undefined };
  const flags = buf.readUInt16BE(2);
  if (flags & QR) return { out: undefined };
  const query: Query = { id: buf.readUInt16BE(0), flags, questions: [] };

  let decoded: packet.DecodedPacket;
  try {
    if (!countsFit(buf)) throw new Error('more records counted than bytes to hold them');
    decoded = packet.decode(buf);
  } catch {
    // The header was read, the rest was not: FORMERR with no question (RFC 1035 §4.1.1).
    const out = bare(query, 'FORMERR', false);
    report(options, 'FORMERR', out.length);
    return { out };
  }
  query.questions = decoded.questions ?? [];
  let opts = 0;
  for (const r of decoded.additionals ?? []) {
    if (r.type !== 'OPT') continue;
    opts++;
    query.opt = r;
  }
  if (opts > 1) delete query.opt;
  const opcode = (flags >> OPCODE_SHIFT) & 0xf;
  const single = query.questions.length === 1;

  let early: DnsRcode | 'BADVERS' | undefined;
  // Only QUERY is served: NOTIFY, UPDATE and the rest get NOTIMP (RFC 1035 §4.1.1).
  if (opcode !== 0) early = 'NOTIMP';
  // One question per message, as every server answers (RFC 9619); more than one OPT is FORMERR (RFC 6891 §6.1.1).
  else if (!single || opts > 1) early = 'FORMERR';
  // EDNS versions above 0 get BADVERS, with an OPT saying the version we speak (RFC 6891 §6.1.3).
  else if (query.opt && (query.opt.ednsVersion ?? 0) > 0) early = 'BADVERS';
  if (early) {
    let out = bare(query, early, single && opts <= 1);
    // The question goes back only as it came (see `echoes`).
    if (single && opts <= 1 && !echoes({ buf, q: query.questions[0]! }, out)) out = bare(query, early, false);
    report(options, early, out.length, single ? { question: asQuestion(query.questions[0]!) } : undefined);
    return { out };
  }

  const q = query.questions[0]!;
  const question = asQuestion(q);
  const asked = { query, q, question, buf };
  if (!CLASSES.has(q.class ?? 'IN')) return { out: refused(asked, options) };
  // Zone transfers are for configured secondaries only; the double has none [INFER from Cloudflare's
  // zone-transfer docs: outgoing transfers go to the peers set up for them].
  if (q.type === 'AXFR' || q.type === 'IXFR') {
    const out = bare(query, 'REFUSED', true);
    if (!echoes(asked, out)) return { out: refused(asked, options) };
    report(options, 'REFUSED', out.length, { question });
    return { out };
  }
  return asked;
}

/**
 * Whether `response` carries the question exactly as the query did (RFC 1035 §7.3): both put it
 * right after the 12-byte header. dns-packet reads labels as UTF-8 and joins them with dots, so a
 * name with other bytes or a dot inside a label would go back changed; no zone of the double can
 * hold such a name (the API's label rules), so it is refused instead.
 */
function echoes({ buf, q }: Pick<Asked, 'buf' | 'q'>, response: Buffer): boolean {
  const length = names.encodingLength(q.name) + 4;
  return buf.length >= 12 + length && response.length >= 12 + length && buf.compare(response, 12, 12 + length, 12, 12 + length) === 0;
}

/** REFUSED with no question: the asker's could not be given back as sent. */
function refused({ query, question }: Asked, options: RespondOptions): Buffer {
  const out = bare(query, 'REFUSED', false);
  report(options, 'REFUSED', out.length, { question });
  return out;
}

/** The model failed, or gave a record that cannot be encoded: the server's failure, not the client's. */
function failed(asked: Asked, options: RespondOptions): Buffer {
  const { query, question } = asked;
  const out = bare(query, 'SERVFAIL', echoes(asked, bare(query, 'SERVFAIL', true)));
  report(options, 'SERVFAIL', out.length, { question });
  return out;
}

/** The model's answer as a message, truncated when it does not fit the transport. */
function finish(asked: Asked, answer: DnsAnswer, options: RespondOptions): Buffer {
  const { query, q, question } = asked;
  const code = RCODE[answer.rcode];
  const opt = query.opt ? [responseOpt(query, code)] : [];
  let encoded: Buffer;
  try {
    encoded = packet.encode({
      id: query.id,
      type: 'response',
      flags: responseFlags(query.flags, code, answer.authoritative),
      questions: [q],
      answers: answer.answers.map(packetRecord),
      authorities: answer.authorities.map(packetRecord),
      additionals: answer.additionals.length ? [...answer.additionals.map(packetRecord), ...opt] : opt,
    });
  } catch {
    return failed(asked, options);
  }
  if (!echoes(asked, encoded)) return refused(asked, options);

  const limit = options.transport === 'udp' ? udpLimit(query) : TCP_MAX;
  if (encoded.length <= limit) {
    if (options.onExchange) report(options, answer.rcode, encoded.length, { question, answers: answer.answers.length });
    return encoded;
  }
  // Too large: TC set and no records, so the client asks again over TCP (RFC 2181 §9: a partial
  // RRset must not be used anyway; reference/dns-wire.md §1.11). The OPT record stays (RFC 6891 §7).
  const out = packet.encode({
    id: query.id,
    type: 'response',
    flags: responseFlags(query.flags, code, answer.authoritative) | packet.TRUNCATED_RESPONSE,
    questions: [q],
    additionals: opt,
  });
  report(options, answer.rcode, encoded.length, { question, answers: answer.answers.length, truncated: true });
  return out;
}

function asQuestion(q: packet.Question): DnsQuestion {
  return { name: q.name, type: questionType(q.type), class: q.class ?? 'IN' };
}
