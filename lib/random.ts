/**
 * Random bytes for identifiers (object versions, upload ids). Drawn from the platform's CSPRNG in
 * blocks: one `getRandomValues` call per few hundred identifiers instead of one each, which matters
 * when a test suite writes objects by the hundred thousand.
 */
import { toHex } from './bytes.js';

const BLOCK = 8192;
let pool = new Uint8Array(0);
let at = 0;

/** Where the next `n` (at most BLOCK) random bytes start in `pool`, drawing a new block when needed. */
function reserve(n: number): number {
  if (at + n > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(BLOCK));
    at = 0;
  }
  const start = at;
  at += n;
  return start;
}

function randomBytes(n: number): Uint8Array {
  if (n > BLOCK) return crypto.getRandomValues(new Uint8Array(n));
  const start = reserve(n);
  return pool.subarray(start, start + n);
}

/** Random bytes as lowercase hex; 16 bytes (object versions, ids) take the faster path of `hex16`. */
export const randomHex = (bytes: number): string => (bytes === 16 ? hex16() : toHex(randomBytes(bytes)));

const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const hi = (b: number) => HEX[b >> 4]!;
const lo = (b: number) => HEX[b & 15]!;

/**
 * 16 random bytes as 32 hex digits, straight from the pool: one `fromCharCode` call with every digit
 * an argument makes the flat string at once, without the view, the array of codes and the `apply`
 * of `toHex`, which cost a 1 KiB put some 5% (every put makes a version).
 */
function hex16(): string {
  const i = reserve(16);
  const p = pool;
  // prettier-ignore
  return String.fromCharCode(
    hi(p[i]!), lo(p[i]!), hi(p[i + 1]!), lo(p[i + 1]!),
    hi(p[i + 2]!), lo(p[i + 2]!), hi(p[i + 3]!), lo(p[i + 3]!),
    hi(p[i + 4]!), lo(p[i + 4]!), hi(p[i + 5]!), lo(p[i + 5]!),
    hi(p[i + 6]!), lo(p[i + 6]!), hi(p[i + 7]!), lo(p[i + 7]!),
    hi(p[i + 8]!), lo(p[i + 8]!), hi(p[i + 9]!), lo(p[i + 9]!),
    hi(p[i + 10]!), lo(p[i + 10]!), hi(p[i + 11]!), lo(p[i + 11]!),
    hi(p[i + 12]!), lo(p[i + 12]!), hi(p[i + 13]!), lo(p[i + 13]!),
    hi(p[i + 14]!), lo(p[i + 14]!), hi(p[i + 15]!), lo(p[i + 15]!),
  );
}

/** base64url without padding, the alphabet R2's upload ids use. */
export function randomBase64Url(bytes: number): string {
  const b = randomBytes(bytes);
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A small seeded generator (mulberry32): reproducible fractions without Math.random. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
