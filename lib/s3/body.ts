/**
 * Request bodies: read once, an `aws-chunked` body (STREAMING-UNSIGNED-PAYLOAD-TRAILER, the AWS
 * SDKs' default for streams since 2025) unframed with its trailing headers kept, and a signed
 * payload hash checked (`XAmzContentSHA256Mismatch`).
 */
import { fromUtf8 } from '../bytes.js';
import { digestHex } from '../hash.js';
import { invalidArgument, s3Errors } from './errors.js';
import type { RequestBody } from './context.js';
import type { Authenticated } from './sigv4.js';

const CRLF = [13, 10] as const;

function indexOfCrlf(b: Uint8Array, from: number): number {
  for (let i = from; i + 1 < b.length; i++) if (b[i] === CRLF[0] && b[i + 1] === CRLF[1]) return i;
  return -1;
}

/** `size[;ext]\r\n data\r\n ... 0\r\n trailer: v\r\n ... \r\n` → the data and the trailers. */
export function decodeAwsChunked(b: Uint8Array): { chunks: Uint8Array[]; trailers: Headers } {
  const chunks: Uint8Array[] = [];
  const trailers = new Headers();
  let at = 0;
  for (;;) {
    const eol = indexOfCrlf(b, at);
    if (eol < 0) throw invalidArgument('Invalid aws-chunked body');
    const line = fromUtf8(b.subarray(at, eol));
    const size = parseInt(line.split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size) || size < 0) throw invalidArgument('Invalid aws-chunked body');
    at = eol + 2;
    if (size === 0) break;
    if (at + size > b.length) throw invalidArgument('Invalid aws-chunked body');
    chunks.push(b.subarray(at, at + size));
    at += size;
    if (b[at] === 13 && b[at + 1] === 10) at += 2;
  }
  for (;;) {
    const eol = indexOfCrlf(b, at);
    if (eol < 0 || eol === at) break;
    const line = fromUtf8(b.subarray(at, eol));
    const colon = line.indexOf(':');
    if (colon > 0) trailers.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    at = eol + 2;
  }
  return { chunks, trailers };
}

export async function readBody(request: Request, payload: Authenticated['payload']): Promise<RequestBody> {
  const raw = request.body === null ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
  let chunks: Uint8Array[];
  let trailers = new Headers();
  if (payload.kind === 'aws-chunked' || request.headers.get('content-encoding')?.split(',').some((e) => e.trim() === 'aws-chunked')) {
    ({ chunks, trailers } = decodeAwsChunked(raw));
  } else {
    chunks = raw.byteLength ? [raw] : [];
  }
  if (payload.kind === 'sha256' && digestHex('sha256', chunks.length ? chunks : [new Uint8Array(0)]) !== payload.hex) {
    throw s3Errors.contentSha256Mismatch();
  }
  let size = 0;
  for (const c of chunks) size += c.byteLength;
  return { chunks, size, trailers };
}
