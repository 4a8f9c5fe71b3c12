/**
 * edge-doubles/dns: a stateful double of the DNS records HTTP API
 * (`{base}/client/v4/zones/{zone_id}/dns_records`), driven through a standard `fetch`.
 */
export { DnsApi, DEFAULT_BASE_PATH, type DnsFetch, type DnsSnapshot } from './api.js';
export { DnsApiError, dnsErrors, type DnsErrorItem } from './errors.js';
// The account a DnsApi serves, to share between views (`new DnsApi({ account })`).
export { Account, type AccountOptions } from '../account/index.js';
export type {
  DnsApiOptions,
  DnsCompat,
  DnsCredential,
  R2Permission,
  DnsLimits,
  DnsPlan,
  DnsRecord,
  DnsUser,
  DnsRecordSeed,
  DnsZone,
  DnsZoneInit,
} from './types.js';
export type { DnsRecordType } from './record-types.js';
// DNS resolution: the answer shape `api.answer(question)` and `api.resolve(name, type)` give.
export type { DnsAnswer, DnsQuestion, DnsRcode, DnsResourceRecord } from './answer.js';
export { dnsTypeCode } from './rr-types.js';
