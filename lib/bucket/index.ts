export { Bucket, type BucketOptions, type BucketSeed, type BucketSeedValue, type BucketSnapshot } from './bucket.js';
export { BucketStorage, MemoryStorage } from './storage.js';
export { IndexedDbStorage, type IndexedDbStorageOptions } from './indexeddb-storage.js';
export type * from './types.js';
export type { LifecycleTiming } from './lifecycle.js';
