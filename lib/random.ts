/**
 * Random bytes for identifiers (object versions, upload ids). Drawn from the platform's CSPRNG in
 * blocks: one `getRandomValues` call per few hundred identifiers instead of one each, which matters
 * when a test suite writes objects by the hundred thousand.
 */
import { toHex } from './bytes.js';

const BLOCK = 8192;
let pool = new Uint8Array(0);
let at = 0;

export function randomBytes(n: number): Uint8Array {
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
