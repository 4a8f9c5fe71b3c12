/**
 * One server over an account, with whichever surfaces it is given: the `/client/v4` API, the S3
 * view, the account's public bucket hosts, the zones over DNS (UDP and TCP), and the test support
 * over HTTP under `/_edge-doubles/` (admin-routes.ts). `startServer` builds the HTTP server
 * (server.ts), the Host routing, TLS, the test support, the DNS port, the `--persist` attach and the
 * shutdown; each public starter below, and each CLI command (commands.ts), is that server with
 * fewer surfaces:
 *
 * | starter | command | surfaces |
 * |---|---|---|
 * | `startS3Server` | `r2 serve` | the S3 view on every Host; the public hosts over an account |
 * | `startDnsApiServer`, `startDnsServer` | `dns serve` | the DNS records API; the zones over DNS with `dnsPort` |
 * | `startApiServer` | `api serve` | the whole account's API, its S3 view on R2's S3 host names, its public hosts, its queues' test support; the zones over DNS with `dnsPort` |
 *
 * Binds loopback unless told otherwise. Everything lives in memory unless a `--persist` DIR is
 * attached (lib/node/persist/).
 *
 * An S3 PUT over HTTP, in order: `startServer` here → server.ts (`buildRequest`: the target as
 * sent, the body streamed, unread until asked) → lib/s3/api.ts (`S3Api.handle`: route, SigV4 in
 * sigv4.ts, the declared size, the bucket) → lib/s3/objects.ts `putObject` (headers, checksums) →
 * lib/bucket/layer.ts `viaS3` (the bucket's faults and call log, bucket-support.ts; one storage
 * transaction) → lib/bucket/model.ts → the bucket's storage.
 *
 * A DNS question over UDP: the socket's datagram (dns-wire.ts `serveDns`) → the message read and
 * checked (dns-message.ts `respond`) → `api.ask(question, 'udp')` (lib/dns-api/zones-api.ts) → the
 * test support's `question` (lib/api/support.ts: the call log entry with surface `dns`, fault rules
 * that answer an rcode, drop or delay) → resolution over the zones (lib/dns/resolve.ts) → back to
 * `respond`, which encodes the answer for the socket.
 */
import type { Account } from '../account/account.js';
import { CloudflareApi, type CloudflareApiOptions } from '../cloudflare-api/cloudflare-api.js';
import { DnsApi } from '../dns-api/dns-api.js';
import type { DnsApiOptions } from '../dns-api/options.js';
import { ApiError } from '../api/errors.js';
import { errorResponse as apiErrorResponse } from '../api/envelope.js';
import { S3Api, type S3ApiOptions, type S3Credential } from '../s3/api.js';
import { errorResponse as s3ErrorResponse, invalidArgument, s3Errors } from '../s3/errors.js';
import { PublicBuckets } from '../r2-public/index.js';
import { ManualClock, systemClock, type Clock } from '../clock.js';
import { adminRoutes } from './admin-routes.js';
import { DnsAnswerCache } from './dns-answer-cache.js';
import type { DnsExchange } from './dns-message.js';
import type { Persistence } from './persist/persistence.js';
import {
  serveHandler,
  type ExpectContinue,
  type RequestHandler,
  type RunningServer,
  type TlsOption,
} from './server.js';

/** A surface served on the API's port for the hosts it claims (the request's host name, without its port, lower-case). */
export interface HostRoute {
  /** Whether requests for this Host name are this route's. */
  claims(host: string): boolean;
  handle: RequestHandler;
}

/** The `/client/v4` doubles a server can serve: the DNS records API, or the whole account's. */
type ZonesDouble = DnsApi | CloudflareApi;

/** The zones over DNS, UDP and TCP, on `port` of the server's host (0: any free port). */
interface DnsWire {
  port: number;
  /** Called after each DNS message answered (or refused). */
  onExchange?: (exchange: DnsExchange) => void;
}

/**
 * What one server serves. The API, when there is one, answers every request no Host route claims,
 * and the S3 view is then reached by R2's S3 host names of its account; without an API the S3 view
 * answers them (path-style on every Host). Whichever answers the rest is the server's state for test
 * support (its snapshot, restore and reset) and phrases what the server cannot build or answer.
 */
type Surfaces = ({ api: ZonesDouble; s3?: S3Api; dns?: DnsWire } | { api?: undefined; s3: S3Api; dns?: undefined }) & {
  /** The account's public bucket hosts (enabled r2.dev and custom domains: lib/r2-public), by Host; needs `account`. */
  publicHosts?: boolean;
  /** The account's queues are in the test support (their `/client/v4` routes are the API's). */
  queues?: boolean;
  /** Surfaces asked first, by Host. */
  hosts?: readonly HostRoute[];
};

/** Where and how a server listens, and what it awaits before each answer. */
interface Listening {
  port?: number | undefined;
  host?: string | undefined;
  tls?: TlsOption | undefined;
  expectContinue?: ExpectContinue | undefined;
  /** The token the test-support endpoints want (admin-routes.ts). */
  adminToken?: string | undefined;
  /** The doubles' clock: a manual one is what `POST /_edge-doubles/clock` moves, and what `--persist` keeps. */
  clock?: Clock | undefined;
  /** Awaited after each request is answered and before the answer is sent (ServeOptions.settle). */
  settle?: (() => Promise<void>) | undefined;
  /**
   * `--persist DIR`, opened and loaded (commands.ts): attached to what the server serves before it
   * listens, committed once then, and after each request before its answer (instead of `settle`).
   */
  persist?: Persistence | undefined;
}

/** What answers the requests no Host route claims; its state is the server's for test support. */
interface RestSurface {
  handle: RequestHandler;
  snapshot(): object;
  restore(snapshot: never): void;
  reset(): void;
}

interface ServerSpec {
  /** The command the server is (test support's `health` says it). */
  command: 'r2' | 'dns' | 'api';
  /** The account served, where there is one: its public hosts and queues, and what `--persist` keeps. */
  account?: Account | undefined;
  surfaces: Surfaces;
  listen: Listening;
}

/**
 * A request the S3 view cannot have built (its Host is not a host, or its bytes are not a request).
 * AWS S3 answers a request without Host with an empty 400 and `Connection: close`
 * (versitygw/versitygw#1530, 2025); what R2 answers is not established, so the status is S3's and
 * the body R2's error envelope with `InvalidArgument`, the code R2 gives the malformed requests it
 * reports (docs/sources/r2-s3.md#errors).
 */
const s3Malformed = (reason: string) => {
  const response = s3ErrorResponse(invalidArgument(`Bad request: ${reason}`), 'GET');
  response.headers.set('connection', 'close');
  return response;
};
const s3Failed = () => s3ErrorResponse(s3Errors.internal(), 'GET');

/**
 * The API's envelope with a 400. 6003 "Invalid request headers" is the code and text the API gives
 * for headers it cannot use (lib/dns/errors.ts); what the API answers for a bad Host itself was not observed.
 */
const apiMalformed = () => apiErrorResponse(new ApiError(400, [{ code: 6003, message: 'Invalid request headers' }]));
const apiFailed = (e: unknown) => apiErrorResponse(new ApiError(500, [{ code: 10001, message: String(e) }]));

/** R2's S3 host names for one account: `[<bucket>.]<account id>[.<jurisdiction>].r2.cloudflarestorage.com`. */
function s3HostRoute(s3: S3Api, accountId: string): HostRoute {
  const host = new RegExp(`(?:^|\\.)${accountId}\\.(?:(?:eu|fedramp|us)\\.)?r2\\.cloudflarestorage\\.com$`);
  return { claims: (name) => host.test(name), handle: (request, target) => s3.handle(request, target) };
}

/**
 * The S3 view a server serves: state time is the doubles' clock, but signatures are judged by the
 * system clock clients sign with (a server on a manual clock a test moves), unless told otherwise.
 */
export const serverS3Api = (options: S3ApiOptions): S3Api =>
  new S3Api({ ...options, ...(options.clock && !options.signatureClock ? { signatureClock: systemClock } : {}) });

/** The one server: see the file's header. `close()` stops the HTTP server and the DNS port. */
export async function startServer(spec: ServerSpec): Promise<RunningServer & { dnsPort?: number }> {
  const { command, account, surfaces, listen } = spec;
  const { api, s3, dns } = surfaces;
  const rest: RestSurface = api ?? s3!;
  const host = listen.host ?? '127.0.0.1';
  const manual = listen.clock instanceof ManualClock ? listen.clock : undefined;

  const admin = adminRoutes(
    {
      server: command,
      state: rest,
      ...(s3 ? { buckets: () => s3.buckets.map((name) => [name, s3.bucket(name)!] as const) } : {}),
      ...(api ? { dns: api } : {}),
      ...(surfaces.queues && account ? { account } : {}),
    },
    {
      host,
      ...(listen.adminToken !== undefined ? { token: listen.adminToken } : {}),
      ...(manual ? { clock: manual } : {}),
    },
  );
  const routes: HostRoute[] = [...(surfaces.hosts ?? [])];
  if (surfaces.publicHosts && account) {
    const hosts = new PublicBuckets(account);
    routes.push({ claims: (name) => hosts.serves(name), handle: (request) => hosts.handle(request) });
  }
  if (api && s3) routes.push(s3HostRoute(s3, api.account.id));
  // The test-support endpoints answer under /_edge-doubles/ on every Host no route claims (a public
  // bucket host's key may start with `_edge-doubles/`).
  const handler: RequestHandler = (request, target) => {
    if (routes.length) {
      // The URL's host is the Host header's, or an absolute-form target's (RFC 9112 §3.2.2), lower-case, without its port.
      const name = new URL(request.url).hostname;
      for (const route of routes) if (route.claims(name)) return route.handle(request, target);
    }
    return admin(request, target, () => rest.handle(request, target));
  };

  const { persist } = listen;
  if (persist) {
    if (!account) throw new TypeError('startServer: --persist needs the account served');
    persist.attach({ account, ...(api ? { api } : {}) }, manual);
    await persist.commit();
  }
  const settle = persist ? () => persist.commit() : listen.settle;
  const running = await serveHandler(handler, {
    port: listen.port ?? 0,
    host,
    ...(listen.tls ? { tls: listen.tls } : {}),
    ...(listen.expectContinue ? { expectContinue: listen.expectContinue } : {}),
    malformed: api ? apiMalformed : s3Malformed,
    failed: api ? apiFailed : s3Failed,
    ...(settle ? { settle } : {}),
  });
  if (!api || !dns) return running;

  // The DNS port's code (the sockets, the message codec and dns-packet under it) loads with the
  // first server that asks for one, not with edge-doubles/node. If the port cannot be had, the HTTP
  // server is closed and the error thrown.
  const wire = await import('./dns-wire.js')
    .then(({ serveDns }) =>
      // Through the double's test support: each question is in the call log (surface 'dns') and
      // fault rules with surface 'dns' can fail, drop or delay it (lib/api/support.ts).
      serveDns((question, transport) => api.ask(question, transport), {
        port: dns.port,
        host: running.host,
        // Answers encoded once are sent again until a zone changes; onExchange still sees every
        // message, and while the log records or DNS fault rules are armed every question is asked.
        cache: new DnsAnswerCache(() => api.answerState(), { bypass: () => api.watchesQuestions() }),
        ...(dns.onExchange ? { onExchange: dns.onExchange } : {}),
      }),
    )
    .catch(async (e: unknown) => {
      await running.close();
      throw e;
    });
  return {
    ...running,
    dnsPort: wire.port,
    close: async () => {
      await Promise.all([running.close(), wire.close()]);
    },
  };
}

// ---- the public starters ------------------------------------------------------------------------

/** Where and how a public starter's server listens, not what it serves (`startS3Server`, `startDnsApiServer`, `startDnsServer`, `startApiServer`). */
export interface ServerListenOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 unless told otherwise. */
  host?: string;
  /** Serve HTTPS, as R2 and the API do (HTTPS only): `true` makes a CA and a certificate at start, or give PEMs. */
  tls?: TlsOption;
  /** `Expect: 100-continue`: `'send'` (default) or `'silent'`, as at the edge (ServeOptions). */
  expectContinue?: ExpectContinue;
  /** The token the test-support endpoints (`/_edge-doubles/`) want; off a loopback address they answer only with it. */
  adminToken?: string;
  /** Awaited after each request is answered and before the answer is sent (a `--persist` server's commit: ServeOptions.settle). */
  settle?: () => Promise<void>;
}

/** ServerListenOptions' keys, each once: what a starter takes out before building its double (`clock` is both). */
const LISTENING = {
  port: true,
  host: true,
  tls: true,
  expectContinue: true,
  adminToken: true,
  settle: true,
} satisfies Record<keyof ServerListenOptions, true>;

/** A starter's options without where and how to listen: what its double is built from. */
function doubleOptions<O extends object>(options: O): Omit<O, keyof ServerListenOptions> {
  const rest: Partial<O> = { ...options };
  for (const k of Object.keys(LISTENING)) delete rest[k as keyof O];
  return rest as Omit<O, keyof ServerListenOptions>;
}

/** The options of `startS3Server`: the S3 view's, and where to listen. */
export interface S3ServerOptions extends Omit<S3ApiOptions, 'api'>, ServerListenOptions {
  /** Serve this double instead of a new one built from the options. */
  api?: S3Api;
}

/**
 * Starts the S3 view over HTTP (or HTTPS with `tls`). Point clients at `endpoint` (the origin) with
 * path-style addressing. Everything lives in memory: stopping the server loses it.
 */
export async function startS3Server(
  options: S3ServerOptions = {},
): Promise<RunningServer & { api: S3Api; endpoint: string }> {
  const { api: given, ...s3Options } = doubleOptions(options);
  const api = given ?? serverS3Api(s3Options);
  // Over an account, a request whose Host is one of its public hosts is that host's, as at the edge.
  const running = await startServer({
    command: 'r2',
    account: options.account,
    surfaces: { s3: api, publicHosts: true },
    listen: options,
  });
  return { ...running, api, endpoint: running.origin };
}

export interface DnsServerOptions extends DnsApiOptions, ServerListenOptions {
  /** Serve this double instead of a new one built from the options. */
  api?: DnsApi;
}

/** The options of `startDnsServer`: `startDnsApiServer`'s, and the zones over DNS. */
export interface DnsServiceOptions extends DnsServerOptions {
  /**
   * Also answer the zones over DNS, UDP and TCP on this port (0: any free port), on the same host as
   * the API. Without it only the API is served.
   */
  dnsPort?: number;
  /** Called after each DNS message answered (or refused): transport, question, rcode, answer count, truncation. */
  onDnsExchange?: (exchange: DnsExchange) => void;
}

/** A running `startDnsServer`: the API server, and the DNS port its zones answer on. */
export type RunningDnsServer = RunningServer & {
  api: DnsApi;
  baseURL: string;
  /** The port DNS answers on (UDP and TCP), when `dnsPort` was given. */
  dnsPort?: number;
};

/**
 * Starts the DNS double's REST API (`/client/v4`) over HTTP (or HTTPS with `tls`). `baseURL` for
 * clients is the origin plus the base path. Everything lives in memory: stopping the server loses
 * it. Named for the API it serves: DNS itself on the wire (UDP/TCP) is `startDnsServer`'s.
 */
export function startDnsApiServer(
  options: DnsServerOptions = {},
): Promise<RunningServer & { api: DnsApi; baseURL: string }> {
  // Only the API, even if given a dnsPort through a cast: the DNS port is startDnsServer's option.
  const { dnsPort: _port, onDnsExchange: _exchange, ...apiOptions } = options as DnsServiceOptions;
  return startDnsServer(apiOptions);
}

/**
 * Starts the DNS double's API (as `startDnsApiServer`) and, with `dnsPort`, its DNS server too,
 * from the same `DnsApi`, so a record written through the API is what a resolver, dig or an ACME
 * server reads a moment later; `close()` stops both.
 */
export function startDnsServer(
  options: DnsServiceOptions & { dnsPort: number },
): Promise<RunningDnsServer & { dnsPort: number }>;
export function startDnsServer(options?: DnsServiceOptions): Promise<RunningDnsServer>;
export async function startDnsServer(options: DnsServiceOptions = {}): Promise<RunningDnsServer> {
  const { api: given, dnsPort, onDnsExchange, ...apiOptions } = doubleOptions(options);
  const api = given ?? new DnsApi(apiOptions);
  const running = await startServer({
    command: 'dns',
    account: api.account,
    surfaces: { api, ...dnsWire(dnsPort, onDnsExchange) },
    listen: options,
  });
  return { ...running, api, baseURL: `${running.origin}${api.basePath}` };
}

export interface ApiServerOptions extends CloudflareApiOptions, ServerListenOptions {
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

/**
 * Starts `CloudflareApi` over HTTP (or HTTPS with `tls`). `baseURL` (origin plus `/client/v4`) is
 * what clients take: wrangler's `CLOUDFLARE_API_BASE_URL`, the SDK's `baseURL`. One port, routed by
 * Host: `hosts` first, then the account's public bucket hosts, then R2's S3 host names of the
 * account (`<account id>[.eu].r2.cloudflarestorage.com`, and `<bucket>.` before them) for the S3
 * view over the same account; everything else is the API. So a tool that can aim R2's host name at
 * 127.0.0.1 (`curl --resolve`, an HTTP agent's `lookup`) reaches the buckets wrangler made on the
 * same port. Everything lives in memory: stopping the server loses it.
 */
export async function startApiServer(
  options: ApiServerOptions = {},
): Promise<RunningServer & { api: CloudflareApi; baseURL: string; s3: S3Api; dnsPort?: number }> {
  const { api: given, hosts, s3Credentials, dnsPort, onDnsExchange, ...apiOptions } = doubleOptions(options);
  const api = given ?? new CloudflareApi(apiOptions);
  const s3 = serverS3Api({
    api,
    ...(s3Credentials ? { credentials: s3Credentials } : {}),
    ...(apiOptions.clock ? { clock: apiOptions.clock } : {}),
  });
  const running = await startServer({
    command: 'api',
    account: api.account,
    surfaces: {
      api,
      s3,
      publicHosts: true,
      queues: true,
      ...(hosts ? { hosts } : {}),
      ...dnsWire(dnsPort, onDnsExchange),
    },
    listen: options,
  });
  return { ...running, api, s3, baseURL: `${running.origin}${api.basePath}` };
}

/** The `dns` surface for `dnsPort` (none without it). */
export const dnsWire = (
  port: number | undefined,
  onExchange: ((exchange: DnsExchange) => void) | undefined,
): { dns?: DnsWire } => (port === undefined ? {} : { dns: { port, ...(onExchange ? { onExchange } : {}) } });
