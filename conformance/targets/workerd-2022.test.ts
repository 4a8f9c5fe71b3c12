import { env } from 'cloudflare:workers';
import type { R2BucketLike } from '../../lib/bucket/types.js';
import { bucketConformance, simulatorDifferences } from '../bucket/index.js';
import { clearBucket } from './clear.js';

// workerd at compatibility date 2022-01-01 (set in vitest.config.ts): `include` is ignored, a put value
// of the wrong type counts as null, and objects carry no toString tag.
const bucket = (env as unknown as { BUCKET: R2BucketLike }).BUCKET;

bucketConformance({
  name: 'workerd (compatibility date 2022-01-01)',
  create: () => clearBucket(bucket),
  differences: simulatorDifferences,
  compatibilityDate: '2022-01-01',
  groups: ['list include', 'compatibility dates'],
});
