/**
 * SSE-C (server-side encryption with a customer key). The binding checks the key's format; R2 then
 * requires the same key to read an object written with it, and reports the key's MD5.
 */
import { copyBufferSource, isBufferSource, toStr } from './coerce.js';
import { fromHex, toBase64, toHex } from '../bytes.js';
import { digest } from '../hash.js';

/** After conversion: the key as lowercase hex (what the binding sends) or raw bytes. */
export type ConvertedSsecKey = string | Uint8Array;

export function convertSsecKey(v: unknown): ConvertedSsecKey | undefined {
  if (v === undefined) return undefined;
  return isBufferSource(v) ? copyBufferSource(v) : toStr(v);
}

/** workerd's format rules; returns the key as 64 lowercase hex characters. */
export function checkSsecKey(key: ConvertedSsecKey | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (typeof key === 'string') {
    if (!/^[0-9a-f]+$/.test(key)) throw new Error('SSE-C Key has invalid format');
    if (key.length !== 64) throw new Error('SSE-C Key must be 32 bytes in length');
    return key;
  }
  if (key.byteLength !== 32) throw new Error('SSE-C Key must be 32 bytes in length');
  return toHex(key);
}

/**
 * The `ssecKeyMd5` R2 reports: the MD5 of the key's 32 bytes, in base64 (S3's convention for
 * SSE-C key digests). workerd's own R2 tests (src/workerd/api/tests/r2-test.js) answer
 * 'WGR5pEm07DroP3hYRAh8Yw==' for the key b9ff…b5e3, which is exactly that; the docs' word "hex"
 * is not borne out by any sample.
 */
export const ssecKeyMd5 = (hexKey: string): string => toBase64(digest('md5', fromHex(hexKey)!));
