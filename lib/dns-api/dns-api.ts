/**
 * `DnsApi`: the `/client/v4` double of the DNS records API, an assembly of the front door
 * (lib/api/front-door.ts) over an account (its own unless one is given): the account's zones
 * (zones-api.ts), the DNS routes (lib/dns/routes.ts) and the account's (lib/account/routes.ts),
 * gathered in routes.ts and imported on the first request.
 * `CloudflareApi` (lib/cloudflare-api/) is the same front door with every product's tables.
 */
import type { DnsService } from '../dns/routes.js';
import type { DnsApiOptions } from './options.js';
import { ZonesApi } from './zones-api.js';

export type { DnsSnapshot } from './zones-api.js';

const routes = () => import('./routes.js').then((m) => m.DNS_API_ROUTES);

/**
 * The DNS records API double: zones and their records under `/client/v4`, the account's own routes,
 * and the zones' answers as DNS gives them (`resolve`, `answer`), through a standard `fetch`.
 */
export class DnsApi extends ZonesApi<DnsService> {
  constructor(options: DnsApiOptions = {}) {
    super(options, { service: (dns) => dns, routes });
  }
}
