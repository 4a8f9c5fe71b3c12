/**
 * The S3 conformance suite's harness: a target is an S3 endpoint (a URL, or a fetch function
 * standing for one) with a key pair and a bucket. Tests talk to it with real clients only: the AWS
 * SDK configured as R2's docs say, and aws4fetch for requests the SDK will not make (malformed
 * ones, edited signatures). Each test works under its own key prefix and cleans up after itself,
 * so the suite can run against a real bucket that holds other data.
 */
import { afterEach, describe, it, fails } from '../runner.js';
import type { S3Client } from '@aws-sdk/client-s3';
import type { RequestPresigningArguments } from '@smithy/types';
import type { S3DifferenceId } from './differences.js';

/**
 * The clients are loaded when the first test runs, not when this module is imported: importing
 * `edge-doubles/conformance` for the bucket suite alone needs none of them. The S3 suite needs
 * `@aws-sdk/client-s3`, `@aws-sdk/s3-request-presigner` and `aws4fetch` installed.
 */
type Sdk = typeof import('@aws-sdk/client-s3');
interface Clients {
  sdk: Sdk;
  getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
  FetchHttpHandler: typeof import('@smithy/fetch-http-handler').FetchHttpHandler;
  AwsClient: typeof import('aws4fetch').AwsClient;
}
let clients: Promise<Clients> | undefined;
const loadClients = (): Promise<Clients> =>
  (clients ??= Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/s3-request-presigner'),
    import('@smithy/fetch-http-handler'),
    import('aws4fetch'),
  ]).then(([sdk, presigner, handler, a4f]) => ({
    sdk,
    getSignedUrl: presigner.getSignedUrl,
    FetchHttpHandler: handler.FetchHttpHandler,
    AwsClient: a4f.AwsClient,
  })));

let xmlParser: Promise<typeof import('fast-xml-parser')> | undefined;
/** fast-xml-parser, loaded as the clients are: when a test first reads an answer's XML. */
export const loadXmlParser = (): Promise<typeof import('fast-xml-parser')> => (xmlParser ??= import('fast-xml-parser'));

/** How the S3 suite sends a signed request (the double's `api.fetch`, or `fetch`). */
export type S3FetchLike = (request: Request) => Promise<Response>;

/** Something the S3 conformance suite can run against: an endpoint, a key pair, a bucket, and optionally a fetch. */
export interface S3Target {
  /** Shown in test names and the summary table. */
  name: string;
  /**
   * The endpoint's origin and any base path, path-style (`https://<account>.r2.cloudflarestorage.com`),
   * or a function giving it once the target is up. With `fetch`, requests go to that function
   * instead of the network; the endpoint is then only the URL they are addressed (and signed) to.
   */
  endpoint?: string | (() => string | Promise<string>);
  fetch?: S3FetchLike;
  credentials: { accessKeyId: string; secretAccessKey: string };
  bucket: string;
  /** The known differences this target shows (see differences.ts). */
  differences?: readonly S3DifferenceId[];
  /** Per-test timeout (a real bucket is slower). */
  timeout?: number;
}

/** A raw S3 reply: status, headers and body text. */
interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed `<Error>` element, when the body is one. */
  error?: Record<string, string>;
}

/** A raw request of the S3 suite: method, query, headers and body. */
interface SendOptions {
  method?: string;
  /** The query string without '?', appended as given. */
  query?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** 'header' (default) signs with the Authorization header, 'query' presigns, 'none' sends as is. */
  sign?: 'header' | 'query' | 'none';
  /** Sign with another key pair. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Edit the signed request before it is sent. */
  edit?: (r: Request) => Request;
}

/** What an S3 conformance test gets: an AWS SDK client on the target, its bucket, and raw signed requests. */
export interface S3Context {
  readonly target: S3Target;
  readonly bucket: string;
  /** The SDK (region auto, path style, checksums when required), sending through the target. */
  readonly client: S3Client;
  /** `@aws-sdk/client-s3` itself, for its command classes. */
  readonly sdk: Sdk;
  /** A presigned URL for a command (`getSignedUrl` of `@aws-sdk/s3-request-presigner`). */
  presign(
    command: InstanceType<Sdk['GetObjectCommand']> | InstanceType<Sdk['PutObjectCommand']>,
    options?: RequestPresigningArguments,
  ): Promise<string>;
  /** A key unique to this test (under the run's prefix). */
  key(name?: string): string;
  /** The URL of a key in the bucket ('' for the bucket itself), each path segment encoded. */
  url(key: string, query?: string): string;
  /** A request signed with aws4fetch, sent to the target. */
  send(key: string, options?: SendOptions): Promise<Reply>;
  /** A request already built, sent to the target as it is. */
  raw(request: Request): Promise<Reply>;
}

/** Options of one S3 conformance test: what it needs of a target, and the differences it may show. */
interface TestOptions {
  difference?: S3DifferenceId;
}

/** What a S3 conformance group defines its tests with. */
export interface GroupContext {
  target: S3Target;
  /** Registers a test; it is expected to fail on targets that declare its difference. */
  test(name: string, fn: (c: S3Context) => Promise<void>, options?: TestOptions): void;
}

/** A named group of S3 conformance tests (select groups with the target's `groups`). */
export interface Group {
  name: string;
  /** Registers the group's tests. */
  define(t: GroupContext): void;
}

export const defineGroup = (name: string, define: (t: GroupContext) => void): Group => ({ name, define });

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let error: Record<string, string> | undefined;
  if (text.includes('<Error>')) {
    const { XMLParser } = await loadXmlParser();
    try {
      error = (
        new XMLParser({ parseTagValue: false, ignoreAttributes: true }).parse(text) as {
          Error?: Record<string, string>;
        }
      ).Error;
    } catch {
      /* not XML: left undefined, the test says what it expected */
    }
  }
  return { status: res.status, headers: res.headers, text, error };
}

/** RFC 3986 per segment (`!'()*` too), so the path sent is the one aws4fetch signs (it re-encodes). */
const encodeKey = (key: string) =>
  key
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
const runId = `edge-doubles-conformance/${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export function runGroups(groups: readonly Group[], target: S3Target): void {
  const shown = new Set(target.differences ?? []);
  let endpoint: string | undefined;
  let client: S3Client | undefined;
  let serial = 0;
  const doFetch: S3FetchLike = (r) => (target.fetch ? target.fetch(r) : fetch(r));
  // Node's fetch refuses a Content-Length set by hand (the SDK sets one); over the network it sends its own.
  const sdkRequest = (r: Request) => {
    if (target.fetch || !r.headers.has('content-length')) return r;
    const h = new Headers(r.headers);
    h.delete('content-length');
    return new Request(r, { headers: h });
  };

  async function ready(): Promise<{ endpoint: string; client: S3Client; lib: Clients }> {
    const lib = await loadClients();
    if (!endpoint) {
      const e = typeof target.endpoint === 'function' ? await target.endpoint() : target.endpoint;
      endpoint = (e ?? 'https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com').replace(/\/$/, '');
    }
    client ??= new lib.sdk.S3Client({
      region: 'auto',
      endpoint,
      forcePathStyle: true,
      credentials: target.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 1,
      requestHandler: new lib.FetchHttpHandler({
        customFetch: (input, init) => doFetch(sdkRequest(new Request(input as RequestInfo, init))),
      }),
    });
    return { endpoint, client, lib };
  }

  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c().catch(() => {});
  });

  function context(base: { endpoint: string; client: S3Client; lib: Clients }, prefix: string): S3Context {
    const url = (key: string, query?: string) =>
      `${base.endpoint}/${target.bucket}${key === '' ? '' : `/${encodeKey(key)}`}${query ? `?${query}` : ''}`;
    const raw = async (r: Request) => reply(await doFetch(r));
    return {
      target,
      bucket: target.bucket,
      client: base.client,
      sdk: base.lib.sdk,
      presign: (command, options) =>
        base.lib.getSignedUrl(base.client, command as Parameters<Clients['getSignedUrl']>[1], options),
      key: (name = 'object') => `${prefix}${name}`,
      url,
      raw,
      async send(key, o = {}) {
        const init: RequestInit = { method: o.method ?? 'GET', headers: o.headers ?? {} };
        if (o.body !== undefined) init.body = o.body as BodyInit;
        let request: Request;
        if (o.sign === 'none') request = new Request(url(key, o.query), init);
        else {
          const signer = new base.lib.AwsClient({
            ...(o.credentials ?? target.credentials),
            service: 's3',
            region: 'auto',
          });
          request = await signer.sign(url(key, o.query), { ...init, aws: { signQuery: o.sign === 'query' } } as never);
        }
        return raw(o.edit ? o.edit(request) : request);
      },
    };
  }

  describe(`s3 conformance on ${target.name}`, () => {
    for (const g of groups) {
      describe(g.name, () => {
        g.define({
          target,
          test(name, fn, options = {}) {
            const body = async () => {
              const base = await ready();
              const prefix = `${runId}/${++serial}/`;
              cleanups.push(() => cleanUp(base.lib.sdk, base.client, target.bucket, prefix));
              await fn(context(base, prefix));
            };
            if (options.difference && shown.has(options.difference))
              fails(`${name} — known difference: ${options.difference}`, body, target.timeout);
            else it(name, body, target.timeout);
          },
        });
      });
    }
  });
}

/** Deletes what a test left under its prefix, and aborts its uploads (where the target lists them). */
async function cleanUp(sdk: Sdk, client: S3Client, bucket: string, prefix: string): Promise<void> {
  const { ListObjectsV2Command, DeleteObjectsCommand, ListMultipartUploadsCommand, AbortMultipartUploadCommand } = sdk;
  const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  const keys = (listed.Contents ?? []).map((c) => ({ Key: c.Key! }));
  if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
  const uploads = await client
    .send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }))
    .catch(() => undefined);
  for (const u of uploads?.Uploads ?? []) {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: u.Key!, UploadId: u.UploadId! }));
  }
}
