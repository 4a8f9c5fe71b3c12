/**
 * SSE-C (server-side encryption with a customer key). The binding checks the key's format; R2 then
 * requires the same key to read an object written with it, and reports the key's MD5.
 */
import { copyBufferSource, isBufferSource, toStr } from './coerce.js';
import { fromHex, toHex } from '../bytes.js';
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

/** The `ssecKeyMd5` R2 reports: hex MD5 of the key's 32 bytes. */
export const ssecKeyMd5 = (hexKey: string): string => toHex(digest('md5', fromHex(hexKey)!));
