/**
 * IndexedDB keys as bytes whose plain byte order (LMDB's memcmp) is IndexedDB's key order, so a
 * range scan returns `getAll`'s order with no sort in JavaScript.
 *
 * IndexedDB orders numbers before strings before arrays; strings by UTF-16 code unit (not by
 * code point: '\uFFFF' sorts after '\u{10000}', whose first unit is D800); arrays element by
 * element, a shorter prefix first. lmdb's own key encoding (ordered-binary) writes strings as
 * UTF-8, which is code point order, so it would list '\u{10000}' after '\uFFFF'. Sorting
 * ordered-binary keys in JavaScript instead measured the same (getAllKeys of 20,000 object keys:
 * 7.6 ms encoded here, 6.2 to 7.3 ms ordered-binary then sorted); this way a store is one exact
 * byte range and no read sorts.
 *
 * The encoding (every element tagged; the tags and terminators are what make it prefix-free):
 * - number: 0x10, then the float64 big-endian with the sign bit flipped (negatives: every bit
 *   flipped), so the bytes compare as the numbers do; -0 is written as 0 (IndexedDB: the same key);
 * - string: 0x30, each UTF-16 code unit in 1 to 3 bytes, then 0x00. Units 0–7E are one byte
 *   (unit + 1: 01–7F, so ASCII costs one byte and no unit byte is 00 at a unit's start); 7F–407E
 *   two bytes (80–BF, then the low byte); the rest three (C0, then the unit big-endian). The
 *   classes' first bytes increase with the unit, so byte order is unit order, and the 0x00
 *   terminator sorts a string before every longer string it starts;
 * - array: 0x50, its elements, then 0x00 (before every element tag: a shorter array first).
 * Every tag is below 0xFF, so `prefix + 0xFF` bounds every key that starts with `prefix`.
 *
 * An R2 key (at most 1,024 UTF-8 bytes) encodes in at most 1,536 bytes (a supplementary character:
 * 4 UTF-8 bytes, 2 units of 3 bytes), within LMDB's 1,978-byte key limit.
 */

const NUMBER = 0x10;
const STRING = 0x30;
const ARRAY = 0x50;
const END = 0x00;
/** Above every tag: `prefix + [AFTER]` is past every key starting with `prefix`. */
export const AFTER = 0xff;
/** LMDB's key size limit at the default page size (lmdb-js README). */
export const MAX_KEY_BYTES = 1978;

/** A growable byte buffer the encoders write into. */
export class KeyWriter {
  bytes = new Uint8Array(256);
  length = 0;

  #room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  byte(b: number): void {
    this.#room(1);
    this.bytes[this.length++] = b;
  }

  string(s: string): void {
    this.#room(1 + s.length * 3 + 1);
    const out = this.bytes;
    let at = this.length;
    out[at++] = STRING;
    for (let i = 0; i < s.length; i++) {
      const u = s.charCodeAt(i);
      if (u < 0x7f) out[at++] = u + 1;
      else if (u < 0x407f) {
        const v = u - 0x7f;
        out[at++] = 0x80 | (v >> 8);
        out[at++] = v & 0xff;
      } else {
        out[at++] = 0xc0;
        out[at++] = u >> 8;
        out[at++] = u & 0xff;
      }
    }
    out[at++] = END;
    this.length = at;
  }

  number(n: number): void {
    this.#room(9);
    this.bytes[this.length++] = NUMBER;
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.length, 8);
    view.setFloat64(0, n === 0 ? 0 : n);
    if (this.bytes[this.length]! & 0x80) for (let i = 0; i < 8; i++) this.bytes[this.length + i] ^= 0xff;
    else this.bytes[this.length] ^= 0x80;
    this.length += 8;
  }

  /** Writes an IndexedDB key; throws a DataError for anything that is not a string, number or array of them. */
  key(k: unknown, seen?: Set<unknown>): void {
    if (typeof k === 'string') return this.string(k);
    if (typeof k === 'number') {
      if (Number.isNaN(k)) throw dataError('NaN is not a valid key');
      return this.number(k);
    }
    if (Array.isArray(k)) {
      const path = seen ?? new Set<unknown>();
      if (path.has(k)) throw dataError('an array key may not contain itself');
      path.add(k);
      this.byte(ARRAY);
      for (const e of k) this.key(e, path);
      path.delete(k);
      return this.byte(END);
    }
    throw dataError(`LmdbIndexedDb keeps string, number and array keys, got ${Object.prototype.toString.call(k)}`);
  }

  /** A copy of what was written (a Buffer: what lmdb takes as a binary key). */
  take(): Buffer {
    return Buffer.from(this.bytes.subarray(0, this.length));
  }
}

export function dataError(message: string): DOMException {
  return new DOMException(message, 'DataError');
}

/** Decodes one key written by KeyWriter.key from `bytes` at `at`; returns it and where it ends. */
export function readKey(bytes: Uint8Array, at: number): { key: unknown; end: number } {
  const tag = bytes[at++];
  if (tag === NUMBER) {
    const b = new Uint8Array(8); // a copy of its own (a Buffer's slice would share, and its .buffer is a pool)
    b.set(bytes.subarray(at, at + 8));
    if (b[0]! & 0x80) b[0] ^= 0x80;
    else for (let i = 0; i < 8; i++) b[i] ^= 0xff;
    return { key: new DataView(b.buffer).getFloat64(0), end: at + 8 };
  }
  if (tag === STRING) {
    const units: number[] = [];
    let s = '';
    for (;;) {
      const b = bytes[at++]!;
      if (b === END) break;
      if (b < 0x80) units.push(b - 1);
      else if (b < 0xc0) units.push((((b & 0x3f) << 8) | bytes[at++]!) + 0x7f);
      else {
        units.push((bytes[at]! << 8) | bytes[at + 1]!);
        at += 2;
      }
      if (units.length === 4096) {
        s += String.fromCharCode(...units);
        units.length = 0;
      }
    }
    return { key: s + String.fromCharCode(...units), end: at };
  }
  if (tag === ARRAY) {
    const out: unknown[] = [];
    while (bytes[at] !== END) {
      const e = readKey(bytes, at);
      out.push(e.key);
      at = e.end;
    }
    return { key: out, end: at + 1 };
  }
  throw new Error(
    `LmdbIndexedDb: a stored key has an unknown tag ${String(tag)} (the database was not written by this version)`,
  );
}
