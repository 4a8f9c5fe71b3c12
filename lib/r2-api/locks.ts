/**
 * R2's bucket lock routes (docs r2/buckets/bucket-locks, docs/sources/r2-api.md#locks; the
 * `cloudflare` SDK's `r2.buckets.locks.get/update`, wrangler's `r2 bucket lock
 * list/add/remove/set`): `GET /accounts/{id}/r2/buckets/{bucket}/lock` answers `{ rules }`; `PUT`
 * replaces every rule. The rules are the bucket's (lib/bucket/locks.ts), enforced for the binding
 * and the S3 view alike.
 */
import { ok } from '../api/envelope.js';
import type { Handler } from '../api/router.js';
import { lockRules, LockRuleError } from '../bucket/locks.js';
import type { R2Service } from './service.js';
import { namedBucket } from './service.js';
import type { R2Table } from './routes.js';
import { rulesBody } from './rules-body.js';
import { changeSettings, readSettings } from './settings.js';

const getLocks: Handler<R2Service> = async (svc, req, params) =>
  ok({ rules: await readSettings(namedBucket(svc, req, params).bucket, 'getBucketLocks', (c) => c.locks) });

const putLocks: Handler<R2Service> = async (svc, req, params) => {
  const { bucket } = namedBucket(svc, req, params); // 10006 before the body is read
  const rules = await rulesBody(req, lockRules, LockRuleError);
  await changeSettings(bucket, 'putBucketLocks', (c) => (c.locks = rules));
  return ok({});
};

export const lockRoutes: R2Table = (rest) =>
  rest.length === 2 && rest[1] === 'lock' ? { GET: getLocks, PUT: putLocks } : undefined;
