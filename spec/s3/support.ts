/** Shared setup for the S3 view's tests: a double with one bucket, and real clients aimed at it. */
import type { S3Client } from '@aws-sdk/client-s3';
import { XMLParser } from 'fast-xml-parser';
import { Bucket } from 'edge-doubles/bucket';
import { S3Api, type S3Fetch } from 'edge-doubles/s3';
import { r2Client } from './client.js';

export const CREDENTIALS = {
  accessKeyId: '0123456789abcdef0123456789abcdef',
  secretAccessKey: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
};

/** An R2-looking endpoint: nothing leaves the process, the host is only signed. */
export const ENDPOINT = 'https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com';

/** The AWS SDK configured as R2's docs say, sending through `fetch` (the double's, or the global one). */
export function sdk(fetch: S3Fetch | undefined, endpoint = ENDPOINT, credentials = CREDENTIALS): S3Client {
  return r2Client(endpoint, credentials, fetch);
}

export function setup() {
  const photos = new Bucket();
  const api = new S3Api({ buckets: { photos }, credentials: [CREDENTIALS] });
  return { photos, api, client: sdk(api.fetch) };
}

/** An S3 error response, read with a real XML parser (entities decoded). */
export async function errorOf(res: Response) {
  const text = await res.text();
  const doc = text ? (new XMLParser({ parseTagValue: false }).parse(text) as { Error?: Record<string, string> }) : {};
  return { status: res.status, code: doc.Error?.Code, message: doc.Error?.Message, text, error: doc.Error };
}
