/** The ten put/get/list tests on the env of env.ts (the doubles, or Miniflare's bindings). */
import { afterAll } from 'vitest';
import { openEnv } from './env.js';
import { bucketTests } from './tests/bucket.js';

// At the top level, as a suite that imports its env: Vitest counts it in the file's import time.
const { env, close } = await openEnv();
afterAll(close);

bucketTests(() => env.FILES);
