/**
 * A setup file that swaps `env.FILES` for a Bucket imported from `edge-doubles/bucket` alone: what
 * the swap costs when a suite imports only the double it uses, beside examples/worker-in-workerd's
 * swap-at-import.ts, which imports the package root (createEnv, useDoubles).
 */
import { env } from 'cloudflare:workers';
import { Bucket } from 'edge-doubles/bucket';

(env as Record<string, unknown>).FILES = new Bucket();
