// @vitest-environment happy-dom
import { DnsApi } from '../../lib/dns.js';
import { dnsConformance, documentModeDifferences } from '../dns/index.js';
import { happyDomDifferences } from '../bucket/index.js';
import { registerDoubleTargets } from './double-targets.js';
import { registerDnsDoubleTargets } from './dns-double-targets.js';

// The doubles under Vitest's happy-dom environment (its globals in place of Node's).
registerDoubleTargets('double in happy-dom', happyDomDifferences);
registerDnsDoubleTargets('dns-double in happy-dom', { DnsApi, dnsConformance, documentModeDifferences });
