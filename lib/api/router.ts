/**
 * One `/client/v4` router for every product: the base path, the route tables, the method check,
 * credentials and their scopes, the rate limit, and the envelope every failure becomes. A product
 * brings its routes as a table in its own home (lib/dns/routes.ts, lib/account/routes.ts,
 * lib/r2-api/routes.ts, lib/queue/routes.ts); nothing
 * here throws past `respond`.
 */
import type { BackendHost } from '../support/backend.js';
import { BodyReadError } from '../fetch.js';
import { authenticate, canSee, canSeeAccount, type CredentialTable, type Principal } from './auth.js';
import { BodyTooLarge, MAX_REQUEST_BODY, payloadTooLarge } from './body.js';
import { apiErrors, ApiError } from './errors.js';
import { errorResponse, json } from './envelope.js';
import type { RateLimiter } from './rate-limit.js';

/** What the router needs of a request; a `Request` has it, and so does the fast path of `fetch`. */
export interface Incoming {
  method: string;
  url: URL;
  headers: { get(name: string): string | null };
  /** The body's size in bytes where known before reading it (`content-length`, a string body's UTF-8 length). */
  length?: number;
  /**
   * The body, read at most once and within MAX_REQUEST_BODY (body.ts): past it these throw
   * `BodyTooLarge`; a failing stream throws `BodyReadError`, which rejects the fetch.
   */
  text(): Promise<string>;
  formData(): Promise<FormData>;
  /**
   * The body's bytes, read at most once within `limit` (default: the route's bound, `Route.maxBody`,
   * else MAX_REQUEST_BODY): R2's object upload reads with its own.
   */
  bytes(limit?: number): Promise<Uint8Array>;
  /**
   * Sets the body's limit before it is read (the route's own, `Route.maxBody`). Absent where the
   * whole body is already in hand: then `length` is exact and the router's check is the limit.
   */
  limit?(bytes: number): void;
}

/**
 * What the front door and the products' routes read of the account served: its identity, its
 * product backends (lib/support/backend.ts) and the credentials it accepts. The account's state
 * (lib/account/state.ts) is one; an assembly that needs more of it says so in its service's type
 * (`ApiService<AccountState>`), so the front door names no account.
 */
export interface ApiAccount extends BackendHost {
  readonly credentials: CredentialTable;
}

/** What every route may ask of the double's state. Products extend it with their own switches. */
export interface ApiService<A extends ApiAccount = ApiAccount> {
  /** Where the API answers: `/client/v4` (the API's), or `''` for a bare origin. No trailing slash. */
  basePath: string;
  /** The account served: its backends and credentials. */
  account: A;
  now(): number;
  limiter?: RateLimiter;
  /**
   * The account's zone with this id, for a route that names one (`Route.zoneId`): the assembly
   * gives it (the DNS backend's zones), since the front door knows no product. Absent: no zone.
   */
  zone?(id: string): ApiZone | undefined;
}

/** Identifiers in paths (accounts, zones, records, queues): 32 lowercase hex, as the API's. */
export const HEX32 = /^[0-9a-f]{32}$/;

/** A zone as the router checks it: found by id, its credential scope by id or name (auth.ts). */
interface ApiZone {
  readonly id: string;
  readonly name: string;
}

/** The zone a service's `zone` finds (the DNS model's zone for the DNS routes): what its handlers get. */
type ZoneOf<S extends ApiService> = NonNullable<ReturnType<NonNullable<S['zone']>>>;

/** The account a service serves, as its handlers get it. */
type AccountOf<S extends ApiService> = S['account'];

/** What the router resolved for a handler: the caller, and the zone and account the path names. */
export interface RouteParams<Z extends ApiZone = ApiZone, A extends ApiAccount = ApiAccount> {
  who: Principal;
  zone?: Z;
  account?: A;
  /** The path's last identifier (a record id), as matched. */
  id?: string;
}

export type Handler<S extends ApiService> = (
  svc: S,
  req: Incoming,
  params: RouteParams<ZoneOf<S>, AccountOf<S>>,
) => Promise<Response> | Response;

/** A matched route: its handlers by method, and the identifiers the router checks before them. */
export interface Route<S extends ApiService> {
  methods: Record<string, Handler<S>>;
  /** Unknown tokens get `/user/tokens/verify`'s own error there (auth.ts). */
  endpoint?: 'verify';
  zoneId?: string;
  accountId?: string;
  id?: string;
  /**
   * The largest body the route can accept, in bytes (from the zone or account the path names, when a
   * function). A number larger than MAX_REQUEST_BODY lets the route take more than the gateway's
   * bound (R2's object upload: checked from the declared length before anything else). Otherwise,
   * once the caller and the path's zone are known, a body declared larger is refused before a byte is
   * read, and a streamed one as soon as it passes it, with the same 413. Absent: MAX_REQUEST_BODY.
   */
  maxBody?: number | ((params: RouteParams<ZoneOf<S>, AccountOf<S>>) => number);
}

/** A product's routes: the route for the path's (decoded) segments under the base path, or undefined. */
export type RouteTable<S extends ApiService> = (segments: string[]) => Route<S> | undefined;

/** The route a path names under the base path, or undefined (outside it, or no table has it). */
function routeOf<S extends ApiService>(svc: S, tables: readonly RouteTable<S>[], path: string): Route<S> | undefined {
  const prefix = `${svc.basePath}/`;
  if (!path.startsWith(prefix)) return undefined;
  const segments = path.slice(prefix.length).split('/');
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  const decoded = segments.map(decodeSegment);
  for (const table of tables) {
    const route = table(decoded);
    if (route) return route;
  }
  return undefined;
}

/** What the gateway lets through: MAX_REQUEST_BODY, or more for a route that takes more. */
const gatewayBound = (route: { maxBody?: unknown } | undefined): number =>
  typeof route?.maxBody === 'number' && route.maxBody > MAX_REQUEST_BODY ? route.maxBody : MAX_REQUEST_BODY;

export async function respond<S extends ApiService>(
  svc: S,
  tables: readonly RouteTable<S>[],
  req: Incoming,
): Promise<Response> {
  const path = req.url.pathname;
  const route = routeOf(svc, tables, path);
  // The gateway refuses a declared oversized body before credentials (body.ts); a route may take more.
  if (req.length !== undefined && req.length > gatewayBound(route)) return payloadTooLarge();
  try {
    if (!path.startsWith(`${svc.basePath}/`)) throw apiErrors.outsideBasePath(path, svc.basePath);
    if (!route) throw apiErrors.noRoute(path);
    const method = req.method.toUpperCase();
    const handler = route.methods[method];
    if (!handler) throw apiErrors.methodNotAllowed(method);
    const who = authenticate(svc.account.credentials, req.headers, route.endpoint ?? 'resource');
    svc.limiter?.take(who.caller, svc.now());
    const params: RouteParams<ZoneOf<S>, AccountOf<S>> = { who };
    if (route.accountId !== undefined) params.account = visibleAccount(svc, route.accountId, who);
    if (route.zoneId !== undefined) params.zone = visibleZone(svc, route.zoneId, who, path);
    if (route.id !== undefined) params.id = route.id;
    if (route.maxBody !== undefined) {
      // The route's own bound, now that the zone it may depend on is known: refused before the body is read.
      const bound = typeof route.maxBody === 'function' ? route.maxBody(params) : route.maxBody;
      if (req.length !== undefined && req.length > bound) return payloadTooLarge();
      req.limit?.(bound);
    }
    return await handler(svc, req, params);
  } catch (e) {
    if (e instanceof ApiError) return errorResponse(e);
    if (e instanceof BodyTooLarge) return payloadTooLarge();
    // A body that cannot be read has no answer: the fetch rejects, as Node's does.
    if (e instanceof BodyReadError) throw e;
    // A bug of ours still answers in the envelope, never as an exception or an HTML page.
    return json(500, {
      result: null,
      success: false,
      errors: [{ code: 10001, message: `Internal error: ${(e as Error)?.message ?? e}` }],
      messages: [],
    });
  }
}

const decodeSegment = (s: string) => {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * A zone the caller may not see answers as the API does for that credential: tokens get 10000
 * "Authentication error"; a global key (which owns every zone of its account) gets the route error.
 */
function visibleZone<S extends ApiService>(svc: S, id: string, who: Principal, path: string): ZoneOf<S> {
  const zone = svc.zone?.(id) as ZoneOf<S> | undefined;
  if (zone && canSee(who, zone, svc.account)) return zone;
  throw who.kind === 'token' ? apiErrors.notAuthorized() : apiErrors.noRoute(path);
}

/**
 * An account the caller may not reach (another account's id, or one outside the token's scope):
 * 403 9109 "Unauthorized to access requested resource", the API's answer to a credential without
 * access to an account resource (errors.ts, `unauthorizedResource`).
 */
function visibleAccount<S extends ApiService>(svc: S, id: string, who: Principal): AccountOf<S> {
  if (id === svc.account.id && canSeeAccount(who, svc.account)) return svc.account;
  throw apiErrors.unauthorizedResource();
}

/** A positive integer query parameter (`page`, `per_page`), or the fallback when absent or empty. */
export const positiveParam = (raw: string | null, fallback: number, key: string) => {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw apiErrors.badQuery(key, 'must be a positive integer');
  return Number(raw);
};
