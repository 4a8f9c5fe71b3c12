/**
 * The route tables a DnsApi answers, imported on its first request (lib/api/front-door.ts): its
 * zones' (first: nearly every request is one), the account's DNS settings and views, then the
 * account's own. No path matches two.
 */
import { accountRoutes } from '../account/routes.js';
import type { RouteTable } from '../api/router.js';
import { dnsRoutes, type DnsService } from '../dns/routes.js';
import { accountDnsRoutes } from '../dns/account-settings.js';

export const DNS_API_ROUTES: readonly RouteTable<DnsService>[] = [dnsRoutes, accountDnsRoutes, accountRoutes];
