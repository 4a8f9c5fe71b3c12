/**
 * The API's per-user rate limit (1,200 requests per 5 minutes; over it, 429 with code 971), off by
 * default so heavy test suites are not throttled; `rateLimit` switches it on to test backoff.
 */
import { ApiError, apiErrors } from './errors.js';

export interface RateLimit {
  requests: number;
  windowMs: number;
}

export const API_RATE_LIMIT: RateLimit = { requests: 1200, windowMs: 5 * 60_000 };

export class RateLimiter {
  private readonly seen = new Map<string, number[]>();
  constructor(private readonly limit: RateLimit) {}

  /** Counts one request by `caller` at `now`; throws the 429 (with `retry-after`) when over. */
  take(caller: string, now: number): void {
    const since = now - this.limit.windowMs;
    let times = this.seen.get(caller);
    if (!times) this.seen.set(caller, (times = []));
    let drop = 0;
    while (drop < times.length && times[drop]! <= since) drop++;
    if (drop) times.splice(0, drop);
    if (times.length >= this.limit.requests) {
      const e = apiErrors.rateLimited();
      const wait = Math.max(1, Math.ceil((times[0]! + this.limit.windowMs - now) / 1000));
      throw new ApiError(e.status, e.errors, { 'retry-after': String(wait) });
    }
    times.push(now);
  }
}
