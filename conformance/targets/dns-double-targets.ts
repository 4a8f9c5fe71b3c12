import type { DnsApi } from '../../lib/dns.js';
import type { DnsDifferenceId, dnsConformance, documentModeDifferences } from '../dns/index.js';

/** The double and the suite, from the sources or from the built package (the browser run). */
export interface DnsDoublePackage {
  DnsApi: typeof DnsApi;
  dnsConformance: typeof dnsConformance;
  documentModeDifferences: typeof documentModeDifferences;
}

const TOKEN = 'conformance-token';

/**
 * The DNS double as conformance targets, wherever it runs: as built with no options (today's API,
 * no declared difference) and in the interface document's mode (the document wins where it and
 * today's API differ; those tests are expected failures, named by their difference).
 */
export function registerDnsDoubleTargets(
  name: string,
  { DnsApi: Api, dnsConformance, documentModeDifferences }: DnsDoublePackage,
  /** What the runtime adds (its own globals in place of the platform's). */
  runtimeDifferences: readonly DnsDifferenceId[] = [],
): void {
  // What the double shows in every mode (conformance/dns/differences.ts).
  const differences: readonly DnsDifferenceId[] = ['loadable-export', ...runtimeDifferences];
  // Two zones; the token may use only the first, so the second is the "foreign" one.
  const double = (compat?: 'document') => {
    const api = new Api({
      ...(compat ? { compat } : {}),
      zones: [
        { name: 'example.com', plan: 'pro' },
        { name: 'other.example', plan: 'pro' },
      ],
      credentials: [{ token: TOKEN, zones: ['example.com'] }],
    });
    const [zone, foreign] = api.zones;
    return { api, zone: zone!, foreign: foreign! };
  };

  {
    const { api, zone, foreign } = double();
    dnsConformance({
      name: `${name} (default, compat 'today')`,
      fetch: api.fetch,
      baseUrl: 'https://api.cloudflare.com/client/v4',
      auth: { authorization: `Bearer ${TOKEN}` },
      zoneId: zone.id,
      zoneName: zone.name,
      foreignZoneId: foreign.id,
      tagsAllowed: true,
      differences,
    });
  }
  {
    const { api, zone, foreign } = double('document');
    dnsConformance({
      name: `${name} (compat 'document')`,
      fetch: api.fetch,
      baseUrl: 'http://dns.test/client/v4',
      auth: { authorization: `Bearer ${TOKEN}` },
      zoneId: zone.id,
      zoneName: zone.name,
      foreignZoneId: foreign.id,
      tagsAllowed: true,
      differences: [...documentModeDifferences, ...differences],
    });
  }
}
