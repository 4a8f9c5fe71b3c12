/**
 * Header screening (docs/sources/r2-s3.md#header-screening): headers R2 recognises but does not
 * support are refused with 501 `Header '<name>' with value '<value>' not implemented`, per
 * operation; unknown `x-amz-*` headers are ignored. Also the value-checked headers (canned ACLs,
 * SSE) and storage classes.
 */
import { headerNotImplemented, s3Errors } from './errors.js';

const PUT_REFUSED = [
  'x-amz-expected-bucket-owner',
  'x-amz-tagging',
  'x-amz-website-redirect-location',
  'x-amz-object-lock-mode',
  'x-amz-object-lock-retain-until-date',
  'x-amz-object-lock-legal-hold',
  'x-amz-server-side-encryption-aws-kms-key-id',
  'x-amz-server-side-encryption-context',
  'x-amz-server-side-encryption-bucket-key-enabled',
];

const REFUSED: Record<string, readonly string[]> = {
  PutObject: PUT_REFUSED,
  CreateMultipartUpload: PUT_REFUSED,
  CopyObject: [
    ...PUT_REFUSED,
    'x-amz-source-expected-bucket-owner',
    'x-amz-tagging-directive',
    'x-amz-checksum-algorithm',
  ],
  DeleteObject: ['x-amz-expected-bucket-owner', 'x-amz-mfa', 'x-amz-bypass-governance-retention'],
  DeleteObjects: ['x-amz-expected-bucket-owner', 'x-amz-mfa', 'x-amz-bypass-governance-retention'],
  UploadPart: ['x-amz-expected-bucket-owner', 'x-amz-server-side-encryption'],
  UploadPartCopy: [
    'x-amz-expected-bucket-owner',
    'x-amz-source-expected-bucket-owner',
    'x-amz-copy-source-if-match',
    'x-amz-copy-source-if-none-match',
    'x-amz-copy-source-if-modified-since',
    'x-amz-copy-source-if-unmodified-since',
  ],
};
const DEFAULT_REFUSED = ['x-amz-expected-bucket-owner'];
const GRANT = /^x-amz-grant-/;
const WRITES = new Set(['PutObject', 'CreateMultipartUpload', 'CopyObject']);

const CANNED_ACLS = new Set([
  'private',
  'public-read',
  'public-read-write',
  'authenticated-read',
  'aws-exec-read',
  'bucket-owner-read',
  'bucket-owner-full-control',
]);

export function screenHeaders(operation: string, h: Headers): void {
  for (const name of REFUSED[operation] ?? DEFAULT_REFUSED) {
    const v = h.get(name);
    if (v !== null) throw headerNotImplemented(name, v);
  }
  if (!WRITES.has(operation)) return;
  h.forEach((v, name) => {
    if (GRANT.test(name)) throw headerNotImplemented(name, v);
  });
  const sse = h.get('x-amz-server-side-encryption');
  if (sse !== null && sse !== 'AES256') throw headerNotImplemented('x-amz-server-side-encryption', sse);
  const acl = h.get('x-amz-acl');
  if (acl !== null && !CANNED_ACLS.has(acl)) throw headerNotImplemented('x-amz-acl', acl);
}

/** `x-amz-storage-class` → the binding's class; absent → the bucket's default. */
export function storageClassFrom(h: Headers, fallback: string): string {
  const v = h.get('x-amz-storage-class');
  if (v === null) return fallback;
  if (v === 'STANDARD') return 'Standard';
  if (v === 'STANDARD_IA') return 'InfrequentAccess';
  throw s3Errors.invalidStorageClass();
}
