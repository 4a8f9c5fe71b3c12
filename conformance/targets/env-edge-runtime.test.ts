// @vitest-environment edge-runtime
import { DnsApi } from '../../lib/dns.js';
import { dnsConformance, documentModeDifferences } from '../dns/index.js';
import { doubleDifferences } from '../bucket/index.js';
import { registerDoubleTargets } from './double-targets.js';
import { registerDnsDoubleTargets } from './dns-double-targets.js';

// The doubles under Vitest's edge-runtime environment (its globals in place of Node's).
registerDoubleTargets('double in edge-runtime', doubleDifferences);
registerDnsDoubleTargets('dns-double in edge-runtime', { DnsApi, dnsConformance, documentModeDifferences });
