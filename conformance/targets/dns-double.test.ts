import { DnsApi } from '../../lib/dns/index.js';
import { dnsConformance, documentModeDifferences } from '../dns/index.js';
import { registerDnsDoubleTargets } from './dns-double-targets.js';

// The DNS double in Node.
registerDnsDoubleTargets('dns-double', { DnsApi, dnsConformance, documentModeDifferences });
