/** The `/client/v4` API double over every product: `CloudflareApi`. */
export { CloudflareApi, type CloudflareApiOptions } from './cloudflare-api.js';
