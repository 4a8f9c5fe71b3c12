/**
 * R2's control-plane errors in the v4 envelope (reference r2-bucket-config.md §3.1, the error-code
 * table; R2's documented codes, docs `r2/api/error-codes`). The envelope and the router's own errors
 * (routing, auth, body) are lib/api/errors.ts; these are R2's.
 */
import { DnsApiError, fail } from '../api/errors.js';

export const r2ApiErrors = {
  /** 404 10006: the code wrangler's provisioning treats as "bucket not found". */
  noSuchBucket: () => fail(404, 10006, 'The specified bucket does not exist.'),

  // ---- lifecycle and locks (lib/r2-api/lifecycle.ts, locks.ts) ----
  /**
   * 400 10040: a body R2 cannot take (reference §3.1: an invalid storage class, an S3-shaped CORS
   * file). `why` (ours) says which rule was refused, as a second error, the API's exact text per
   * refusal not being established.
   */
  malformedJson: (why?: string) =>
    new DnsApiError(400, [{ code: 10040, message: 'The JSON you provided was not well formed.' }, ...(why ? [{ code: 10040, message: why }] : [])]),
} as const;
