import { env } from 'cloudflare:workers';
import type { R2BucketLike } from '../../lib/bucket/types.js';
import { bucketConformance, simulatorDifferences } from '../bucket/index.js';
import { clearBucket } from './clear.js';

// The real R2 binding (workerd's own client code) over Miniflare's local R2 simulator.
const bucket = (env as unknown as { BUCKET: R2BucketLike }).BUCKET;

bucketConformance({
  name: 'workerd',
  create: () => clearBucket(bucket),
  differences: simulatorDifferences,
});
