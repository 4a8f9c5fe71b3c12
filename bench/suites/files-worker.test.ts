/** examples/worker's files Worker called directly, on the env of env.ts. */
import { afterAll } from 'vitest';
import worker from '../../examples/worker/worker.js';
import { openEnv } from './env.js';
import { filesWorkerTests } from './tests/files-worker.js';

// At the top level, as a suite that imports its env: Vitest counts it in the file's import time.
const { env, close } = await openEnv();
afterAll(close);

// The R2-only paths never publish a site, so nothing is left to waitUntil; the secret and vars are unused.
const ctx = { waitUntil: () => {} };
const call = (path: string, init?: RequestInit) =>
  worker.fetch(
    new Request(`https://files.example.com${path}`, init),
    {
      FILES: env.FILES,
      ZONE_ID: 'unused',
      ORIGIN: 'files.example.com',
      CLOUDFLARE_API_TOKEN: 'unused',
    },
    ctx,
  );

filesWorkerTests(call, () => env.FILES);
