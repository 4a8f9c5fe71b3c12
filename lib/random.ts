/**
 * Random bytes for identifiers (object versions, upload ids). Drawn from the platform's CSPRNG in
 * blocks: one `getRandomValues` call per few hundred identifiers instead of one each, which matters
 * when a test suite writes objects by the hundred thousand.
 */
import { toHex } from './bytes.js';

const BLOCK = 8192;
let pool = new Uint8Array(0);
let at = 0;

function randomBytes(n: number): Uint8Array {
  if (n > BLOCK) return crypto.getRandomValues(new Uint8Array(n));
  if (at + n > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(BLOCK));
    at = 0;
  }
  const out = pool.subarray(at, at + n);
  at += n;
  return out;
}

export const randomHex = (bytes: number): string => toHex(randomBytes(bytes));

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
