/**
 * The route tables a CloudflareApi answers, imported on its first request (lib/api/front-door.ts),
 * in order: DNS first (nearly every DNS request is one), the account's DNS settings and views, then
 * R2's, the GraphQL metrics wrangler asks, R2's event notifications, the queues', their consumers'
 * and their peeks', the account's; no path matches two.
 */
import { accountRoutes } from '../account/routes.js';
import type { RouteTable } from '../api/router.js';
import { dnsRoutes, type DnsService } from '../dns/routes.js';
import { accountDnsRoutes } from '../dns/account-settings.js';
import { notificationRoutes } from '../r2-api/notifications.js';
import { graphqlRoutes } from '../r2-api/metrics.js';
import { r2Routes } from '../r2-api/routes.js';
import { queueRoutes } from '../queue/routes.js';
import { consumerRoutes } from '../queue/consumers.js';
import { peekRoutes } from '../queue/peek.js';
import type { R2Service } from '../r2-api/service.js';

/** The service every CloudflareApi route sees: the DNS routes' and R2's. */
export type CloudflareService = DnsService & R2Service;

export const CLOUDFLARE_API_ROUTES: readonly RouteTable<CloudflareService>[] = [
  dnsRoutes,
  accountDnsRoutes,
  r2Routes,
  graphqlRoutes,
  notificationRoutes,
  queueRoutes,
  consumerRoutes,
  peekRoutes,
  accountRoutes,
];
