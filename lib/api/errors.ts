/**
 * The v4 API's errors every product shares: the error class the router turns into the envelope, and
 * the routing, auth, body and query errors it answers before a product's handler runs. Texts are
 * the real API's, byte for byte, where one was observed (docs/sources/dns-api.md); entries marked
 * `placeholder` had no observed modern response and are our choice. Product errors extend this
 * catalogue (lib/dns/errors.ts, lib/r2-api/errors.ts). The names are the API's, not one product's:
 * `ApiError`.
 */

export interface ApiErrorItem {
  code: number;
  message: string;
  error_chain?: { code: number; message: string }[];
}

/** A failed request: the HTTP layer turns it into `{result:null, success:false, errors, messages:[]}`. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ApiErrorItem[];
  /** Extra response headers (`retry-after` on 429). */
  readonly headers: Record<string, string>;
  constructor(status: number, errors: ApiErrorItem[], headers: Record<string, string> = {}) {
    super(errors.map((e) => `${e.code}: ${e.message}`).join('; '));
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
}

export const fail = (status: number, code: number, message: string) => new ApiError(status, [{ code, message }]);
const headerError = (code: number, message: string) =>
  new ApiError(400, [{ code: 6003, message: 'Invalid request headers', error_chain: [{ code, message }] }]);

export const apiErrors = {
  // Routing
  /** 404 7003: Could not route to ${path}, perhaps your object identifier is invalid? */
  noRoute: (path: string) => fail(404, 7003, `Could not route to ${path}, perhaps your object identifier is invalid?`),
  /**
   * A path outside the configured base path. 7000 "No route for that URI" is the API's older
   * no-route error; the rest of the text is ours, so a misconfigured base URL says what to fix.
   */
  outsideBasePath: (path: string, base: string) =>
    fail(
      404,
      7000,
      `No route for that URI: ${path} is not under ${base || '/'}${base ? '/' : ''}, where this API answers (DnsApi basePath option).`,
    ),
  /** placeholder: the 405 body was never observed; 7001 is the code the v4 API uses for it elsewhere. */
  methodNotAllowed: (method: string) => fail(405, 7001, `Method ${method} not available for that URI.`),

  // Auth
  /** 400 9106: Missing X-Auth-Key, X-Auth-Email or Authorization headers */
  missingAuth: () => fail(400, 9106, 'Missing X-Auth-Key, X-Auth-Email or Authorization headers'),
  /** 6003 with 6111: Invalid format for Authorization header */
  badAuthorizationHeader: () => headerError(6111, 'Invalid format for Authorization header'),
  /** 6003 with 6103: Invalid format for X-Auth-Key header */
  badAuthKeyHeader: () => headerError(6103, 'Invalid format for X-Auth-Key header'),
  /** 6003 with 6102: Invalid format for X-Auth-Email header */
  badAuthEmailHeader: () => headerError(6102, 'Invalid format for X-Auth-Email header'),
  /** 403 9103: Unknown X-Auth-Key or X-Auth-Email */
  unknownKey: () => fail(403, 9103, 'Unknown X-Auth-Key or X-Auth-Email'),
  /**
   * An unknown token on `/user/tokens/verify` (status: quoted as 400, 401 and 403; 401 is our choice,
   * docs/sources/dns-api.md#authentication).
   */
  invalidToken: () => fail(401, 1000, 'Invalid API Token'),
  /** An unknown token on zones, records and the user (observed 403, e.g. jeessy2/ddns-go#890, 2023). */
  invalidAccessToken: () => fail(403, 9109, 'Invalid access token'),
  /** A valid token without the permission a non-zone resource needs (observed for account/user routes). */
  unauthorizedResource: () => fail(403, 9109, 'Unauthorized to access requested resource'),
  /** 403 10000: Authentication error */
  notAuthorized: () => fail(403, 10000, 'Authentication error'),

  // Request body
  /** 6003 with 6105: Invalid Content-Type header, valid values are application/json,multipart/form-data */
  badContentType: () =>
    headerError(6105, 'Invalid Content-Type header, valid values are application/json,multipart/form-data'),
  /** 400 9207: Request body is invalid. */
  invalidBody: () => fail(400, 9207, 'Request body is invalid.'),
  /** placeholder */
  badQuery: (param: string, why: string) => fail(400, 1004, `Invalid query parameter ${param}: ${why}`),

  /** 429 971: Please wait and consider throttling your request speed */
  rateLimited: () => fail(429, 971, 'Please wait and consider throttling your request speed'),
} as const;
