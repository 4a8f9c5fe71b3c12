import { lookup } from 'node:dns/promises';
import { it } from 'vitest';
import { ask } from '../dns-resolve/ask.js';
import { dnsResolveConformance, type DnsResolveDifferenceId } from '../dns-resolve/index.js';

// Cloudflare's real authoritative DNS for a real zone, when credentials are in the environment (the
// same variables as conformance/targets/dns-api.test.ts). The suite writes records through the API
// under a random subdomain, asks the zone's own nameservers over UDP (TCP when truncated), and
// deletes the records after each test. Questions go out with dns-packet rather than node:dns's
// Resolver: the suite checks the response code, the AA flag, TTLs and the authority section, which
// the Resolver does not show.
const env = process.env;
const token = env.CLOUDFLARE_API_TOKEN;
const zoneId = env.CLOUDFLARE_ZONE_ID;
const zoneName = env.CLOUDFLARE_ZONE_NAME;

if (token && zoneId && zoneName) {
  const baseUrl = env.CLOUDFLARE_BASE_URL ?? 'https://api.cloudflare.com/client/v4';
  const auth = { authorization: `Bearer ${token}` };
  const zone = (await (await fetch(`${baseUrl}/zones/${zoneId}`, { headers: auth })).json()).result as {
    name_servers: string[];
    plan?: { legacy_id?: string };
  };
  const server = (await lookup(zone.name_servers[0]!, { family: 4 })).address;
  const differences: DnsResolveDifferenceId[] = env.CLOUDFLARE_ZONE_DNSSEC === 'true' ? ['dnssec-compact-denial'] : [];
  dnsResolveConformance({
    name: `dns resolution (${zone.name_servers[0]})`,
    fetch: (input, init) => fetch(input, init),
    baseUrl,
    auth,
    zoneId,
    zoneName,
    nameServers: zone.name_servers,
    resolve: (name, type) => ask(server, name, type),
    paidPlan: zone.plan?.legacy_id !== undefined && zone.plan.legacy_id !== 'free',
    propagationMs: 30_000,
    differences,
    timeout: 120_000,
  });
} else {
  const missing = ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ZONE_ID', 'CLOUDFLARE_ZONE_NAME'].filter((k) => !env[k]);
  it.skip(`dns resolution conformance on Cloudflare's nameservers: skipped, because ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set`, () => {});
}
