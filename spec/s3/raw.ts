/**
 * Requests whose path reaches the S3 view exactly as written (dot segments, `%2e`, `%FF`), the way
 * the HTTP server hands them over: a `Request` plus the raw request-target. Signed by the AWS
 * SDK's own signer (@smithy/signature-v4, which signs an S3 path verbatim), so the double's
 * verifier is checked against an implementation nobody here wrote.
 */
import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpRequest, HttpResponse } from '@smithy/types';
import type { S3Api } from 'edge-doubles/s3';
import { CREDENTIALS, ENDPOINT } from './support.js';

/** The hash constructor the signer wants (what @smithy/hash-node does), on node:crypto. */
class NodeSha256 {
  readonly #hash: ReturnType<typeof createHash> | ReturnType<typeof createHmac>;
  constructor(secret?: string | Uint8Array | ArrayBuffer | ArrayBufferView) {
    this.#hash =
      secret === undefined
        ? createHash('sha256')
        : createHmac(
            'sha256',
            typeof secret === 'string'
              ? secret
              : new Uint8Array(
                  ArrayBuffer.isView(secret)
                    ? secret.buffer.slice(secret.byteOffset, secret.byteOffset + secret.byteLength)
                    : secret,
                ),
          );
  }
  update(data: string | Uint8Array | ArrayBuffer | ArrayBufferView): void {
    this.#hash.update(
      typeof data === 'string'
        ? data
        : new Uint8Array(
            ArrayBuffer.isView(data) ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) : data,
          ),
    );
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }
}

const signer = (credentials = CREDENTIALS) =>
  new SignatureV4({
    service: 's3',
    region: 'auto',
    credentials,
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: false,
  });

/** RFC 3986 escaping, as the SDK writes a query. */
const escape = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryString(query: HttpRequest['query']): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === null || v === undefined) parts.push(escape(k));
    else for (const one of Array.isArray(v) ? v : [v]) parts.push(`${escape(k)}=${escape(one)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

export interface RawInit {
  method?: string;
  /** The path as sent, percent-encoding and dots as written. */
  path: string;
  query?: Record<string, string>;
  /** Signed headers. */
  headers?: Record<string, string>;
  /** Headers added after signing (what a holder of a presigned URL may add). */
  unsigned?: Record<string, string>;
  body?: string | Uint8Array;
  presign?: boolean;
  credentials?: typeof CREDENTIALS;
}

/** A request signed over its raw path, and that raw target: pass both to `api.handle`. */
export async function rawSigned(init: RawInit): Promise<{ request: Request; target: string }> {
  const host = new URL(ENDPOINT).host;
  const base = {
    method: init.method ?? 'GET',
    protocol: 'https:',
    hostname: host,
    path: init.path,
    query: { ...init.query },
    headers: { host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', ...init.headers },
  };
  const s = signer(init.credentials);
  const signed = init.presign ? await s.presign(base, { expiresIn: 3600 }) : await s.sign(base);
  const target = `${signed.path}${queryString(signed.query)}`;
  const headers = new Headers(signed.headers as Record<string, string>);
  headers.delete('host');
  for (const [k, v] of Object.entries(init.unsigned ?? {})) headers.set(k, v);
  const body =
    init.body === undefined
      ? undefined
      : typeof init.body === 'string'
        ? init.body
        : (init.body as Uint8Array<ArrayBuffer>);
  return { request: new Request(`${ENDPOINT}${target}`, { method: base.method, headers, body }), target };
}

/** Sends a `rawSigned` request to the double. */
export async function sendRaw(api: S3Api, init: RawInit): Promise<Response> {
  const { request, target } = await rawSigned(init);
  return api.handle(request, target);
}

/**
 * The AWS SDK sending straight to `api.handle` with the path it signed, as its Node HTTP handler
 * puts it on the wire (its fetch handler goes through `new Request`, which collapses dot segments).
 */
export function rawSdk(api: S3Api): S3Client {
  const handler = {
    async handle(req: HttpRequest) {
      const target = `${req.path}${queryString(req.query)}`;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (k !== 'host') headers.set(k, v);
      const body =
        req.body === undefined || req.body === null
          ? undefined
          : await new Response(req.body as BodyInit).arrayBuffer();
      const res = await api.handle(new Request(`${ENDPOINT}${target}`, { method: req.method, headers, body }), target);
      const out: Record<string, string> = {};
      res.headers.forEach((v, k) => (out[k] = v));
      const response: HttpResponse = {
        statusCode: res.status,
        reason: res.statusText,
        headers: out,
        body: res.body ? Readable.fromWeb(res.body as never) : Readable.from([]),
      };
      return { response };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  } as unknown as NonNullable<ConstructorParameters<typeof S3Client>[0]>['requestHandler'];
  return new S3Client({
    region: 'auto',
    endpoint: ENDPOINT,
    forcePathStyle: true,
    credentials: CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: handler,
  });
}
