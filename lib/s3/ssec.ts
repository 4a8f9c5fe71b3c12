/**
 * SSE-C headers (docs/sources/r2-s3.md#sse-c-and-storage-class), checked in R2's order: key, key
 * MD5, algorithm, AES256 only; the result is the key's MD5 in base64, which is what the bucket
 * model keeps and compares (and what the binding reports as `ssecKeyMd5`).
 */
import { toBase64, toHex } from '../bytes.js';
import { digest } from '../hash.js';
import { fromBase64 } from './checksums.js';
import { invalidArgument, s3Errors } from './errors.js';

/**
 * The three header names per prefix, written out: a name built per call (a template string) made
 * every `Headers#get` check a fresh string, a tenth of a small GetObject's read.
 */
const SSEC_HEADERS = {
  'x-amz-': {
    algorithm: 'x-amz-server-side-encryption-customer-algorithm',
    key: 'x-amz-server-side-encryption-customer-key',
    keyMd5: 'x-amz-server-side-encryption-customer-key-md5',
  },
  'x-amz-copy-source-': {
    algorithm: 'x-amz-copy-source-server-side-encryption-customer-algorithm',
    key: 'x-amz-copy-source-server-side-encryption-customer-key',
    keyMd5: 'x-amz-copy-source-server-side-encryption-customer-key-md5',
  },
} as const;

/** `prefix`: 'x-amz-' for the object written or read, 'x-amz-copy-source-' for a copy's source. */
export function readSsec(h: Headers, prefix: 'x-amz-' | 'x-amz-copy-source-' = 'x-amz-'): string | undefined {
  const names = SSEC_HEADERS[prefix];
  const algorithm = h.get(names.algorithm);
  const key = h.get(names.key);
  const keyMd5 = h.get(names.keyMd5);
  if (algorithm === null && key === null && keyMd5 === null) return undefined;
  if (key === null) throw s3Errors.sseCustomerKeyMissing();
  if (keyMd5 === null) throw s3Errors.sseCustomerKeyMd5Missing();
  if (algorithm === null) throw s3Errors.sseCustomerAlgorithmMissing();
  if (algorithm !== 'AES256') throw s3Errors.invalidEncryptionAlgorithm();
  const bytes = fromBase64(key);
  if (!bytes || bytes.byteLength !== 32)
    throw invalidArgument('The secret key was invalid for the specified algorithm.');
  const md5 = digest('md5', bytes);
  const given = fromBase64(keyMd5);
  if (!given || toHex(given) !== toHex(md5)) throw s3Errors.sseCustomerKeyMd5Mismatch();
  return toBase64(md5);
}

/** A read of an object: the key must be given exactly when the object was written with one. */
export function checkReadKey(stored: string | undefined, given: string | undefined): void {
  if (stored === undefined) {
    if (given !== undefined) throw s3Errors.encryptionNotApplicable();
    return;
  }
  if (given === undefined) {
    throw invalidArgument(
      'The object was stored using a form of Server Side Encryption. The correct parameters must be provided to retrieve the object.',
    );
  }
  if (given !== stored)
    throw invalidArgument('The calculated MD5 hash of the key did not match the hash that was provided.');
}
