/**
 * R2's control plane in the `/client/v4` router (lib/api/router.ts): everything under
 * `/accounts/{account_id}/r2/buckets`, and `/accounts/{account_id}/r2/temp-access-credentials`
 * (temp-credentials.ts) and `/accounts/{account_id}/r2/metrics` (metrics.ts), which have no bucket
 * in their path. Each concern brings its own table in its own file (buckets, CORS, lifecycle, locks,
 * domains, Sippy, local uploads, jobs, objects); this file only finds the one that answers the path.
 *
 * A table is given the segments after `r2/buckets` (`[]` for the collection, `[name, ...]` for one
 * bucket and its settings) and returns the handlers by method; the router checks the account (and
 * the caller's scope) before any of them runs, and `params.id` is the bucket name where there is one.
 */
import { HEX32 } from '../api/router.js';
import type { Handler, Route, RouteTable } from '../api/router.js';
import { requireR2, type R2Service } from './service.js';
import { bucketRoutes } from './buckets.js';
import { corsRoutes } from './cors.js';
import { lifecycleRoutes } from './lifecycle.js';
import { lockRoutes } from './locks.js';
import { domainRoutes } from './domains.js';
import { MAX_OBJECT_UPLOAD, objectRoutes } from './objects.js';
import { tempCredentialsRoute } from './temp-credentials.js';
import { sippyRoutes } from './sippy.js';
import { jobRoutes } from './jobs.js';
import { localUploadsRoutes } from './local-uploads.js';
import { accountMetricsRoute } from './metrics.js';

export type R2Methods = Record<string, Handler<R2Service>>;
/** One concern's routes: handlers by method for the segments after `r2/buckets`, or undefined. */
export type R2Table = (rest: readonly string[]) => R2Methods | undefined;

/** The concerns' tables, asked in order; no path matches two. */
const TABLES: readonly R2Table[] = [
  bucketRoutes,
  corsRoutes,
  lifecycleRoutes,
  lockRoutes,
  domainRoutes,
  sippyRoutes,
  localUploadsRoutes,
  jobRoutes,
  objectRoutes,
];

export const r2Routes: RouteTable<R2Service> = (segments): Route<R2Service> | undefined => {
  if (segments[0] !== 'accounts' || segments[2] !== 'r2') return undefined;
  const accountId = segments[1]!;
  // Account ids are 32 hex, as zone ids: anything else is the route error (7003).
  if (!HEX32.test(accountId)) return undefined;
  const temporary = tempCredentialsRoute(segments, accountId);
  if (temporary) return { ...temporary, methods: permitted(temporary.methods) };
  if (segments.length === 4 && segments[3] === 'metrics') return { methods: permitted(accountMetricsRoute), accountId };
  if (segments[3] !== 'buckets') return undefined;
  const rest = segments.slice(4);
  for (const table of TABLES) {
    const found = table(rest);
    if (!found) continue;
    const methods = permitted(found);
    // An object upload takes more than the gateway's usual bound (objects.ts).
    if (table === objectRoutes && rest.length > 2)
      return { methods, accountId, id: rest[0]!, maxBody: MAX_OBJECT_UPLOAD };
    return rest.length > 0 ? { methods, accountId, id: rest[0]! } : { methods, accountId };
  }
  return undefined;
};

/** Every concern's handlers behind the token's R2 permission (service.ts `requireR2`), checked once here. */
export function permitted(methods: R2Methods): R2Methods {
  const guarded: R2Methods = {};
  for (const [method, handler] of Object.entries(methods)) {
    guarded[method] = (svc, req, params) => {
      requireR2(params.who, method);
      return handler(svc, req, params);
    };
  }
  return guarded;
}
