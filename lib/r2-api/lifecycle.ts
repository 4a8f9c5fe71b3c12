/**
 * R2's lifecycle routes (docs r2/buckets/object-lifecycles, docs/sources/r2-api.md#lifecycle; the
 * `cloudflare` SDK's `r2.buckets.lifecycle.get/update`, wrangler's `r2 bucket lifecycle
 * list/add/remove/set`): `GET /accounts/{id}/r2/buckets/{bucket}/lifecycle` answers `{ rules }`;
 * `PUT` replaces the whole set (`{ rules: [] }` clears it, the default multipart rule included).
 * There is no DELETE. The rules are the bucket's (lib/bucket/lifecycle.ts), the same the S3 view's
 * lifecycle calls reach.
 */
import { ok } from '../api/envelope.js';
import type { Handler } from '../api/router.js';
import { lifecycleRules, LifecycleRuleError } from '../bucket/lifecycle.js';
import type { R2Service } from './service.js';
import { namedBucket } from './service.js';
import type { R2Table } from './routes.js';
import { rulesBody } from './rules-body.js';
import { changeSettings, readSettings } from './settings.js';

const getLifecycle: Handler<R2Service> = async (svc, req, params) =>
  ok({ rules: await readSettings(namedBucket(svc, req, params).bucket, 'getBucketLifecycle', (c) => c.lifecycle) });

// wrangler sends `cf-r2-data-catalog-check: true` (ws-lifecycle); with no data catalog here it never
// answers 10081. The answer's `result` is `{}` (the SDK types it `unknown`; wrangler ignores it).
const putLifecycle: Handler<R2Service> = async (svc, req, params) => {
  const { bucket } = namedBucket(svc, req, params); // 10006 before the body is read
  const rules = await rulesBody(req, apiLifecycleRules, LifecycleRuleError);
  await changeSettings(bucket, 'putBucketLifecycle', (c) => (c.lifecycle = rules));
  return ok({});
};

/**
 * The API's rule set: the model's rules, each with its `conditions` object, which the published
 * schema and the SDK require (`LifecycleUpdateParams.Rule.conditions`; wrangler always sends one,
 * `{}` without a prefix). The model itself takes a rule without one as covering every key, for the
 * S3 view and test support, so the requirement is the API's and lives here.
 */
function apiLifecycleRules(rules: unknown) {
  if (Array.isArray(rules)) {
    rules.forEach((r, i) => {
      if (typeof r === 'object' && r !== null && (r as { conditions?: unknown }).conditions === undefined)
        throw new LifecycleRuleError(`rules[${i}].conditions is required`);
    });
  }
  return lifecycleRules(rules);
}

export const lifecycleRoutes: R2Table = (rest) =>
  rest.length === 2 && rest[1] === 'lifecycle' ? { GET: getLifecycle, PUT: putLifecycle } : undefined;
