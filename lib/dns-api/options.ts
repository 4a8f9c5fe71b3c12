/**
 * What the API doubles take: `ApiOptions` (every double of `/client/v4`) and `DnsApiOptions`
 * (`DnsApi`; `CloudflareApi` adds its own). Here, above the account, because they name it; the front
 * door reads only its part (lib/api/types.ts `FrontDoorOptions`).
 */
import type { Account } from '../account/account.js';
import type { ApiCredential } from '../api/types.js';
import type { Clock } from '../clock.js';
import type { DnsCompat, DnsZoneInit } from '../dns/types.js';

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

/** A DnsApi's options: the front door's (account, credentials, base path, clock, log, rate limit) and the zones'. */
export interface DnsApiOptions extends ApiOptions {
  zones?: readonly DnsZoneInit[];
  /** Default `'today'`; each of the switches below can still be set on its own. */
  compat?: DnsCompat;
  /** Emit the fields the API retired (`zone_id`, `zone_name`, `locked`, the `meta` booleans). today: false, document: true. */
  retiredFields?: boolean;
  /** Add double quotes to TXT content saved without any. today: false, document: true. */
  quoteTxt?: boolean;
  /**
   * A/AAAA content inside the provider's own published address ranges: `'refuse'` (document: "cannot be
   * an address of the service's own network") or `'refuse-proxied'` (today: only proxied records fail).
   */
  providerAddresses?: 'refuse' | 'refuse-proxied';
  /** Label rules: `'document'` (letter first, letter or digit last, LDH + underscore) or `'today'` (LDH + underscore). */
  labelRules?: DnsCompat;
  /** Refuse a PUT/PATCH that changes `type` (end of life 2026-06-30). Default false. */
  refuseTypeChange?: boolean;
  /**
   * The edge addresses proxied A/AAAA/CNAME names answer with in DNS (`api.resolve`, `dns serve`),
   * IPv4 and IPv6 mixed; a family left out answers nothing (NODATA). Default two per family inside
   * Cloudflare's published ranges: `104.21.0.1`, `172.67.0.1`, `2606:4700:3030::6815:1`,
   * `2606:4700:3031::ac43:1`. `['127.0.0.1', '::1']` sends an ACME server's HTTP-01 check to loopback.
   */
  proxyAddresses?: readonly string[];
}
