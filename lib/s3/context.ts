/** What every S3 operation handler receives: the request as parsed, the bucket, and the body on demand. */
import type { BucketLayer } from '../bucket/layer.js';
import { fromUtf8 } from '../bytes.js';
import type { Body } from '../bucket/values.js';
import { xmlDocument } from './xml.js';

export interface RequestBody extends Body {
  /** Trailing headers of an aws-chunked body (its checksum), else empty. */
  readonly trailers: Headers;
}

export interface S3Context {
  readonly method: string;
  readonly url: URL;
  readonly query: URLSearchParams;
  readonly headers: Headers;
  readonly bucketName: string;
  /** The bucket's layer: every read and write goes through it (transactions, faults, the call log). */
  readonly bucket: BucketLayer;
  /** Decoded once; '' on a bucket route. */
  readonly key: string;
  readonly now: () => number;
  /** The body, read once, decoded and checked against the signed payload hash. */
  body(): Promise<RequestBody>;
  /** Another bucket by name (copy sources). */
  lookup(name: string): BucketLayer | undefined;
}

export async function bodyText(ctx: S3Context): Promise<string> {
  const b = await ctx.body();
  return b.chunks.length === 1 ? fromUtf8(b.chunks[0]!) : fromUtf8(new Uint8Array(await new Blob(b.chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer()));
}

export function xmlResponse(root: string, content: Record<string, unknown> | string, headers?: HeadersInit, status = 200): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/xml');
  return new Response(xmlDocument(root, content), { status, headers: h });
}

/** S3's XML timestamps: ISO 8601 with milliseconds. */
export const isoTime = (ms: number): string => new Date(ms).toISOString();
