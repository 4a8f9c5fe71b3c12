import { DnsApi } from '../../lib/dns.js';
import { dnsConformance, documentModeDifferences } from '../dns/index.js';
import { registerDnsDoubleTargets } from './dns-double-targets.js';

// The DNS double in Node.
registerDnsDoubleTargets('dns-double', { DnsApi, dnsConformance, documentModeDifferences });
