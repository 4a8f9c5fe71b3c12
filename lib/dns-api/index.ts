/** The DNS records API's double, `DnsApi` (public through edge-doubles/dns). */
export { DnsApi, type DnsSnapshot } from './dns-api.js';
