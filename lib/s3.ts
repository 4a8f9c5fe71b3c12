/**
 * edge-doubles/s3: R2's S3-compatible API over the bucket double's own buckets, driven through a
 * standard `fetch` (in process) or a real HTTP server (`startS3Server` in edge-doubles/node).
 */
export { S3Api, type S3ApiOptions, type S3Credential, type S3Fetch, type S3Snapshot } from './s3/api.js';
export type { CorsRule } from './s3/cors.js';
