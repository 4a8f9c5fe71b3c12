/**
 * R2's control-plane errors in the v4 envelope (reference r2-bucket-config.md §3.1, the error-code
 * table; R2's documented codes, docs `r2/api/error-codes`). The envelope and the router's own errors
 * (routing, auth, body) are lib/api/errors.ts; these are R2's.
 */
import { fail } from '../api/errors.js';

export const r2ApiErrors = {
  /** 404 10006: the code wrangler's provisioning treats as "bucket not found". */
  noSuchBucket: () => fail(404, 10006, 'The specified bucket does not exist.'),
} as const;
