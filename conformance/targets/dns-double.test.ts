import { DnsApi } from '../../lib/dns/index.js';
import { dnsConformance, documentModeDifferences } from '../dns/index.js';

const TOKEN = 'conformance-token';

// Two zones; the token may use only the first, so the second is the "foreign" one.
function double(compat: 'document' | 'today') {
  const api = new DnsApi({
    compat,
    zones: [
      { name: 'example.com', plan: 'pro' },
      { name: 'other.example', plan: 'pro' },
    ],
    credentials: [{ token: TOKEN, zones: ['example.com'] }],
  });
  const [zone, foreign] = api.zones;
  return { api, zone: zone!, foreign: foreign! };
}

// The double as today's API behaves: the suite's assertions hold with no declared difference.
{
  const { api, zone, foreign } = double('today');
  dnsConformance({
    name: "dns-double (compat 'today')",
    fetch: api.fetch,
    baseUrl: 'https://api.cloudflare.com/client/v4',
    auth: { authorization: `Bearer ${TOKEN}` },
    zoneId: zone.id,
    zoneName: zone.name,
    foreignZoneId: foreign.id,
    tagsAllowed: true,
  });
}

// The default: the interface document wins where it and today's API differ; those tests are
// expected failures, named by their difference.
{
  const { api, zone, foreign } = double('document');
  dnsConformance({
    name: "dns-double (default, compat 'document')",
    fetch: api.fetch,
    baseUrl: 'http://dns.test/client/v4',
    auth: { authorization: `Bearer ${TOKEN}` },
    zoneId: zone.id,
    zoneName: zone.name,
    foreignZoneId: foreign.id,
    tagsAllowed: true,
    differences: documentModeDifferences,
  });
}
