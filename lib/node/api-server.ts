/**
 * The whole `/client/v4` double (`CloudflareApi`: DNS, R2's control plane, the account) over
 * HTTP(S), for wrangler and the tools that are not JavaScript. Binds loopback unless told otherwise.
 *
 * One port, routed by Host: a request whose Host a `hosts` route claims (R2's public bucket hosts)
 * goes there; R2's S3 host names of the served account (`<account id>[.eu].r2.cloudflarestorage.com`,
 * and `<bucket>.` before them) go to the S3 view over the same account; everything else is the API.
 * So a tool that can aim R2's host name at 127.0.0.1 (`curl --resolve`, an HTTP agent's `lookup`)
 * reaches the buckets wrangler made on the same port. The seam is here so that other surfaces over
 * the same account join without a second server.
 */
import { CloudflareApi, type CloudflareApiOptions } from '../cloudflare-api/cloudflare-api.js';
import { ApiError } from '../api/errors.js';
import { errorResponse } from '../api/envelope.js';
import { S3Api, type S3Credential } from '../s3/api.js';
import { ManualClock, systemClock } from '../clock.js';
import { adminRoutes } from './admin-routes.js';
import type { DnsExchange } from './dns-message.js';
import { withDnsWire } from './dns-server.js';
import {
  serveHandler,
  type ExpectContinue,
  type RequestHandler,
  type RunningServer,
  type TlsOption,
} from './server.js';

/** A surface served on the API's port for the hosts it claims (the Host header, without its port, lower-case). */
export interface HostRoute {
  /** Whether requests for this Host name are this route's. */
  claims(host: string): boolean;
  handle: RequestHandler;
}

export interface ApiServerOptions extends CloudflareApiOptions {
  port?: number;
  host?: string;
  /** Serve HTTPS (the real API is HTTPS only): `true` makes a CA and a certificate at start, or give PEMs. */
  tls?: TlsOption;
  /** `Expect: 100-continue`: `'send'` (default) or `'silent'`, as at the edge (ServeOptions). */
  expectContinue?: ExpectContinue;
  /** The token the test-support endpoints (`/_edge-doubles/`) want; off a loopback address they answer only with it. */
  adminToken?: string;
  /** Awaited after each request is answered and before the answer is sent (a `--persist` server's commit: ServeOptions.settle). */
  settle?: () => Promise<void>;
  /** Serve this double instead of a new one built from the options. */
  api?: CloudflareApi;
  /** Surfaces asked first, by Host (public bucket hosts, ...); the API answers the rest. */
  hosts?: readonly HostRoute[];
  /** Key pairs the S3 view on R2's host names accepts; without any, every well-formed signature. */
  s3Credentials?: readonly S3Credential[];
  /**
   * Also answer the account's zones over DNS, UDP and TCP on this port (0: any free port), on the
   * same host, from the same account: what `startDnsServer` does for a DNS API alone.
   */
  dnsPort?: number;
  /** Called after each DNS message answered (or refused), with `dnsPort`. */
  onDnsExchange?: (exchange: DnsExchange) => void;
}

/** R2's S3 host names for one account: `[<bucket>.]<account id>[.<jurisdiction>].r2.cloudflarestorage.com`. */
function s3HostRoute(s3: S3Api, accountId: string): HostRoute {
  const host = new RegExp(`(?:^|\\.)${accountId}\\.(?:(?:eu|fedramp|us)\\.)?r2\\.cloudflarestorage\\.com$`);
  return { claims: (name) => host.test(name), handle: (request, target) => s3.handle(request, target) };
}

// The API's envelope for what the server cannot build or answer, as startDnsApiServer gives it.
const apiMalformed = () => errorResponse(new ApiError(400, [{ code: 6003, message: 'Invalid request headers' }]));
const apiFailed = (e: unknown) => errorResponse(new ApiError(500, [{ code: 10001, message: String(e) }]));

/** The Host header's name part, lower-case (`[::1]:8787` → `[::1]`). */
const hostName = (request: Request): string => {
  const raw = (request.headers.get('host') ?? new URL(request.url).host).toLowerCase();
  return raw.startsWith('[') ? raw.slice(0, raw.indexOf(']') + 1) : raw.replace(/:\d*$/, '');
};

/**
 * Starts `CloudflareApi` over HTTP (or HTTPS with `tls`). `baseURL` (origin plus `/client/v4`) is
 * what clients take: wrangler's `CLOUDFLARE_API_BASE_URL`, the SDK's `baseURL`. Everything lives in
 * memory: stopping the server loses it.
 */
export async function startApiServer(
  options: ApiServerOptions = {},
): Promise<RunningServer & { api: CloudflareApi; baseURL: string; s3: S3Api; dnsPort?: number }> {
  const {
    port,
    host,
    tls,
    expectContinue,
    adminToken,
    settle,
    api: given,
    hosts: extra = [],
    s3Credentials,
    dnsPort,
    onDnsExchange,
    ...apiOptions
  } = options;
  const api = given ?? new CloudflareApi(apiOptions);
  // The S3 view's state time is the API's clock; signatures are judged by the system clock clients sign with.
  const clock = apiOptions.clock;
  const s3 = new S3Api({
    api,
    ...(s3Credentials ? { credentials: s3Credentials } : {}),
    ...(clock ? { clock, signatureClock: systemClock } : {}),
  });
  const listening = host ?? '127.0.0.1';
  const admin = adminRoutes(
    {
      server: 'api',
      state: api,
      dns: api,
      account: api.account,
      buckets: () => api.account.buckets.map((name) => [name, api.account.bucket(name)!] as const),
    },
    {
      host: listening,
      ...(adminToken !== undefined ? { token: adminToken } : {}),
      ...(clock instanceof ManualClock ? { clock } : {}),
    },
  );
  // The account's public bucket hosts (enabled r2.dev and custom domains: lib/r2-public) and R2's S3
  // names for the account are always routes; anything else is the API.
  const routes: readonly HostRoute[] = [
    ...extra,
    { claims: (name) => api.public.serves(name), handle: (request) => api.public.handle(request) },
    s3HostRoute(s3, api.account.id),
  ];
  const handler: RequestHandler = (request, target) => {
    const name = hostName(request);
    for (const route of routes) if (route.claims(name)) return route.handle(request, target);
    return admin(request, target, () => api.handle(request, target));
  };
  const running = await serveHandler(handler, {
    port: port ?? 0,
    host: listening,
    ...(tls ? { tls } : {}),
    ...(expectContinue ? { expectContinue } : {}),
    malformed: apiMalformed,
    failed: apiFailed,
    ...(settle ? { settle } : {}),
  });
  const served = { ...running, api, s3, baseURL: `${running.origin}${api.basePath}` };
  return dnsPort === undefined ? served : withDnsWire(served, api, dnsPort, onDnsExchange);
}
