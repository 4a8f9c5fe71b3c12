/**
 * The S3 view over HTTP(S), for tools that are not JavaScript (aws CLI, rclone, restic, boto3).
 * Path-style requests at `http://127.0.0.1:<port>/<bucket>/<key>`; binds loopback unless told otherwise.
 * Given an `account`, its public bucket hosts are served too, chosen by the Host header.
 *
 * An S3 PUT over HTTP, in order: `startS3Server` here → server.ts (`buildRequest`: the target as
 * sent, the body streamed, unread until asked) → lib/s3/api.ts (`S3Api.handle`: route, SigV4 in
 * sigv4.ts, the declared size, the bucket) → lib/s3/objects.ts `putObject` (headers, checksums) →
 * lib/bucket/layer.ts `viaS3` (the bucket's faults and call log, bucket-support.ts; one storage
 * transaction) → lib/bucket/model.ts → the bucket's storage (lib/bucket/storage.ts in memory,
 * indexeddb-storage.ts on IndexedDB).
 */
import { S3Api, type S3ApiOptions } from '../s3/api.js';
import { PublicBuckets } from '../r2-public/index.js';
import { errorResponse, invalidArgument, s3Errors } from '../s3/errors.js';
import { ManualClock, systemClock } from '../clock.js';
import { adminRoutes } from './admin-routes.js';
import { serveHandler, type ExpectContinue, type RunningServer, type TlsOption } from './server.js';

/** The options of `startS3Server`: the S3 view's, and where to listen. */
export interface S3ServerOptions extends Omit<S3ApiOptions, 'api'> {
  port?: number;
  host?: string;
  /** Serve HTTPS, as R2 does (HTTPS only): `true` makes a CA and a certificate at start, or give PEMs. */
  tls?: TlsOption;
  /** `Expect: 100-continue`: `'send'` (default) or `'silent'`, as at the edge (ServeOptions). */
  expectContinue?: ExpectContinue;
  /** The token the test-support endpoints (`/_edge-doubles/`) want; off a loopback address they answer only with it. */
  adminToken?: string;
  /** Awaited after each request is answered and before the answer is sent (a `--persist` server's commit: ServeOptions.settle). */
  settle?: () => Promise<void>;
  /** Serve this double instead of a new one built from the options. */
  api?: S3Api;
}

/**
 * A request the server cannot build (its Host is not a host, or its bytes are not a request). AWS
 * S3 answers a request without Host with an empty 400 and `Connection: close` (versitygw/versitygw#1530,
 * 2025); what R2 answers is not established, so the status is S3's and the body R2's error envelope
 * with `InvalidArgument`, the code R2 gives the malformed requests it reports
 * (docs/sources/r2-s3.md#errors).
 */
const s3Malformed = (reason: string) => {
  const response = errorResponse(invalidArgument(`Bad request: ${reason}`), 'GET');
  response.headers.set('connection', 'close');
  return response;
};
const s3Failed = () => errorResponse(s3Errors.internal(), 'GET');

/**
 * Starts the S3 view over HTTP (or HTTPS with `tls`). Point clients at `endpoint` (the origin) with
 * path-style addressing. Everything lives in memory: stopping the server loses it.
 */
export async function startS3Server(
  options: S3ServerOptions = {},
): Promise<RunningServer & { api: S3Api; endpoint: string }> {
  const { port, host, tls, expectContinue, adminToken, settle, api: given, ...apiOptions } = options;
  // Clients sign with the system clock: a server on another clock (a manual one a test moves)
  // still judges signatures by it, unless told otherwise.
  const api =
    given ??
    new S3Api({
      ...apiOptions,
      ...(apiOptions.clock && !apiOptions.signatureClock ? { signatureClock: systemClock } : {}),
    });
  const listening = host ?? '127.0.0.1';
  const admin = adminRoutes(
    { server: 'r2', state: api, buckets: () => api.buckets.map((name) => [name, api.bucket(name)!] as const) },
    {
      host: listening,
      ...(adminToken !== undefined ? { token: adminToken } : {}),
      ...(apiOptions.clock instanceof ManualClock ? { clock: apiOptions.clock } : {}),
    },
  );
  // Over an account, a request whose Host is one of its public hosts (an enabled r2.dev domain or
  // custom domain: lib/r2-public) is that host's, as at the edge; every other request is the S3 view's.
  const hosts = apiOptions.account && new PublicBuckets(apiOptions.account);
  // The test-support endpoints answer under /_edge-doubles/ on every Host but the public ones.
  const surface = (r: Request, target: string) => admin(r, target, () => api.handle(r, target));
  const handle = hosts
    ? (r: Request, target: string) => (hosts.serves(new URL(r.url).hostname) ? hosts.handle(r) : surface(r, target))
    : surface;
  const running = await serveHandler(handle, {
    port: port ?? 0,
    host: listening,
    ...(tls ? { tls } : {}),
    ...(expectContinue ? { expectContinue } : {}),
    malformed: s3Malformed,
    failed: s3Failed,
    ...(settle ? { settle } : {}),
  });
  return { ...running, api, endpoint: running.origin };
}
