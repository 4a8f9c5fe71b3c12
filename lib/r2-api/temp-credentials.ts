/**
 * `POST /accounts/{account_id}/r2/temp-access-credentials` (issue 28, point 4): mints temporary S3
 * credentials for one bucket, optionally narrowed to key prefixes or exact keys, with one of R2's
 * four permissions, for `ttlSeconds` on the double's clock. The body and the answer are the SDK's
 * (`r2.temporaryCredentials.create`: `bucket`, `parentAccessKeyId`, `permission`, `ttlSeconds` up
 * to 604800, `prefixes?`, `objects?` → `{ accessKeyId, secretAccessKey, sessionToken }`); the
 * account keeps what was minted (lib/account/temporary-credentials.ts) and the S3 view enforces it
 * (lib/s3/temporary-access.ts).
 *
 * Refusals: a body the schema does not allow is R2's 10040 (rules-body.ts), its reason following
 * (ours: production's texts are not established); a bucket the account lacks, 10006; a parent key
 * id no S3 view of the account accepts, `unknownParent` below (a placeholder: production's answer is
 * not established). The route needs the token's R2 write permission, as every R2 POST (routes.ts).
 */
import { ok } from '../api/envelope.js';
import { fail } from '../api/errors.js';
import type { Handler, Route } from '../api/router.js';
import {
  mintTemporaryCredentials,
  parentKnown,
  TEMPORARY_PERMISSIONS,
  type TemporaryPermission,
} from '../account/temporary-credentials.js';
import { r2ApiErrors } from './errors.js';
import { jsonObject } from './rules-body.js';
import { addressedBuckets, type R2Service } from './service.js';

/** The schema's bound on `ttlSeconds`: 7 days. */
const MAX_TEMPORARY_TTL_SECONDS = 604800;

/** placeholder: a parent access key id the account's S3 views do not accept. Production's code and text are not established. */
const unknownParent = () => fail(400, 10040, 'The parent access key id does not exist.');

const stringList = (v: unknown, field: string): string[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string'))
    throw r2ApiErrors.malformed(`${field} must be an array of strings`);
  return v as string[];
};

const create: Handler<R2Service> = async (svc, req, params) => {
  const body = await jsonObject(req);
  const { bucket, parentAccessKeyId, permission, ttlSeconds } = body;
  if (typeof bucket !== 'string' || bucket === '') throw r2ApiErrors.malformed('bucket is required');
  if (typeof parentAccessKeyId !== 'string' || parentAccessKeyId === '')
    throw r2ApiErrors.malformed('parentAccessKeyId is required');
  if (typeof permission !== 'string' || !(TEMPORARY_PERMISSIONS as readonly string[]).includes(permission)) {
    throw r2ApiErrors.malformed(`permission must be one of ${TEMPORARY_PERMISSIONS.join(', ')}`);
  }
  if (
    typeof ttlSeconds !== 'number' ||
    !Number.isFinite(ttlSeconds) ||
    ttlSeconds <= 0 ||
    ttlSeconds > MAX_TEMPORARY_TTL_SECONDS
  ) {
    throw r2ApiErrors.malformed(`ttlSeconds must be a number from 1 to ${MAX_TEMPORARY_TTL_SECONDS}`);
  }
  const prefixes = stringList(body.prefixes, 'prefixes');
  const objects = stringList(body.objects, 'objects');
  const { account, jurisdiction, buckets } = addressedBuckets(svc, req, params);
  if (!buckets.has(bucket)) throw r2ApiErrors.noSuchBucket();
  if (!parentKnown(account, parentAccessKeyId)) throw unknownParent();
  const minted = mintTemporaryCredentials(account, {
    parentAccessKeyId,
    bucket,
    jurisdiction,
    permission: permission as TemporaryPermission,
    prefixes,
    objects,
    expires: account.now() + ttlSeconds * 1000,
  });
  return ok({
    accessKeyId: minted.accessKeyId,
    secretAccessKey: minted.secretAccessKey,
    sessionToken: minted.sessionToken,
  });
};

/** The route for `['accounts', id, 'r2', 'temp-access-credentials']` (the caller checked the first three). */
export const tempCredentialsRoute = (
  segments: readonly string[],
  accountId: string,
): Pick<Route<R2Service>, 'methods' | 'accountId'> | undefined =>
  segments[3] === 'temp-access-credentials' && segments.length === 4
    ? { methods: { POST: create }, accountId }
    : undefined;
