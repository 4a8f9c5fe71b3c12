/**
 * R2's control-plane errors, as the API answers them (docs/sources/r2-api.md#buckets, its table of
 * codes; R2's documented codes, docs `r2/api/error-codes`). The envelope and the router's own errors
 * (routing, auth, body) are lib/api/errors.ts; these are R2's. Entries are grouped by concern (one
 * block per route file) so that each concern's additions merge apart.
 */
import { ApiError, fail } from '../api/errors.js';

export const r2ApiErrors = {
  // ---- buckets (buckets.ts) ----
  /** 404 10006: the code wrangler's provisioning treats as "bucket not found". */
  noSuchBucket: () => fail(404, 10006, 'The specified bucket does not exist.'),
  /**
   * 400 10005 (R2's error-code table): the text as wrangler printed it from the API for
   * `preview_bucket_coimages` (cloudflare/workers-sdk#3227, 2023).
   */
  invalidBucketName: () => fail(400, 10005, 'The specified bucket name is not valid.'),
  /**
   * 409 10004 "…already exists, and you own it." (denoflare's fixture "409 10004";
   * docs/sources/r2-api.md#buckets). The docs' 10073 BucketConflict is another account's name: one
   * account here, so never given.
   */
  bucketExists: () => fail(409, 10004, 'The bucket you tried to create already exists, and you own it.'),
  /**
   * 409 10008 on DELETE of a bucket that holds objects or uploads (R2's error-code table, "bucket not
   * empty"); the text is S3's BucketNotEmpty message, which R2's S3 endpoint gives (our reading).
   */
  bucketNotEmpty: () => fail(409, 10008, 'The bucket you tried to delete is not empty.'),
  /**
   * 400 10040: a body that is not the JSON expected, or a value outside its enum (a bad storage
   * class: wrangler's tests; an S3-shaped CORS file: workers-sdk#8486; docs/sources/r2-api.md#buckets).
   * `why` (ours: a lifecycle or lock rule the validator refused, a custom domain outside the
   * account's zones) follows as a second error: the API's own text for each refusal is not established.
   */
  malformed: (why?: string) =>
    why === undefined
      ? fail(400, 10040, 'The JSON you provided was not well formed.')
      : new ApiError(400, [
          { code: 10040, message: 'The JSON you provided was not well formed.' },
          { code: 10040, message: why },
        ]),

  // ---- CORS (cors.ts) ----
  /** 404 10059 on GET for a bucket without a policy (seen third-hand: docs/sources/r2-api.md#cors). */
  noCorsConfiguration: () => fail(404, 10059, 'The CORS configuration does not exist.'),

  // ---- public access (domains.ts) ----
  /** placeholder: a custom domain already connected to a bucket (a host serves one bucket). Not established. */
  domainTaken: (domain: string) => fail(409, 10040, `The custom domain ${domain} is already connected to a bucket.`),
  /** placeholder: a custom domain the bucket does not have (GET/PUT/DELETE …/domains/custom/{domain}). Not established. */
  noSuchDomain: (domain: string) => fail(404, 10040, `The custom domain ${domain} is not connected to this bucket.`),
} as const;
