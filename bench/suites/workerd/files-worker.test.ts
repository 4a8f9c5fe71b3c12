/** examples/worker's files Worker inside workerd, called through `exports.default.fetch()` (SELF). */
import { env, exports } from 'cloudflare:workers';
import type { R2BucketLike } from 'edge-doubles/bucket';
import { filesWorkerTests } from '../tests/files-worker.js';

filesWorkerTests(
  (path, init) => exports.default.fetch(`https://files.example${path}`, init),
  () => env.FILES as R2BucketLike,
);
