/**
 * edge-doubles/dns: a stateful double of the DNS records HTTP API
 * (`{base}/client/v4/zones/{zone_id}/dns_records`), driven through a standard `fetch`.
 */
export { DnsApi, type DnsSnapshot } from './dns-api/index.js';
export type { ApiFetch } from './api/front-door.js';
export { ApiError, type ApiErrorItem } from './api/errors.js';
export type { ApiCredential, R2Permission } from './api/types.js';
export type { ApiOptions, DnsApiOptions } from './dns-api/options.js';
// The account a DnsApi serves, to share between views (`new DnsApi({ account })`).
export { Account, type AccountOptions } from './account/index.js';
export type {
  DnsCompat,
  DnsLimits,
  DnsPlan,
  DnsRecord,
  DnsUser,
  DnsRecordSeed,
  DnsZone,
  DnsZoneInit,
} from './dns/types.js';
export type { DnsRecordType } from './dns/record-types.js';
// DNS resolution: the answer shape `api.answer(question)` and `api.resolve(name, type)` give, and the
// type number of a mnemonic, for encoding an answer's record of a type dns-packet has no codec for.
export type { DnsAnswer, DnsQuestion, DnsRcode, DnsResourceRecord } from './dns-answer.js';
export { dnsTypeCode } from './dns/rr-types.js';
