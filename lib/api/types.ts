/**
 * The `/client/v4` front door's public types, one product's no more than another's: who may call
 * (`ApiCredential`, `R2Permission`) and what every API double takes (`ApiOptions`; the DNS double's
 * `DnsApiOptions` in lib/dns/types.ts extends it).
 */
import type { Account } from '../account/account.js';
import type { Clock } from '../clock.js';

/**
 * A credential the double accepts. `zones` (ids or names) limits it to those zones, `accounts` (ids
 * or names) to those accounts' zones and the accounts themselves; absent means no limit of that
 * kind. A token's `user` is the e-mail of the user it belongs to and gives it the User Details Read
 * permission, so `GET /user` answers that user; without it `GET /user` is 403 9109. A token's `r2`
 * is its R2 permission (below).
 */
export type ApiCredential =
  | { email: string; key: string; zones?: readonly string[]; accounts?: readonly string[] }
  | { token: string; zones?: readonly string[]; accounts?: readonly string[]; user?: string; r2?: R2Permission };

/**
 * What a token may do with R2's control plane (the `/accounts/{id}/r2/...` routes): `'write'` is
 * "Workers R2 Storage Write" (every route), `'read'` "Workers R2 Storage Read" (GETs only), `'none'` a
 * token without either. Absent: `'write'`, so a credential written before R2 keeps its reach. A
 * global key (email + key) owns its account: always `'write'`.
 */
export type R2Permission = 'none' | 'read' | 'write';

/** What every double of the `/client/v4` API takes (DnsApi and CloudflareApi add their own). */
export interface ApiOptions {
  /**
   * The account this API serves: its zones, buckets and credentials, shared with every other view
   * of it (another DnsApi, `createEnv(config, { account })`). Default: a private account of its own.
   * `zones` given here are added to it; credentials belong to the account (giving both throws).
   */
  account?: Account;
  /**
   * Accepted credentials. When absent, any well-formed credential is accepted for every zone
   * (requests still need one: a request with none gets the API's 9106).
   */
  credentials?: readonly ApiCredential[];
  /**
   * The path the API answers under, default `/client/v4` (the API's). `''` answers at the bare
   * origin, as the SDK's generated tests configure `baseURL`. Requests outside it get a 404 in the
   * API's envelope naming this path.
   */
  basePath?: string;
  /**
   * "Now": a function returning epoch ms, or an object with `now()` (a `ManualClock`), read at each
   * operation; injected delays wait on it. Default `Date.now()` and the global timers.
   */
  clock?: Clock;
  /** Record every request in `api.log` from the start. Default false (`api.log.start()` later). */
  log?: boolean;
  /**
   * Throttle each caller as the API does (`true` = 1,200 requests per 5 minutes), answering 429
   * code 971 with `retry-after`. Default off, so test suites are never throttled.
   */
  rateLimit?: boolean | { requests: number; windowMs: number };
}
