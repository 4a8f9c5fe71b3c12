// @vitest-environment jsdom
import { DnsApi } from '../../lib/dns.js';
import { dnsConformance, documentModeDifferences } from '../dns/index.js';
import { jsdomDifferences } from '../bucket/index.js';
import { registerDoubleTargets } from './double-targets.js';
import { registerDnsDoubleTargets } from './dns-double-targets.js';

// The doubles under Vitest's jsdom environment (its globals in place of Node's).
registerDoubleTargets('double in jsdom', jsdomDifferences);
registerDnsDoubleTargets('dns-double in jsdom', { DnsApi, dnsConformance, documentModeDifferences }, [
  'jsdom-form-data',
]);
