/**
 * The whole `/client/v4` double (`CloudflareApi`: DNS, R2's control plane, the account) over
 * HTTP(S), for wrangler and the tools that are not JavaScript. Binds loopback unless told otherwise.
 *
 * One port, routed by Host: a request whose Host a `hosts` route claims (R2's public bucket hosts,
 * an S3 endpoint name) goes there; everything else is the API. The seam is here so that other
 * surfaces over the same account join without a second server.
 */
import { CloudflareApi, type CloudflareApiOptions } from '../api/cloudflare-api.js';
import { DnsApiError } from '../api/errors.js';
import { errorResponse } from '../api/envelope.js';
import { serveHandler, type RequestHandler, type RunningServer, type TlsOption } from './server.js';

/** A surface served on the API's port for the hosts it claims (the Host header, without its port, lower-case). */
export interface HostRoute {
  claims(host: string): boolean;
  handle: RequestHandler;
}

export interface ApiServerOptions extends CloudflareApiOptions {
  port?: number;
  host?: string;
  /** Serve HTTPS (the real API is HTTPS only): `true` makes a CA and a certificate at start, or give PEMs. */
  tls?: TlsOption;
  /** Serve this double instead of a new one built from the options. */
  api?: CloudflareApi;
  /** Surfaces asked first, by Host (public bucket hosts, ...); the API answers the rest. */
  hosts?: readonly HostRoute[];
}

// The API's envelope for what the server cannot build or answer, as startDnsApiServer gives it.
const apiMalformed = () => errorResponse(new DnsApiError(400, [{ code: 6003, message: 'Invalid request headers' }]));
const apiFailed = (e: unknown) => errorResponse(new DnsApiError(500, [{ code: 10001, message: String(e) }]));

/** The Host header's name part, lower-case (`[::1]:8787` → `[::1]`). */
export const hostName = (request: Request): string => {
  const raw = (request.headers.get('host') ?? new URL(request.url).host).toLowerCase();
  return raw.startsWith('[') ? raw.slice(0, raw.indexOf(']') + 1) : raw.replace(/:\d*$/, '');
};

/**
 * Starts `CloudflareApi` over HTTP (or HTTPS with `tls`). `baseURL` (origin plus `/client/v4`) is
 * what clients take: wrangler's `CLOUDFLARE_API_BASE_URL`, the SDK's `baseURL`. Everything lives in
 * memory: stopping the server loses it.
 */
export async function startApiServer(options: ApiServerOptions = {}): Promise<RunningServer & { api: CloudflareApi; baseURL: string }> {
  const { port, host, tls, api: given, hosts = [], ...apiOptions } = options;
  const api = given ?? new CloudflareApi(apiOptions);
  // The account's public bucket hosts (enabled r2.dev and custom domains: lib/r2-public) are always routes.
  const routes: readonly HostRoute[] = [...hosts, { claims: (name) => api.public.serves(name), handle: (request) => api.public.handle(request) }];
  const handler: RequestHandler = (request, target) => {
    const name = hostName(request);
    for (const route of routes) if (route.claims(name)) return route.handle(request, target);
    return api.handle(request, target);
  };
  const running = await serveHandler(handler, {
    port: port ?? 0,
    host: host ?? '127.0.0.1',
    ...(tls ? { tls } : {}),
    malformed: apiMalformed,
    failed: apiFailed,
  });
  return { ...running, api, baseURL: `${running.origin}${api.basePath}` };
}
