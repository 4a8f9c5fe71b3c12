/**
 * `list` cursors. R2 documents them as opaque; workerd's local R2 makes one the base64 of the last
 * key returned, and reads any string it is given the same way: it decodes it as base64 (leniently,
 * as its `Buffer.from(s, 'base64')` does) and lists after the key it spells, whatever bucket or
 * prefix it came from. Production's answer to a cursor it never issued is not established, so the
 * double does what workerd does: the same encoding, and the same decoding of any string.
 */
import { fromUtf8, toBase64, utf8 } from '../bytes.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Sextet of each character code; -1 for anything outside both base64 alphabets (skipped). */
const SEXTET = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) SEXTET[ALPHABET.charCodeAt(i)] = i;
SEXTET['-'.charCodeAt(0)] = 62; // the URL-safe alphabet is read too
SEXTET['_'.charCodeAt(0)] = 63;
const PAD = '='.charCodeAt(0);

/** The cursor for a page that ended at `key`: base64 of its UTF-8 bytes. */
export const encodeCursor = (key: string): string => toBase64(utf8(key));

/**
 * The key a cursor positions after, read as workerd's simulator reads it (`Buffer.from(s,
 * 'base64')` in workerd's node:buffer, then UTF-8 with replacement). That decoder first writes the
 * string one byte per UTF-16 unit (the unit's low byte: 'é' is 0xE9, but '😀', D83D DE00, is '='
 * and NUL), then runs simdutf's base64 decoder in its "accept garbage" mode: bytes of neither
 * alphabet (spaces, '!', 0x80 and up) are skipped, the first '=' ends the input, bits that do not
 * fill a byte are dropped. Bytes that are not UTF-8 become U+FFFD. So 'bad' reads as 'm\uFFFD'
 * (after every ASCII key) and '!!!' as '' (before every key but '').
 */
export function decodeCursor(cursor: string): string {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < cursor.length; i++) {
    const c = cursor.charCodeAt(i) & 0xff;
    if (c === PAD) break;
    const v = c < 128 ? SEXTET[c]! : -1;
    if (v < 0) continue;
    acc = ((acc << 6) | v) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  return fromUtf8(new Uint8Array(bytes));
}
