/**
 * SvcParams (RFC 9460 §2.1–2.2, §7): the presentation form the API stores in an HTTPS/SVCB record's
 * `data.value` (`alpn="h3,h2" ipv4hint=192.0.2.1`) into wire form: key, length, value, keys in
 * ascending order, each at most once. `dns-packet` 5.6.1 has no SVCB codec
 * (docs/sources/dns-wire.md#other-types).
 */
import { concat, utf8 } from '../bytes.js';
import { addressBytes, base64, u16 } from './rdata-bytes.js';

const KEYS: Readonly<Record<string, number>> = {
  mandatory: 0,
  alpn: 1,
  'no-default-alpn': 2,
  port: 3,
  ipv4hint: 4,
  ech: 5,
  ipv6hint: 6,
  dohpath: 7,
  ohttp: 8,
};

function keyNumber(name: string): number | undefined {
  const known = KEYS[name];
  if (known !== undefined) return known;
  const m = /^key(\d{1,5})$/.exec(name);
  return m && Number(m[1]) <= 65535 ? Number(m[1]) : undefined;
}

/** The SvcParams of `value` in wire form, or undefined when it is not valid presentation form. */
export function svcbRdata(value: string): Uint8Array | undefined {
  const params = new Map<number, Uint8Array>();
  let i = 0;
  while (i < value.length) {
    while (i < value.length && /\s/.test(value[i]!)) i++;
    if (i >= value.length) break;
    const start = i;
    while (i < value.length && !/[\s=]/.test(value[i]!)) i++;
    const key = keyNumber(value.slice(start, i).toLowerCase());
    if (key === undefined || params.has(key)) return undefined;
    let raw: Uint8Array | undefined;
    if (value[i] === '=') {
      i++;
      const read = readValue(value, i);
      if (!read) return undefined;
      raw = read.bytes;
      i = read.end;
    }
    const wire = paramValue(key, raw);
    if (wire === undefined) return undefined;
    params.set(key, wire);
  }
  const out: Uint8Array[] = [];
  for (const key of [...params.keys()].sort((a, b) => a - b)) {
    const v = params.get(key)!;
    if (v.length > 65535) return undefined;
    out.push(u16(key), u16(v.length), v);
  }
  return concat(
    out,
    out.reduce((n, c) => n + c.length, 0),
  );
}

/** One value, quoted or not, with `\X` and `\DDD` escapes undone (RFC 9460 Appendix A). */
function readValue(s: string, at: number): { bytes: Uint8Array; end: number } | undefined {
  const quoted = s[at] === '"';
  let i = quoted ? at + 1 : at;
  const out: number[] = [];
  while (i < s.length) {
    const c = s[i]!;
    if (quoted ? c === '"' : /\s/.test(c)) break;
    if (c === '\\') {
      const ddd = /^\d{3}/.exec(s.slice(i + 1, i + 4));
      if (ddd && Number(ddd[0]) <= 255) {
        out.push(Number(ddd[0]));
        i += 4;
        continue;
      }
      if (i + 1 >= s.length) return undefined;
      // Keep the backslash before a comma: value lists (alpn) split on unescaped commas only.
      if (s[i + 1] === ',') out.push(0x5c);
      out.push(...utf8(s[i + 1]!));
      i += 2;
      continue;
    }
    out.push(...utf8(c));
    i++;
  }
  if (quoted && s[i] !== '"') return undefined;
  return { bytes: new Uint8Array(out), end: quoted ? i + 1 : i };
}

/** A comma-separated list, `\,` being a comma inside an item. */
function items(raw: Uint8Array): Uint8Array[] {
  const out: number[][] = [[]];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === 0x5c && raw[i + 1] === 0x2c) {
      out[out.length - 1]!.push(0x2c);
      i++;
    } else if (raw[i] === 0x2c) out.push([]);
    else out[out.length - 1]!.push(raw[i]!);
  }
  return out.map((b) => new Uint8Array(b));
}

const text = (raw: Uint8Array) => new TextDecoder().decode(raw);

function paramValue(key: number, raw: Uint8Array | undefined): Uint8Array | undefined {
  switch (key) {
    case 2: // no-default-alpn
    case 8: // ohttp
      return raw === undefined || raw.length === 0 ? new Uint8Array(0) : undefined;
    case 0: {
      if (!raw) return undefined;
      const keys = items(raw).map((k) => keyNumber(text(k)));
      if (keys.some((k) => k === undefined || k === 0)) return undefined;
      return concat((keys as number[]).sort((a, b) => a - b).map(u16));
    }
    case 1: {
      if (!raw) return undefined;
      const ids = items(raw);
      if (ids.some((id) => id.length === 0 || id.length > 255)) return undefined;
      return concat(ids.flatMap((id) => [new Uint8Array([id.length]), id]));
    }
    case 3: {
      const t = raw && text(raw);
      if (!t || !/^\d{1,5}$/.test(t) || Number(t) > 65535) return undefined;
      return u16(Number(t));
    }
    case 4:
    case 6: {
      if (!raw) return undefined;
      const ips = items(raw).map((ip) => addressBytes(text(ip)));
      const size = key === 4 ? 4 : 16;
      if (ips.some((ip) => ip === undefined || ip.length !== size)) return undefined;
      return concat(ips as Uint8Array[]);
    }
    case 5:
      try {
        return raw ? base64(text(raw)) : undefined;
      } catch {
        return undefined;
      }
    default:
      return raw ?? new Uint8Array(0);
  }
}
