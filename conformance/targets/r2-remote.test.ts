import { env } from 'cloudflare:workers';
import type { R2BucketLike } from '../../lib/bucket/types.js';
import { bucketConformance } from '../bucket/index.js';
import { clearBucket } from './clear.js';

// Real R2 through a remote binding (production, no simulator): no declared differences apply.
// The bucket named by EDGE_DOUBLES_R2_BUCKET is emptied before every test: use a scratch bucket.
const bucket = (env as unknown as { BUCKET: R2BucketLike }).BUCKET;

bucketConformance({
  name: 'real R2',
  create: () => clearBucket(bucket),
});
