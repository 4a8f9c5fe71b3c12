/**
 * A stored record's RDATA, from its stored fields, in the shape lib/dns-answer.ts promises:
 * `dns-packet`'s object shape for the types it encodes from plain values (A, AAAA, CNAME, NS, PTR,
 * MX, TXT, SRV, CAA, NAPTR), and the whole RDATA as bytes (RFC 3597) for the others, whose codecs
 * in `dns-packet` 5.6.1 are missing (HTTPS, SVCB, URI, LOC, CERT, SMIMEA, OPENPGPKEY) or want Node
 * Buffers and refuse some stored values (DS, DNSKEY, TLSA, SSHFP: its SSHFP codec throws on a
 * fingerprint length it does not know).
 */
import { fromUtf8, utf8 } from '../bytes.js';
import { base64, bytes, hex, nameBytes, u16, u32, u8, Unencodable, wireName } from './rdata-bytes.js';
import { svcbRdata } from './svcb.js';
import type { StoredRecord } from './zone.js';

/** The record's RDATA for an answer; throws Unencodable when its stored fields cannot be encoded. */
export function rdataOf(r: StoredRecord): unknown {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- `data` was checked field by field against the type's rules (record-rules.ts) before it is rendered
  const d = (r.data ?? {}) as Record<string, any>;
  switch (r.type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return r.content;
    case 'MX':
      return { preference: r.priority ?? 0, exchange: r.content };
    case 'TXT':
      return txtStrings(r.content);
    case 'SRV':
      return { priority: d.priority, weight: d.weight, port: d.port, target: wireName(d.target) };
    case 'CAA':
      if (utf8(d.tag).length > 255) throw new Unencodable('CAA tag longer than 255 bytes');
      return { flags: d.flags, tag: d.tag, value: d.value };
    case 'NAPTR':
      for (const k of ['flags', 'service', 'regex'])
        if (utf8(d[k]).length > 255) throw new Unencodable(`NAPTR ${k} longer than 255 bytes`);
      return {
        order: d.order,
        preference: d.preference,
        flags: d.flags,
        services: d.service,
        regexp: d.regex,
        replacement: wireName(d.replacement),
      };
    case 'DS':
      return bytes(u16(d.key_tag), u8(d.algorithm), u8(d.digest_type), hex(d.digest));
    case 'DNSKEY':
      return bytes(u16(d.flags), u8(d.protocol), u8(d.algorithm), base64(d.public_key));
    case 'TLSA':
    case 'SMIMEA':
      return bytes(u8(d.usage), u8(d.selector), u8(d.matching_type), hex(d.certificate));
    case 'SSHFP':
      return bytes(u8(d.algorithm), u8(d.type), hex(d.fingerprint));
    case 'CERT':
      return bytes(u16(d.type), u16(d.key_tag), u8(d.algorithm), base64(d.certificate));
    case 'OPENPGPKEY':
      return base64(r.content);
    case 'URI':
      // RFC 7553 §4.5: priority, weight, then the target's bytes to the end (no length byte).
      return bytes(u16(r.priority ?? 0), u16(d.weight), utf8(d.target));
    case 'HTTPS':
    case 'SVCB': {
      const params = svcbRdata(String(d.value ?? ''));
      if (params === undefined)
        throw new Unencodable(`${r.type} value ${JSON.stringify(d.value)} is not valid SvcParams`);
      return bytes(u16(d.priority), nameBytes(d.target), params);
    }
    case 'LOC':
      return locRdata(d);
    default:
      throw new Unencodable(`no RDATA for ${r.type}`);
  }
}

/**
 * TXT content as character-strings of at most 255 bytes (docs/sources/dns-wire.md#txt): quoted content
 * (`"a" "b"`) gives one string per quoted part, unescaped as RFC 1035 §5.1 says (`\X` is X, `\DDD`
 * the byte DDD); any other content is one string as stored. Every string is then cut into
 * 255-byte pieces. A piece is a string when it is whole UTF-8 (most are), else its bytes.
 */
export function txtStrings(content: string): (string | Uint8Array)[] {
  const parts = /^\s*"/.test(content) ? quotedParts(content) : [utf8(content)];
  const out: (string | Uint8Array)[] = [];
  for (const part of parts) {
    if (part.length === 0) out.push('');
    for (let at = 0; at < part.length; at += 255) out.push(textOrBytes(part.subarray(at, at + 255)));
  }
  return out;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function textOrBytes(b: Uint8Array): string | Uint8Array {
  let ascii = true;
  for (let i = 0; i < b.length && ascii; i++) ascii = b[i]! < 0x80;
  if (ascii) return fromUtf8(b);
  try {
    return strictUtf8.decode(b);
  } catch {
    return b.slice();
  }
}

/** The quoted strings of `"a" "b\"c"` as bytes (the API only stores well-formed sequences). */
function quotedParts(content: string): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let i = content.indexOf('"');
  while (i >= 0 && i < content.length) {
    const chunk: number[] = [];
    let text = '';
    const flush = () => {
      if (text) for (const b of utf8(text)) chunk.push(b);
      text = '';
    };
    i++;
    while (i < content.length && content[i] !== '"') {
      if (content[i] === '\\' && i + 1 < content.length) {
        const ddd = /^\d{3}/.exec(content.slice(i + 1, i + 4));
        if (ddd && Number(ddd[0]) <= 255) {
          flush();
          chunk.push(Number(ddd[0]));
          i += 4;
          continue;
        }
        text += content[i + 1];
        i += 2;
        continue;
      }
      text += content[i];
      i++;
    }
    flush();
    parts.push(new Uint8Array(chunk));
    i = content.indexOf('"', i + 1);
  }
  return parts;
}

/** RFC 1876 §2: a size or precision in metres as one byte, mantissa and power of ten of centimetres. */
function precision(metres: number): number {
  let cm = Math.round(metres * 100);
  let exp = 0;
  while (cm >= 10 && exp < 9) {
    cm = Math.floor(cm / 10);
    exp++;
  }
  return (cm << 4) | exp;
}

/** RFC 1876 §2: version 0, size, precisions, then latitude and longitude from 2^31 in thousandths of an arc second, altitude from -100 km in cm. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- `data` was checked field by field against the type's rules (record-rules.ts) before it is rendered
function locRdata(d: Record<string, any>): Uint8Array {
  const arc = (deg: number, min: number, sec: number, negative: boolean) => {
    const ms = Math.round(((deg * 60 + min) * 60 + sec) * 1000);
    return (2 ** 31 + (negative ? -ms : ms)) >>> 0;
  };
  return bytes(
    u8(0),
    u8(precision(d.size)),
    u8(precision(d.precision_horz)),
    u8(precision(d.precision_vert)),
    u32(arc(d.lat_degrees, d.lat_minutes, d.lat_seconds, d.lat_direction === 'S')),
    u32(arc(d.long_degrees, d.long_minutes, d.long_seconds, d.long_direction === 'W')),
    u32(Math.round(d.altitude * 100 + 10_000_000) >>> 0),
  );
}
