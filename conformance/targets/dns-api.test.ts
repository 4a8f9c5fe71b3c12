import { it } from 'vitest';
import { dnsConformance } from '../dns/index.js';

// The real DNS records API, when credentials and a test zone are in the environment. The suite
// creates records only under a random subdomain of the zone and deletes them after each test.
const env = process.env;
const token = env.CLOUDFLARE_API_TOKEN;
const zoneId = env.CLOUDFLARE_ZONE_ID;
const zoneName = env.CLOUDFLARE_ZONE_NAME;

if (token && zoneId && zoneName) {
  dnsConformance({
    name: 'dns-api (api.cloudflare.com)',
    fetch: (input, init) => fetch(input, init),
    baseUrl: env.CLOUDFLARE_BASE_URL ?? 'https://api.cloudflare.com/client/v4',
    auth: { authorization: `Bearer ${token}` },
    zoneId,
    zoneName,
    tagsAllowed: env.CLOUDFLARE_ZONE_TAGS === 'true',
    ...(env.CLOUDFLARE_FOREIGN_ZONE_ID ? { foreignZoneId: env.CLOUDFLARE_FOREIGN_ZONE_ID } : {}),
    timeout: 60_000,
  });
} else {
  const missing = ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ZONE_ID', 'CLOUDFLARE_ZONE_NAME'].filter((k) => !env[k]);
  it.skip(`dns conformance on the real API: skipped, because ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set`, () => {});
}
