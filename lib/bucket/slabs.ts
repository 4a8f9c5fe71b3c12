/**
 * Where small bodies' bytes live: copied into shared 16 KiB slabs instead of buffers of their own.
 *
 * A buffer of its own is an allocation outside the JS heap that every garbage collection then has
 * to account for; for a 1 KiB put that cost as much as the whole rest of the put. A slab stays alive
 * while any object in it does, so it can hold at most 16 KiB per live object: the trade Node's own
 * Buffer pool makes. Nobody outside the bucket ever sees a slab: results hand out copies.
 */
import { isWellFormed } from '../bytes.js';

const SLAB_BYTES = 16 * 1024;
/** Larger bodies get buffers of their own (a slab then holds at least four bodies). */
export const SLAB_MAX_BYTES = SLAB_BYTES / 4;

const encoder = new TextEncoder();
let slab = new Uint8Array(0);
let used = 0;

/** `n` fresh bytes (n ≤ SLAB_MAX_BYTES), not yet claimed: write, then `claim` what was written. */
function room(n: number): Uint8Array {
  if (used + n > slab.byteLength) {
    slab = new Uint8Array(SLAB_BYTES);
    used = 0;
  }
  return slab.subarray(used, used + n);
}

function claim(n: number): Uint8Array {
  const bytes = slab.subarray(used, used + n);
  used += n;
  return bytes;
}

/** A copy of small bytes. */
export function copySmall(bytes: Uint8Array): Uint8Array {
  room(bytes.byteLength).set(bytes);
  return claim(bytes.byteLength);
}

/**
 * A short string's UTF-8, or undefined when it is too long for a slab or holds a lone surrogate
 * (whose stored form TextEncoder cannot write).
 */
export function encodeSmall(s: string): Uint8Array | undefined {
  // Up to 3 bytes per UTF-16 unit: reserve the worst case, claim what was written.
  if (s.length * 3 > SLAB_MAX_BYTES || !isWellFormed(s)) return undefined;
  const { written } = encoder.encodeInto(s, room(s.length * 3));
  return claim(written);
}
