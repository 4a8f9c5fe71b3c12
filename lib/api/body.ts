/**
 * Request bodies as the API's front door takes them: refused past the size limit (from the declared
 * length before a byte is read, and while a streamed body is read), a stream failure rejecting the
 * fetch (`BodyReadError`, lib/fetch.ts) instead of becoming an answer.
 */
import { concat } from '../bytes.js';
import { readCapped } from '../fetch.js';

/**
 * The largest request body the API takes: 100 MB, the upload limit Cloudflare's docs give for API
 * calls on Free and Pro plans ("The upload limit for the Cloudflare API depends on your plan ... 413
 * Request Entity Too Large", developers.cloudflare.com/support/troubleshooting/http-status-codes/
 * 4xx-client-error/error-413/; also the 100MB figure in cloudflare/wrangler-legacy#476). Read as
 * 100 MiB, as the nginx-style `client_max_body_size 100m` of the edge counts it: the byte-exact
 * value is not published, so this is our reading. Business (200 MB) and Enterprise plans are not
 * modelled: no DNS request comes near either bound (a zone file is at most 256 KiB).
 */
export const MAX_REQUEST_BODY = 100 * 1024 * 1024;

/** A body larger than its limit (MAX_REQUEST_BODY, or a route's own), declared or found while reading. */
export class BodyTooLarge extends Error {
  constructor(limit = MAX_REQUEST_BODY) {
    super(`request body larger than ${limit} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * The answer: the edge's own HTML page, not the API's JSON envelope, since the gateway refuses the
 * request before the API service sees it (cloudflare/wrangler-legacy#476: "the API Gateway returns a
 * 413 very quickly ... even before the request is forwarded"; the page as captured in
 * cloudflare/workers-sdk#1280 and #1367, `PUT .../bulk -> 413 Payload Too Large`). Lines end in CRLF
 * as nginx writes its error pages; captures in issues lose the CRs, so that detail is inferred.
 */
export function payloadTooLarge(): Response {
  const page = [
    '<html>',
    '<head><title>413 Request Entity Too Large</title></head>',
    '<body>',
    '<center><h1>413 Request Entity Too Large</h1></center>',
    '<hr><center>cloudflare</center>',
    '</body>',
    '</html>',
    '',
  ].join('\r\n');
  return new Response(page, { status: 413, statusText: 'Payload Too Large', headers: { 'content-type': 'text/html' } });
}

/** `content-length` as a number, or undefined when absent or not a decimal count. */
export function declaredLength(headers: { get(name: string): string | null }): number | undefined {
  const raw = headers.get('content-length');
  return raw !== null && /^\s*\d+\s*$/.test(raw) ? Number(raw) : undefined;
}

/**
 * The bytes of `body`, read chunk by chunk and given up (the stream cancelled) as soon as they pass
 * `limit` (MAX_REQUEST_BODY, or the route's own, router.ts `Route.maxBody`), so an endless or
 * oversized stream costs at most the limit. A stream failure rejects with `BodyReadError`.
 */
export async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  limit = MAX_REQUEST_BODY,
): Promise<Uint8Array> {
  const { chunks, size } = await readCapped(body, limit, () => new BodyTooLarge(limit));
  return concat(chunks, size);
}
