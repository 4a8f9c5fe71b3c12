export {
  Bucket,
  type BucketOptions,
  type BucketSeed,
  type BucketSeedValue,
  type BucketSnapshot,
} from './bucket/bucket.js';
export { BucketStorage, MemoryStorage } from './bucket/storage.js';
export { IndexedDbStorage, type IndexedDbStorageOptions } from './bucket/indexeddb-storage.js';
export type * from './bucket/types.js';
export type { LifecycleTiming } from './bucket/lifecycle.js';
