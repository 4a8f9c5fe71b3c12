/** R2's public hosts (r2.dev and custom domains) over an account's buckets. */
export { PublicBuckets } from './public-buckets.js';
