import { DnsApi } from '../../lib/dns.js';
import { dnsResolveConformance, type DnsResolveDifferenceId } from '../dns-resolve/index.js';

// The DNS double's resolution, in process (api.resolve): as built, and with the edge on loopback
// (proxyAddresses), which declares the one difference that option makes.
const TOKEN = 'conformance-token';

function target(name: string, proxyAddresses?: string[], differences: DnsResolveDifferenceId[] = []) {
  const api = new DnsApi({
    zones: [{ name: 'example.com', plan: 'pro' }],
    credentials: [{ token: TOKEN }],
    ...(proxyAddresses ? { proxyAddresses } : {}),
  });
  const zone = api.zones[0]!;
  dnsResolveConformance({
    name,
    fetch: api.fetch,
    baseUrl: 'https://api.cloudflare.com/client/v4',
    auth: { authorization: `Bearer ${TOKEN}` },
    zoneId: zone.id,
    zoneName: zone.name,
    nameServers: api.answer({ name: zone.name, type: 'NS' }).answers.map((rr) => rr.data as string),
    resolve: (n, type) => api.resolve(n, type),
    paidPlan: true,
    differences,
  });
}

target('dns-resolve-double (default edge addresses)');
target('dns-resolve-double (proxyAddresses on loopback)', ['127.0.0.1', '127.0.0.2', '::1', '::2'], ['edge-addresses']);
