/** The ten put/get/list tests inside workerd, on the `FILES` the project's setup file left (or the pool's own). */
import { env } from 'cloudflare:workers';
import type { R2BucketLike } from 'edge-doubles/bucket';
import { bucketTests } from '../tests/bucket.js';

bucketTests(() => env.FILES as R2BucketLike);
