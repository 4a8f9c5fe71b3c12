/**
 * The DNS API's error catalogue: one home for every code, message and HTTP status the double
 * answers with. Texts are the real API's, byte for byte, where one was observed (dns-api.md §8);
 * entries marked `placeholder` had no observed modern response and are our choice (README.md, "Choices between conflicting sources").
 */

export interface DnsErrorItem {
  code: number;
  message: string;
  error_chain?: { code: number; message: string }[];
}

/** A failed request: the HTTP layer turns it into `{result:null, success:false, errors, messages:[]}`. */
export class DnsApiError extends Error {
  readonly status: number;
  readonly errors: DnsErrorItem[];
  /** Extra response headers (`retry-after` on 429). */
  readonly headers: Record<string, string>;
  constructor(status: number, errors: DnsErrorItem[], headers: Record<string, string> = {}) {
    super(errors.map((e) => `${e.code}: ${e.message}`).join('; '));
    this.name = 'DnsApiError';
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
}

const fail = (status: number, code: number, message: string) => new DnsApiError(status, [{ code, message }]);
const headerError = (code: number, message: string) =>
  new DnsApiError(400, [{ code: 6003, message: 'Invalid request headers', error_chain: [{ code, message }] }]);

export const dnsErrors = {
  // Routing
  noRoute: (path: string) => fail(404, 7003, `Could not route to ${path}, perhaps your object identifier is invalid?`),
  /**
   * A path outside the configured base path. 7000 "No route for that URI" is the API's older
   * no-route error; the rest of the text is ours, so a misconfigured base URL says what to fix.
   */
  outsideBasePath: (path: string, base: string) =>
    fail(404, 7000, `No route for that URI: ${path} is not under ${base || '/'}${base ? '/' : ''}, where this API answers (DnsApi basePath option).`),
  /** placeholder: the 405 body was never observed; 7001 is the code the v4 API uses for it elsewhere. */
  methodNotAllowed: (method: string) => fail(405, 7001, `Method ${method} not available for that URI.`),

  // Auth
  missingAuth: () => fail(400, 9106, 'Missing X-Auth-Key, X-Auth-Email or Authorization headers'),
  badAuthorizationHeader: () => headerError(6111, 'Invalid format for Authorization header'),
  badAuthKeyHeader: () => headerError(6103, 'Invalid format for X-Auth-Key header'),
  badAuthEmailHeader: () => headerError(6102, 'Invalid format for X-Auth-Email header'),
  unknownKey: () => fail(403, 9103, 'Unknown X-Auth-Key or X-Auth-Email'),
  /** An unknown token on `/user/tokens/verify` (status: REF shows 400/401/403; 401 is our choice). */
  invalidToken: () => fail(401, 1000, 'Invalid API Token'),
  /** An unknown token on zones, records and the user (observed 403, e.g. jeessy2/ddns-go#890, 2023). */
  invalidAccessToken: () => fail(403, 9109, 'Invalid access token'),
  /** A valid token without the permission a non-zone resource needs (observed for account/user routes). */
  unauthorizedResource: () => fail(403, 9109, 'Unauthorized to access requested resource'),
  notAuthorized: () => fail(403, 10000, 'Authentication error'),

  // Request body
  badContentType: () =>
    headerError(6105, 'Invalid Content-Type header, valid values are application/json,multipart/form-data'),
  invalidBody: () => fail(400, 9207, 'Request body is invalid.'),
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
  /** placeholder */
  badQuery: (param: string, why: string) => fail(400, 1004, `Invalid query parameter ${param}: ${why}`),

  // Records
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
  invalidName: () => fail(400, 9000, 'DNS name is invalid.'),
  badA: () => fail(400, 9005, 'Content for A record must be a valid IPv4 address.'),
  badAAAA: () => fail(400, 9006, 'Content for AAAA record must be a valid IPv6 address.'),
  /** 9007 is observed for CNAME; the same shape is our choice for other host-name types. */
  badContent: (type: string) => fail(400, 9007, `Content for ${type} record is invalid.`),
  cnameSelf: () => fail(400, 9039, 'CNAME content cannot reference itself.'),
  mxIp: () =>
    fail(
      400,
      9009,
      'Change the content of your MX record to be a hostname (and not an IP address). For more details, refer to <https://developers.cloudflare.com/dns/manage-dns-records/how-to/email-records/#add-mx-records>.',
    ),
  missingPriority: () => fail(400, 9100, 'priority is a required field.'),
  missingData: (field: string) => fail(400, 9101, `${field} is a required data field.`),
  /** placeholder, in the 9101 style. */
  badData: (field: string) => fail(400, 9101, `${field} is invalid.`),
  /** placeholder, in the 9101 style (retired 2024-05-31). */
  retiredData: (field: string) => fail(400, 9101, `${field} is no longer supported; use the record name.`),
  /** placeholder: the document names the rule, not the text. */
  txtQuotes: () => fail(400, 9102, 'TXT content has inconsistent quotation marks.'),
  /** Seen only in third-party reproductions. */
  contentTooLong: () => fail(400, 9015, 'Record content exceeds the allowed length of 4096 wire format bytes.'),
  badTtl: () => fail(400, 9021, 'TTL must be between 60 and 86400 seconds, or 1 for Automatic.'),
  badProxiedValue: () => fail(400, 9003, "Invalid 'proxied' value, must be a boolean"),
  notProxiableType: () => fail(400, 9004, 'This record type cannot be proxied.'),
  notProxiableContent: () =>
    fail(400, 9041, 'This DNS record cannot be proxied - click the cloud icon to turn it gray to proceed'),
  providerAddress: (ip: string) => fail(400, 9003, `Target ${ip} is not allowed for a proxied record.`),
  /** placeholder */
  commentInvalid: () => fail(400, 9301, 'DNS record comment may not contain line breaks.'),
  /** placeholder */
  commentTooLong: (max: number) => fail(400, 9302, `DNS record comment exceeds the maximum length of ${max}.`),
  tagQuota: (n: number, quota: number) => fail(400, 9300, `DNS record has ${n} tags, exceeding the quota of ${quota}.`),
  /** placeholder */
  tagInvalid: (tag: string) => fail(400, 9303, `Invalid tag "${tag}": tag names may contain only letters, digits, '-' and '_'.`),
  identical: () => fail(400, 81058, 'An identical record already exists.'),
  cnameConflict: () => fail(400, 81053, 'An A, AAAA, or CNAME record with that host already exists.'),
  cnameExists: () =>
    fail(
      400,
      81054,
      'A CNAME record with that host already exists. For more details, refer to <https://developers.cloudflare.com/dns/manage-dns-records/troubleshooting/records-with-same-name/>.',
    ),
  nsConflict: () => fail(400, 81056, 'NS records with that host already exist.'),
  quota: () => fail(400, 81045, 'Record quota exceeded.'),
  /** Seen only in third-party reproductions. */
  combinedTooLong: () =>
    fail(400, 81061, 'Combined content length of records with this name and type must not exceed 8192 characters.'),
  rateLimited: () => fail(429, 971, 'Please wait and consider throttling your request speed'),
  /** placeholder */
  batchTooLarge: (n: number, max: number) => fail(400, 81060, `Batch contains ${n} changes, exceeding the limit of ${max}.`),
  /** placeholder */
  settingInvalid: (why: string) => fail(400, 9104, why),
} as const;
