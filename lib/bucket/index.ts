export { Bucket, type BucketOptions } from './bucket.js';
export type * from './types.js';
