/**
 * The DNS API's error catalogue: the v4 API's shared errors (routing, auth, bodies, rate limit;
 * lib/api/errors.ts) spread in, then the DNS routes' own, so `dnsErrors` is the one list of
 * every code, message and HTTP status the double answers with. Texts are the real API's, byte for
 * byte, where one was observed (docs/sources/dns-api.md); entries marked `placeholder` had no
 * observed modern response and are our choice (docs/conformance.md, the DNS API's "Choices between
 * conflicting sources").
 */
import { apiErrors, fail } from '../api/errors.js';

/** The DNS API's error catalogue: every code, message and HTTP status the double answers with, each a function that builds the error. */
export const dnsErrors = {
  ...apiErrors,

  // Zone files and record lists
  /** code placeholder (not recorded); the text is observed. */
  notMultipart: () => fail(400, 9207, 'Failed to parse form data. Make sure the Content-Type is multipart/form-data.'),
  /** placeholder */
  missingImportFile: () => fail(400, 9207, 'No file was provided for import.'),
  /** code placeholder; text observed. */
  includeNotAllowed: () => fail(400, 1004, '$INCLUDE directive not allowed'),
  /** placeholder */
  importParse: (line: number, why: string) => fail(400, 1004, `Failed to parse zone file at line ${line}: ${why}`),
  /** Observed (2020, mumi/CloudFlare-Dynamic-DNS#2). */
  badOrder: () => fail(400, 9201, 'Order must be one of type, name, content, ttl or proxied.'),

  // Records
  /** 404 81044: Record does not exist. */
  recordNotFound: () => fail(404, 81044, 'Record does not exist.'),
  /** placeholder: unknown type; the legacy table's text. */
  invalidType: () => fail(400, 1004, 'Invalid DNS record type'),
  /** code placeholder (it was wrapped in 1004); text observed. */
  spfDeprecated: () =>
    fail(
      400,
      1004,
      'The SPF record type was deprecated in RFC 7208 and is no longer supported. Use a TXT record instead',
    ),
  /** placeholder: the post-2026-06-30 text for changing a record's type is unknown. */
  typeChange: () => fail(400, 1004, 'Changing the type of a DNS record is no longer supported.'),
  /** 400 9000: DNS name is invalid. */
  invalidName: () => fail(400, 9000, 'DNS name is invalid.'),
  /** 400 9005: Content for A record must be a valid IPv4 address. */
  badA: () => fail(400, 9005, 'Content for A record must be a valid IPv4 address.'),
  /** 400 9006: Content for AAAA record must be a valid IPv6 address. */
  badAAAA: () => fail(400, 9006, 'Content for AAAA record must be a valid IPv6 address.'),
  /** 9007 is observed for CNAME; the same shape is our choice for other host-name types. */
  badContent: (type: string) => fail(400, 9007, `Content for ${type} record is invalid.`),
  /** 400 9039: CNAME content cannot reference itself. */
  cnameSelf: () => fail(400, 9039, 'CNAME content cannot reference itself.'),
  /** 400 9009: an MX record whose content is an IP address (the API's text, with its link). */
  mxIp: () =>
    fail(
      400,
      9009,
      'Change the content of your MX record to be a hostname (and not an IP address). For more details, refer to <https://developers.cloudflare.com/dns/manage-dns-records/how-to/email-records/#add-mx-records>.',
    ),
  /** 400 9100: priority is a required field. */
  missingPriority: () => fail(400, 9100, 'priority is a required field.'),
  /** 400 9101: ${field} is a required data field. */
  missingData: (field: string) => fail(400, 9101, `${field} is a required data field.`),
  /** placeholder, in the 9101 style. */
  badData: (field: string) => fail(400, 9101, `${field} is invalid.`),
  /**
   * SRV's `data.service`, `data.proto` and `data.name`, retired 2024-05-31: the text production gave
   * (terraform-provider-cloudflare#3502, 2024-07); the code is a placeholder (9101, the data fields' code).
   */
  retiredSrvData: () => fail(400, 9101, "SRV data fields 'service', 'proto' and 'name' are no longer supported"),
  /**
   * A DS record at a name below the apex that holds no NS record: production refuses it
   * (octodns-cloudflare#102 and #103, 2024-07: "the Cloudflare API will not allow the creation of a
   * DS record before an NS record is created"). placeholder: the code and text were not quoted.
   */
  dsWithoutNs: () => fail(400, 1004, 'DS records can only be created at a name that holds NS records.'),
  /**
   * placeholder: the interface document names the rule, not the text
   * (docs/sources/dns-api.md#the-interface-document).
   */
  txtQuotes: () => fail(400, 9102, 'TXT content has inconsistent quotation marks.'),
  /** Seen only in third-party reproductions. */
  contentTooLong: () => fail(400, 9015, 'Record content exceeds the allowed length of 4096 wire format bytes.'),
  /** 400 9021: TTL must be between 60 and 86400 seconds, or 1 for Automatic. */
  badTtl: () => fail(400, 9021, 'TTL must be between 60 and 86400 seconds, or 1 for Automatic.'),
  /** 400 9003: Invalid 'proxied' value, must be a boolean */
  badProxiedValue: () => fail(400, 9003, "Invalid 'proxied' value, must be a boolean"),
  /** 400 9004: This record type cannot be proxied. */
  notProxiableType: () => fail(400, 9004, 'This record type cannot be proxied.'),
  /** 400 9041: This DNS record cannot be proxied - click the cloud icon to turn it gray to proceed */
  notProxiableContent: () =>
    fail(400, 9041, 'This DNS record cannot be proxied - click the cloud icon to turn it gray to proceed'),
  /** 400 9003: Target ${ip} is not allowed for a proxied record. */
  providerAddress: (ip: string) => fail(400, 9003, `Target ${ip} is not allowed for a proxied record.`),
  /** placeholder */
  commentInvalid: () => fail(400, 9301, 'DNS record comment may not contain line breaks.'),
  /** placeholder */
  commentTooLong: (max: number) => fail(400, 9302, `DNS record comment exceeds the maximum length of ${max}.`),
  /** 400 9300: DNS record has ${n} tags, exceeding the quota of ${quota}. */
  tagQuota: (n: number, quota: number) => fail(400, 9300, `DNS record has ${n} tags, exceeding the quota of ${quota}.`),
  /** placeholder */
  tagInvalid: (tag: string) =>
    fail(400, 9303, `Invalid tag "${tag}": tag names may contain only letters, digits, '-' and '_'.`),
  /** 400 81058: An identical record already exists. */
  identical: () => fail(400, 81058, 'An identical record already exists.'),
  /** 400 81053: An A, AAAA, or CNAME record with that host already exists. */
  cnameConflict: () => fail(400, 81053, 'An A, AAAA, or CNAME record with that host already exists.'),
  /** 400 81054: A CNAME record with that host already exists (the API's text, with its link). */
  cnameExists: () =>
    fail(
      400,
      81054,
      'A CNAME record with that host already exists. For more details, refer to <https://developers.cloudflare.com/dns/manage-dns-records/troubleshooting/records-with-same-name/>.',
    ),
  /** 400 81056: NS records with that host already exist. */
  nsConflict: () => fail(400, 81056, 'NS records with that host already exist.'),
  /** 400 81045: Record quota exceeded. */
  quota: () => fail(400, 81045, 'Record quota exceeded.'),
  /** Seen only in third-party reproductions. */
  combinedTooLong: () =>
    fail(400, 81061, 'Combined content length of records with this name and type must not exceed 8192 characters.'),
  /** placeholder */
  batchTooLarge: (n: number, max: number) =>
    fail(400, 81060, `Batch contains ${n} changes, exceeding the limit of ${max}.`),
  /** placeholder */
  settingInvalid: (why: string) => fail(400, 9104, why),
} as const;
