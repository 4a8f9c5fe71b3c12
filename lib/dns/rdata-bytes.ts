/** Byte-level pieces of RDATA written here (names, integers, hex, base64, addresses) for lib/dns/rdata.ts and svcb.ts. */
import { concat, fromBase64, utf8 } from '../bytes.js';
import { canonicalIPv6, isIPv4 } from './addresses.js';

/** RDATA that cannot be put on the wire (e.g. hex of odd length): the record is left out of answers. */
export class Unencodable extends Error {}

/** A host name as `dns-packet` takes it: no trailing dot (`.`, the root, stays `.`). */
export const wireName = (name: string): string => (name === '.' ? '.' : name.replace(/\.$/, ''));

/** A name in uncompressed wire form (RFC 1035 §3.1), for RDATA written here. */
export function nameBytes(name: string): Uint8Array {
  const n = wireName(name);
  if (n === '.' || n === '') return new Uint8Array([0]);
  const out: number[] = [];
  for (const label of n.split('.')) {
    const b = utf8(label);
    if (b.length === 0 || b.length > 63) throw new Unencodable(`bad label in ${name}`);
    out.push(b.length, ...b);
  }
  out.push(0);
  return new Uint8Array(out);
}

export const u8 = (n: number): Uint8Array => new Uint8Array([n & 0xff]);
export const u16 = (n: number): Uint8Array => new Uint8Array([(n >> 8) & 0xff, n & 0xff]);
export const u32 = (n: number): Uint8Array =>
  new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
export const bytes = (...parts: Uint8Array[]): Uint8Array => concat(parts);

export function hex(s: string): Uint8Array {
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) throw new Unencodable('hex of odd length');
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Base64 as the API accepts it (white space anywhere, padding optional). */
export function base64(s: string): Uint8Array {
  const compact = s.replace(/\s/g, '').replace(/=+$/, '');
  const out = fromBase64(compact + '='.repeat((4 - (compact.length % 4)) % 4));
  if (out === undefined) throw new Unencodable('not base64');
  return out;
}

/** IPv4 and IPv6 addresses as bytes (SVCB hints). */
export function addressBytes(ip: string): Uint8Array | undefined {
  if (isIPv4(ip)) return new Uint8Array(ip.split('.').map(Number));
  const v6 = canonicalIPv6(ip);
  if (v6 === undefined || v6.includes('.')) return undefined;
  const [head, tail] = v6.includes('::') ? v6.split('::') : [v6, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    out[2 * i] = n >> 8;
    out[2 * i + 1] = n & 0xff;
  });
  return out;
}
