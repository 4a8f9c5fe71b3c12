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

/** Starts a fresh slab when fewer than `n` bytes are left in this one. */
function makeRoom(n: number): void {
  if (used + n > slab.byteLength) {
    slab = new Uint8Array(SLAB_BYTES);
    used = 0;
  }
}

/** The next `n` bytes of the slab, now taken. */
function take(n: number): Uint8Array {
  const bytes = slab.subarray(used, used + n);
  used += n;
  return bytes;
}

/** A copy of small bytes (at most SLAB_MAX_BYTES). */
export function copySmall(bytes: Uint8Array): Uint8Array {
  makeRoom(bytes.byteLength);
  const copy = take(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

/**
 * A short string's UTF-8, or undefined when it is too long for a slab or holds a lone surrogate
 * (whose stored form TextEncoder cannot write).
 */
export function encodeSmall(s: string): Uint8Array | undefined {
  // Up to 3 bytes per UTF-16 unit: make room for the worst case, take what was written.
  if (s.length * 3 > SLAB_MAX_BYTES || !isWellFormed(s)) return undefined;
  makeRoom(s.length * 3);
  const { written } = encoder.encodeInto(s, slab.subarray(used));
  return take(written);
}
