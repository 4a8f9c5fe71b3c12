/**
 * The `/client/v4` front door, written once for every double of the API (DnsApi, CloudflareApi):
 * its two entry points (`fetch`, and `handle` for servers), the request's body read within its
 * limit (body.ts), the test-support wrapper around the router (support.ts: fault rules and the
 * request log), then the router (router.ts: base path, route tables, credentials, rate limit,
 * envelope). An assembly gives it an account, its service and its route tables; it knows no
 * product.
 *
 * A request's path, and a fault on a route, in order: `fetch` (`quickIncoming`, or a Request) or
 * `handle` → `respond` here → `ApiSupport.run` (support.ts: logged; a fault rule matched by method
 * and path answers in the envelope, or delays, before the router runs) → `respond` in router.ts
 * (base path, route table, method, credentials, rate limit, the route's body limit) → the product's
 * handler (DNS: lib/dns/routes.ts) → its model (lib/dns/zone.ts) → the envelope (envelope.ts).
 */
import { fromUtf8, utf8, utf8Length } from '../bytes.js';
import { timeSource, type TimeSource } from '../clock.js';
import { fetchOver, type Fetch } from '../fetch.js';
import type { CallLog } from '../support/call-log.js';
import type { FaultList } from '../support/faults.js';
import { declaredLength, MAX_REQUEST_BODY, readBounded } from './body.js';
import { API_RATE_LIMIT, RateLimiter } from './rate-limit.js';
import { respond, type ApiService, type Incoming, type RouteTable } from './router.js';
import { ApiSupport, type ApiFault, type ApiRequest, type ApiRequestQuery } from './support.js';
import type { ApiCredential, FrontDoorOptions } from './types.js';

/** Where the real API answers; clients' base URLs end in it. */
const DEFAULT_BASE_PATH = '/client/v4';

/** `''` or `'/'` is a bare origin; otherwise one leading slash and no trailing one. */
function normaliseBasePath(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (/[?#\s]/.test(trimmed)) throw new Error(`DnsApi: basePath must be a URL path, got ${JSON.stringify(raw)}`);
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** A standard fetch, as every double of the API exposes it. */
export type ApiFetch = Fetch;

/** What an assembly gives the front door. */
export interface FrontDoorInit<S extends ApiService> {
  /** The account served: its state (the assembly made the account, or was given it). */
  state: S['account'];
  options: FrontDoorOptions;
  /** The service every route sees: the front door's own fields (`base`), plus the products'. */
  service: (base: ApiService<S['account']>) => S;
  /**
   * The route tables, in order: no path matches two. Or a function that imports them, called on the
   * first request: most of a double's code is its routes, which importing the package need not load.
   */
  routes: readonly RouteTable<S>[] | (() => Promise<readonly RouteTable<S>[]>);
}

export class FrontDoor<S extends ApiService> {
  /** A standard fetch, already bound: pass it to the SDK, stub the global with it, or call it. */
  readonly fetch: ApiFetch;
  /** What every route may ask of the double; each product adds its own switches. */
  protected readonly service: S;
  protected readonly time: TimeSource;
  protected readonly support: ApiSupport;
  /** The router over this double's tables (kept as a closure: the tables' type is the assembly's). */
  private readonly route: (req: Incoming) => Promise<Response>;

  protected constructor(init: FrontDoorInit<S>) {
    const { options } = init;
    this.time = timeSource(options.clock);
    const basePath = normaliseBasePath(options.basePath ?? DEFAULT_BASE_PATH);
    this.support = new ApiSupport(this.time, options.log ?? false, basePath);
    const base: ApiService<S['account']> = { basePath, account: init.state, now: () => this.time.now() };
    if (options.rateLimit)
      base.limiter = new RateLimiter(options.rateLimit === true ? API_RATE_LIMIT : options.rateLimit);
    const service = init.service(base);
    this.service = service;
    const given = init.routes;
    if (typeof given === 'function') {
      let tables: readonly RouteTable<S>[] | undefined;
      let loading: Promise<readonly RouteTable<S>[]> | undefined;
      this.route = (req) =>
        tables
          ? respond(service, tables, req)
          : (loading ??= given()).then((loaded) => respond(service, (tables = loaded), req));
    } else this.route = (req) => respond(service, given, req);
    this.fetch = (input, init) => this.dispatch(input, init);
  }

  /** Fault rules: `api.faults.add({ method: 'POST', path: 'zones/*\/dns_records', status: 429 })`. */
  get faults(): FaultList<ApiFault, unknown> {
    return this.support.faults as FaultList<ApiFault, unknown>;
  }

  /** The request log (`log: true`, or `api.log.start()`). */
  get log(): CallLog<ApiRequest, ApiRequestQuery> {
    return this.support.log;
  }

  /** Accepts one more credential (switches off "any well-formed credential" if it was on). */
  addCredential(c: ApiCredential): void {
    this.service.account.credentials.add(c);
  }

  /** Where the API answers (`/client/v4` unless `basePath` said otherwise; `''` for a bare origin). */
  get basePath(): string {
    return this.service.basePath;
  }

  /**
   * Answers one request. `_target`, the request-target as the client wrote it, is not used: the
   * routes name nothing by a free-form path (ids are 32 hex, every other segment a literal or a
   * name the router decodes), and the API sits behind Cloudflare's edge, whose default URL
   * normalization (type "cloudflare", scope incoming: dot segments removed, `\\` made `/`;
   * developers.cloudflare.com/rules/normalization/) routes the same collapsed path `request.url`
   * holds. Only a request whose body cannot be read rejects (`TypeError: fetch failed`); every
   * other request gets an answer.
   */
  handle(request: Request, _target?: string): Promise<Response> {
    try {
      let bytes: Promise<Uint8Array> | undefined;
      let limit = MAX_REQUEST_BODY;
      // Read once, within the size limit (the route's, once routed); the router and the request log share what was read.
      const read = (max = limit) => (bytes ??= readBounded(request.body, max));
      return this.respond({
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        length: declaredLength(request.headers),
        text: async () => fromUtf8(await read()),
        bytes: read,
        formData: async () => {
          const headers = { 'content-type': request.headers.get('content-type') ?? '' };
          // A body stream's chunks are never shared memory.
          return new Response((await read()) as Uint8Array<ArrayBuffer>, { headers }).formData();
        },
        limit: (bytes) => void (limit = bytes),
      });
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The one way into the router: test support (faults, the request log) wraps it. */
  private respond(incoming: Incoming): Promise<Response> {
    return this.support.respond(incoming, this.route);
  }

  /**
   * A standard fetch: strings and URLs with a string (or no) body and plain options skip building a
   * Request (most calls, and the SDK's: it matters for speed); everything else, and anything the
   * quick path is unsure of, builds one, so bad arguments reject with exactly the platform's error.
   */
  private dispatch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    let incoming: Incoming | undefined;
    try {
      incoming = quickIncoming(input, init);
    } catch {
      incoming = undefined; // the Request constructor below raises the platform's own error
    }
    return incoming ? this.respond(incoming) : this.viaRequest(input, init);
  }

  private readonly viaRequest = fetchOver((request, target) => this.handle(request, target));
}

/** Options the quick path understands; any other set option goes through a Request. */
const QUICK_OPTIONS = new Set(['method', 'headers', 'body', 'signal']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const NORMALISED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The request a string or URL with plain options describes, without building a Request; undefined
 * (or a throw) where `new Request(input, init)` might see it otherwise, which then decides.
 */
function quickIncoming(input: RequestInfo | URL, init: RequestInit | undefined): Incoming | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  if (init !== undefined) {
    if (typeof init !== 'object' || init === null) return undefined;
    const proto = Object.getPrototypeOf(init);
    if (proto !== Object.prototype && proto !== null) return undefined;
    for (const key of Object.keys(init)) {
      if (!QUICK_OPTIONS.has(key) && (init as Record<string, unknown>)[key] !== undefined) return undefined;
    }
  }
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== 'string') return undefined;
  const signal = init?.signal;
  if (signal !== undefined && signal !== null && !(signal instanceof AbortSignal)) return undefined;
  const rawMethod = init?.method ?? 'GET';
  if (typeof rawMethod !== 'string' || !TOKEN.test(rawMethod) || FORBIDDEN_METHODS.has(rawMethod.toUpperCase()))
    return undefined;
  const method = NORMALISED_METHODS.has(rawMethod.toUpperCase()) ? rawMethod.toUpperCase() : rawMethod;
  if (typeof body === 'string' && (method === 'GET' || method === 'HEAD')) return undefined;
  const url = new URL(input);
  const given = init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
  // A real fetch labels a string body text/plain when the caller did not say; so must we.
  const headers =
    typeof body === 'string' && !given.has('content-type')
      ? {
          get: (name: string) => (name.toLowerCase() === 'content-type' ? 'text/plain;charset=UTF-8' : given.get(name)),
        }
      : given;
  const text = body ?? '';
  return {
    method,
    url,
    headers,
    // What a fetch would send as content-length, so an oversized body is refused before it is used.
    length: utf8Length(text),
    text: async () => text,
    bytes: async () => utf8(text),
    formData: () => new Request(url, { method: 'POST', headers: given, body: text }).formData(),
  };
}
