/**
 * Request bodies: read once, an `aws-chunked` body (STREAMING-UNSIGNED-PAYLOAD-TRAILER, the AWS
 * SDKs' default for streams since 2025) unframed with its trailing headers kept, and a signed
 * payload hash checked (`XAmzContentSHA256Mismatch`).
 */
import { concat, fromUtf8 } from '../bytes.js';
import { readCapped } from '../fetch.js';
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
function decodeAwsChunked(b: Uint8Array): { chunks: Uint8Array[]; trailers: Headers } {
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

/**
 * R2's cap on one upload request, a PutObject, UploadPart or UploadPartCopy: 5 GiB − 5 MiB
 * (docs r2/platform/limits; docs/sources/r2-s3.md#limits). Every body read here is bounded by it.
 */
const MAX_UPLOAD_BYTES = 5 * 1024 ** 3 - 5 * 1024 ** 2;

/**
 * Room for aws-chunked framing (chunk sizes, CRLFs, trailers) above the decoded cap: the SDKs send
 * 64 KiB chunks, about 0.01% overhead, so a sixteenth is generous and still bounds memory.
 */
const CHUNKED_SLACK = MAX_UPLOAD_BYTES >> 4;

/** A declared length (Content-Length, x-amz-decoded-content-length) over the cap. */
function declaredTooLarge(value: string | null, limit = MAX_UPLOAD_BYTES): boolean {
  return value !== null && /^\s*\d+\s*$/.test(value) && Number(value) > limit;
}

/**
 * Refuses an upload whose declared length is over the cap, before its body is read: R2 answers
 * EntityTooLarge for PutObject, UploadPart and UploadPartCopy over 5 GiB − 5 MiB
 * (docs/sources/r2-s3.md#limits). Returns the cap the raw body is then read under (aws-chunked
 * framing gets its slack).
 */
export function refuseDeclaredTooLarge(h: Headers, chunked = isAwsChunked(h)): number {
  const limit = chunked ? MAX_UPLOAD_BYTES + CHUNKED_SLACK : MAX_UPLOAD_BYTES;
  if (declaredTooLarge(h.get('x-amz-decoded-content-length')) || declaredTooLarge(h.get('content-length'), limit))
    throw s3Errors.entityTooLarge();
  return limit;
}

/** An aws-chunked body: framed chunks and trailers, decoded before it is stored. */
const isAwsChunked = (h: Headers): boolean =>
  h.get('x-amz-content-sha256') === 'STREAMING-UNSIGNED-PAYLOAD-TRAILER' ||
  h
    .get('content-encoding')
    ?.split(',')
    .some((e) => e.trim() === 'aws-chunked') === true;

/**
 * The body's bytes, read after authentication (the caller's order) and bounded: a declared length
 * over the cap is refused before anything is read, and a body that grows past it while streaming
 * (no Content-Length, or one that lies) stops being read. A stream that fails rejects with
 * `BodyReadError`, as a fetch whose body fails does.
 */
async function readBounded(request: Request, limit: number): Promise<Uint8Array> {
  const { chunks, size } = await readCapped(request.body, limit, s3Errors.entityTooLarge);
  // One fresh copy: the caller's chunks may be reused by whoever wrote them, a stored object may not.
  return chunks.length === 1 ? chunks[0]!.slice() : concat(chunks, size);
}

export async function readBody(request: Request, payload: Authenticated['payload']): Promise<RequestBody> {
  const chunked = payload.kind === 'aws-chunked' || isAwsChunked(request.headers);
  const limit = refuseDeclaredTooLarge(request.headers, chunked);
  const raw = await readBounded(request, limit);
  let chunks: Uint8Array[];
  let trailers = new Headers();
  if (chunked) {
    ({ chunks, trailers } = decodeAwsChunked(raw));
  } else {
    chunks = raw.byteLength ? [raw] : [];
  }
  let size = 0;
  for (const c of chunks) size += c.byteLength;
  if (size > MAX_UPLOAD_BYTES) throw s3Errors.entityTooLarge();
  if (payload.kind === 'sha256' && digestHex('sha256', chunks.length ? chunks : [new Uint8Array(0)]) !== payload.hex) {
    throw s3Errors.contentSha256Mismatch();
  }
  return { chunks, size, trailers };
}
