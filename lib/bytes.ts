/** Small byte helpers shared by both doubles. Uint8Array everywhere; no Buffer (not in browsers). */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const utf8 = (s: string): Uint8Array => encoder.encode(s);

/** A surrogate without its pair (global: for `replace`; test with `isWellFormed`). */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Whether a string is valid UTF-16 (no lone surrogate); cheap for the common case of none at all. */
export const isWellFormed: (s: string) => boolean =
  // ES2024's String.prototype.isWellFormed, where the engine has it: about twice as fast as the
  // regular expression on the keys every call converts (bench/small-ops.ts).
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : wellFormedByPattern;

/** @internal `isWellFormed` where the engine lacks it (exported for its test). */
export function wellFormedByPattern(s: string): boolean {
  if (!/[\uD800-\uDFFF]/.test(s)) return true;
  LONE_SURROGATE.lastIndex = 0;
  return !LONE_SURROGATE.test(s);
}

/**
 * UTF-8, except that a lone surrogate becomes its own 3-byte form (WTF-8) rather than U+FFFD:
 * how the runtime turns a JS string into bytes for storage.
 */
export function wtf8(s: string): Uint8Array {
  if (isWellFormed(s)) return encoder.encode(s);
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i)!;
    if (c > 0xffff) i++;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return new Uint8Array(out);
}
export const fromUtf8 = (b: Uint8Array): string => decoder.decode(b);

/** Standard base64 (with padding) of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s);
}

/** Strict base64 (padding required); undefined for anything else. */
export function fromBase64(s: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return undefined;
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** UTF-8 byte length without allocating. Lone surrogates count 3 bytes, as their WTF-8 form does. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 2 code units, 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const ARGS_AT_ONCE = 8192;

/**
 * Lowercase hex. Built as one flat string from char codes: concatenating pairs would make a rope of
 * n pieces, which every id and digest we keep (versions, etags) would carry into the old generation.
 */
export function toHex(bytes: Uint8Array): string {
  const codes = new Array<number>(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    codes[2 * i] = HEX_CODES[bytes[i]! >> 4]!;
    codes[2 * i + 1] = HEX_CODES[bytes[i]! & 15]!;
  }
  // fromCharCode takes its codes as arguments: stay well under engines' argument-count limits.
  if (codes.length <= ARGS_AT_ONCE) return String.fromCharCode.apply(null, codes);
  let s = '';
  for (let at = 0; at < codes.length; at += ARGS_AT_ONCE)
    s += String.fromCharCode.apply(null, codes.slice(at, at + ARGS_AT_ONCE));
  return s;
}

/** Parses hex (either case); returns undefined for an odd length or a non-hex character. */
export function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export function concat(chunks: readonly Uint8Array[], total?: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const size = total ?? chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
