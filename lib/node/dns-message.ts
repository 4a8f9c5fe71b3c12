/**
 * One DNS message in, one out: what the double's DNS server (dns-wire.ts) answers to the bytes of a
 * query, whatever the transport. The model (lib/dns, through a `DnsAnswerer`) decides the sections,
 * the flags and the response code; this file owns everything about the message itself: decoding
 * with `dns-packet` (the question's name from its bytes, dns-names.ts), refusing what is not a
 * well-formed single-question QUERY, EDNS(0), the UDP size limit and truncation; the response is
 * written, names compressed, by dns-encode.ts, and kept by dns-answer-cache.ts when given one. It
 * never throws: bytes it cannot read are dropped (undefined) or FORMERR, a model that fails gives
 * SERVFAIL, a question the model drops (null) gets no answer.
 */
import packet from 'dns-packet';
import type { DnsAnswer, DnsQuestion, DnsRcode } from '../dns-answer.js';
import type { DnsAnswerCache } from './dns-answer-cache.js';
import { asBuffer, encodeResponse } from './dns-encode.js';
import { nameEnd, readName } from './dns-names.js';

/**
 * What the server asks the model for each question (with the transport it came by). `null`: no
 * answer at all (a fault rule dropped the question, as a lost datagram or a dead server), so the
 * client's retries and timeouts can be tested.
 */
export type DnsAnswerer = (
  question: DnsQuestion,
  transport: 'udp' | 'tcp',
) => DnsAnswer | null | Promise<DnsAnswer | null>;

/**
 * The EDNS(0) UDP payload the server advertises and the most it sends over UDP: DNS Flag Day 2020's
 * value, which Cloudflare's authoritative servers met (blog.cloudflare.com/dns-flag-day-2020;
 * docs/sources/dns-wire.md#edns-udp-and-tcp).
 */
const EDNS_PAYLOAD = 1232;
/** A UDP answer's limit without EDNS (RFC 1035 §4.2.1); also the floor of a smaller EDNS size (RFC 6891 §6.2.5). */
const CLASSIC_UDP = 512;
/** A TCP message's 2-byte length prefix caps it (RFC 1035 §4.2.2). */
const TCP_MAX = 65535;

/** RFC 1035 §4.1.1 and RFC 6891 §9 (BADVERS, carried in the OPT record's upper bits). */
const RCODE: Record<DnsRcode | 'BADVERS', number> = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  BADVERS: 16,
};
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
  /** Encoded answers to send again while the zones are unchanged (dns-answer-cache.ts). */
  cache?: DnsAnswerCache;
}

/** The type as the model reads it: `dns-packet`'s `UNKNOWN_<n>` becomes `TYPE<n>` (RFC 3597 §5). */
function questionType(type: string): string {
  return type.startsWith('UNKNOWN_') ? `TYPE${type.slice(8)}` : type;
}

interface Query {
  id: number;
  flags: number;
  /** The question section's bytes as they came (name, type, class), when there is one that can be read. */
  question?: Buffer;
  opt?: packet.OptAnswer;
}

/** The response's header flags: QR, the query's opcode, RD and CD copied (RFC 1035 §4.1.1, RFC 4035 §3.1.6). */
function responseFlags(queryFlags: number, rcode: number, aa = false): number {
  const copied = queryFlags & ((0xf << OPCODE_SHIFT) | packet.RECURSION_DESIRED | packet.CHECKING_DISABLED);
  return QR | copied | (aa ? packet.AUTHORITATIVE_ANSWER : 0) | (rcode & 0xf);
}

/** The OPT record of a response to an EDNS query: our payload size, the extended rcode bits, DO copied (RFC 3225 §3). */
function responseOpt(
  query: Query,
  rcode: number,
): { udpPayloadSize: number; extendedRcode: number; flags: number } | undefined {
  if (!query.opt) return undefined;
  return { udpPayloadSize: EDNS_PAYLOAD, extendedRcode: rcode >> 4, flags: (query.opt.flags ?? 0) & packet.DNSSEC_OK };
}

/** A response with no records: an error, with the question echoed when `echo` and there is one. */
function bare(query: Query, rcode: DnsRcode | 'BADVERS', echo: boolean): Buffer {
  const code = RCODE[rcode];
  const opt = responseOpt(query, code);
  return encodeResponse({
    id: query.id,
    flags: responseFlags(query.flags, code),
    ...(echo && query.question ? { question: query.question } : {}),
    ...(opt ? { opt } : {}),
  })!;
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

/** Skips a (possibly compressed) name; the message already decoded, so it is well formed. */
function skipName(buf: Buffer, at: number): number {
  for (;;) {
    const len = buf[at]!;
    if (len === 0) return at + 1;
    if (len >= 0xc0) return at + 2;
    at += 1 + len;
  }
}

/**
 * Whether every OPT record's options fit its RDATA exactly (RFC 6891 §6.1.2: code, length, data).
 * `dns-packet` reads an option whose length runs past the RDATA without complaint (issue 26, point 4).
 */
function optionsFit(buf: Buffer): boolean {
  let at = 12;
  for (let i = buf.readUInt16BE(4); i > 0; i--) at = skipName(buf, at) + 4;
  const records = buf.readUInt16BE(6) + buf.readUInt16BE(8) + buf.readUInt16BE(10);
  for (let i = 0; i < records; i++) {
    at = skipName(buf, at);
    const type = buf.readUInt16BE(at);
    const length = buf.readUInt16BE(at + 8);
    at += 10;
    if (type === 41) {
      let o = at;
      while (o < at + length) {
        if (o + 4 > at + length) return false;
        o += 4 + buf.readUInt16BE(o + 2);
      }
      if (o !== at + length) return false;
    }
    at += length;
  }
  return true;
}

/** The most a UDP answer to this query may hold. */
function udpLimit(query: Query): number {
  if (!query.opt) return CLASSIC_UDP;
  return Math.max(CLASSIC_UDP, Math.min(query.opt.udpPayloadSize ?? CLASSIC_UDP, EDNS_PAYLOAD));
}

/** A query that passed every check: what `finish` needs once the model has answered. */
interface Asked {
  query: Query & { question: Buffer };
  question: DnsQuestion;
  /** The query's bytes (the answer cache keys on them). */
  buf: Buffer;
}

/** The classes dns-packet encodes back to their number (others it would send as 0, so they are refused). */
const CLASSES = new Set(['IN', 'CS', 'CH', 'HS', 'ANY']);

/**
 * The response to `bytes` (one DNS message without TCP's length prefix), or undefined when none is
 * due: fewer than 12 bytes (no header to answer), or a message that is itself a response (answering
 * it could start a loop between two servers). Synchronous when the answerer is (DnsApi.answer is),
 * so the server's loop pays for no promise per datagram; a promise when the answerer gives one.
 * With `options.cache`, an answer encoded before for the same question and zones is sent again
 * (its id and question patched) without asking the answerer.
 */
export function respond(
  bytes: Uint8Array,
  answerer: DnsAnswerer,
  options: RespondOptions,
): Buffer | undefined | null | Promise<Buffer | undefined | null> {
  const buf = asBuffer(bytes);
  const cache = options.cache;
  let key: string | undefined;
  // A cached answer is looked up from the raw bytes, before anything is decoded: an entry exists only
  // for bytes (after the id, the name's case aside) that passed every check below once already.
  if (cache && buf.length >= 12) {
    const end = nameEnd(buf, 12);
    if (end !== undefined && end + 4 <= buf.length) {
      key = cache.key(buf, options.transport, end + 4);
      const hit = cache.get(key, buf);
      if (hit) {
        if (options.onExchange)
          report(options, hit.rcode, hit.size, {
            question: { ...hit.question, name: readName(buf, 12)!.name },
            answers: hit.answers,
            truncated: hit.truncated,
          });
        return hit.out;
      }
    }
  }
  const asked = check(buf, options);
  if (!('question' in asked)) return asked.out;
  let answer: DnsAnswer | null | Promise<DnsAnswer | null>;
  try {
    answer = answerer(asked.question, options.transport);
  } catch {
    return failed(asked, options);
  }
  const done = (a: DnsAnswer | null): Buffer | null => {
    if (a === null) return null; // dropped: no answer, nothing cached
    const out = finish(asked, a, options);
    if (key !== undefined && out.entry) cache!.set(key, out.entry);
    return out.bytes;
  };
  if (answer instanceof Promise) return answer.then(done, () => failed(asked, options));
  return done(answer);
}

function report(
  options: RespondOptions,
  rcode: DnsRcode | 'BADVERS',
  size: number,
  extra?: Partial<DnsExchange>,
): void {
  options.onExchange?.({ transport: options.transport, rcode, answers: 0, truncated: false, size, ...extra });
}

/** Everything before the model: the message read, and what is refused without asking it. */
function check(buf: Buffer, options: RespondOptions): Asked | { out: Buffer | undefined } {
  if (buf.length < 12) return { out: undefined };
  const flags = buf.readUInt16BE(2);
  if (flags & QR) return { out: undefined };
  const query: Query = { id: buf.readUInt16BE(0), flags };

  let decoded: packet.DecodedPacket;
  let name: ReturnType<typeof readName>;
  try {
    if (!countsFit(buf)) throw new Error('more records counted than bytes to hold them');
    decoded = packet.decode(buf);
    // The question's name is read again from its bytes: dns-packet reads labels as UTF-8 joined by
    // dots, which loses a dot or a non-UTF-8 byte inside a label (dns-names.ts).
    name = decoded.questions?.length ? readName(buf, 12) : undefined;
    if (decoded.questions?.length && !name) throw new Error('a question name that cannot be read');
    // Bytes after the last record: not a message Knot answers either (FORMERR).
    if ((packet.decode as unknown as { bytes: number }).bytes !== buf.length)
      throw new Error('bytes after the last record');
  } catch {
    // The header was read, the rest was not: FORMERR (RFC 1035 §4.1.1), with the question when it
    // can be read on its own, as Knot answers.
    const end = buf.readUInt16BE(4) === 1 ? nameEnd(buf, 12) : undefined;
    if (end !== undefined && end + 4 <= buf.length) query.question = buf.subarray(12, end + 4);
    const out = bare(query, 'FORMERR', true);
    report(options, 'FORMERR', out.length);
    return { out };
  }
  const questions = decoded.questions ?? [];
  if (name) query.question = buf.subarray(12, name.end + 4);
  let opts = 0;
  for (const r of decoded.additionals ?? []) {
    if (r.type !== 'OPT') continue;
    opts++;
    query.opt = r;
  }
  // An OPT that cannot be read is not answered with one (Knot's FORMERR carries none).
  const badOptions = opts === 1 && !optionsFit(buf);
  if (opts > 1 || badOptions) delete query.opt;
  const opcode = (flags >> OPCODE_SHIFT) & 0xf;
  const single = questions.length === 1;
  const question: DnsQuestion | undefined = single ? { ...asQuestion(questions[0]!), name: name!.name } : undefined;
  // The DO bit asks for DNSSEC's records (RFC 3225): a signed zone's answer is then signed.
  if (question && query.opt && ((query.opt.flags ?? 0) & packet.DNSSEC_OK) !== 0) question.dnssecOk = true;

  let early: DnsRcode | 'BADVERS' | undefined;
  // Only QUERY is served: NOTIFY, UPDATE and the rest get NOTIMP (RFC 1035 §4.1.1).
  if (opcode !== 0) early = 'NOTIMP';
  // One question per message, as every server answers (RFC 9619); more than one OPT, or an OPT whose
  // options run past its data, is FORMERR (RFC 6891 §6.1.1, §6.1.2).
  else if (!single || opts > 1 || badOptions) early = 'FORMERR';
  // EDNS versions above 0 get BADVERS, with an OPT saying the version we speak (RFC 6891 §6.1.3).
  else if (query.opt && (query.opt.ednsVersion ?? 0) > 0) early = 'BADVERS';
  if (!early && !CLASSES.has(questions[0]!.class ?? 'IN')) early = 'REFUSED';
  // Zone transfers are for configured secondaries only; the double has none [INFER from Cloudflare's
  // zone-transfer docs: outgoing transfers go to the peers set up for them].
  if (!early && (questions[0]!.type === 'AXFR' || questions[0]!.type === 'IXFR')) early = 'REFUSED';
  if (early) {
    // The question goes back as it came; with none, or several, none is echoed.
    const out = bare(query, early, single);
    report(options, early, out.length, question ? { question } : undefined);
    return { out };
  }
  return { query: query as Query & { question: Buffer }, question: question!, buf };
}

/** The model failed, or gave a record that cannot be encoded: the server's failure, not the client's. */
function failed(asked: Asked, options: RespondOptions): Buffer {
  const out = bare(asked.query, 'SERVFAIL', true);
  report(options, 'SERVFAIL', out.length, { question: asked.question });
  return out;
}

/** What a cache keeps of a response: its bytes and what `onExchange` reports of it. */
export interface EncodedAnswer {
  out: Buffer;
  /** The question's type and class (its name is the asker's). */
  question: Omit<DnsQuestion, 'name'>;
  rcode: DnsRcode;
  answers: number;
  truncated: boolean;
  size: number;
}

/** The model's answer as a message, truncated when it does not fit the transport. */
function finish(asked: Asked, answer: DnsAnswer, options: RespondOptions): { bytes: Buffer; entry?: EncodedAnswer } {
  const { query, question } = asked;
  const code = RCODE[answer.rcode];
  const opt = responseOpt(query, code);
  const flags = responseFlags(query.flags, code, answer.authoritative);
  let encoded: Buffer | undefined;
  try {
    encoded = encodeResponse({
      id: query.id,
      flags,
      question: query.question,
      answers: answer.answers,
      authorities: answer.authorities,
      additionals: answer.additionals,
      ...(opt ? { opt } : {}),
    });
  } catch {
    return { bytes: failed(asked, options) };
  }
  const limit = options.transport === 'udp' ? udpLimit(query) : TCP_MAX;
  let entry: EncodedAnswer;
  if (encoded && encoded.length <= limit) {
    entry = {
      out: encoded,
      question: { type: question.type, class: question.class ?? 'IN' },
      rcode: answer.rcode,
      answers: answer.answers.length,
      truncated: false,
      size: encoded.length,
    };
  } else {
    // Too large: TC set and no records, so the client asks again over TCP (RFC 2181 §9: a partial
    // RRset must not be used anyway; docs/sources/dns-wire.md#edns-udp-and-tcp). The OPT record
    // stays (RFC 6891 §7).
    const out = encodeResponse({
      id: query.id,
      flags: flags | packet.TRUNCATED_RESPONSE,
      question: query.question,
      ...(opt ? { opt } : {}),
    })!;
    entry = {
      out,
      question: { type: question.type, class: question.class ?? 'IN' },
      rcode: answer.rcode,
      answers: answer.answers.length,
      truncated: true,
      size: encoded?.length ?? TCP_MAX + 1,
    };
  }
  report(options, entry.rcode, entry.size, { question, answers: entry.answers, truncated: entry.truncated });
  // A SERVFAIL the answerer gave is not a fact about the zones: it is not kept.
  return answer.rcode === 'SERVFAIL' ? { bytes: entry.out } : { bytes: entry.out, entry };
}

function asQuestion(q: packet.Question): DnsQuestion {
  return { name: q.name, type: questionType(q.type), class: q.class ?? 'IN' };
}
