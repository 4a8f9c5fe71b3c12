/**
 * The `/client/v4` front door's public names, one product's no more than another's: the API's
 * error, the credentials it accepts, the options every double of it takes, its fault rules and its
 * request log. `DnsApi` (edge-doubles/dns) and `CloudflareApi` are the doubles built on it.
 */
export { ApiError, type ApiErrorItem } from './errors.js';
export type { ApiFetch } from './front-door.js';
export type { ApiCredential, R2Permission } from './types.js';
