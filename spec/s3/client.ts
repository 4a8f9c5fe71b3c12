/**
 * The AWS SDK configured as R2's docs say (region auto, path-style URLs, checksums only when an
 * operation requires them). Shared by the S3 view's tests and its bench, so it imports neither
 * vitest nor the package (the bench runs outside Vitest and its aliases).
 */
import { S3Client } from '@aws-sdk/client-s3';
import { FetchHttpHandler } from '@smithy/fetch-http-handler';
import type { S3Credential, S3Fetch } from '../../lib/s3.js';

/** A client for `endpoint`, sending through `fetch` when given (the double's), else the SDK's default handler. */
export function r2Client(endpoint: string, credentials: S3Credential, fetch?: S3Fetch): S3Client {
  return new S3Client({
    region: 'auto',
    endpoint,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(fetch ? { requestHandler: new FetchHttpHandler({ customFetch: fetch }) } : {}),
  });
}
