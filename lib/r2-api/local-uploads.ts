/**
 * A bucket's local uploads setting over the API (cloudflare/api-schemas 2026-08-14,
 * `r2-get-bucket-local-uploads-configuration` and `r2-put-bucket-local-uploads-configuration`;
 * wrangler 4.86's `r2 bucket local-uploads`, src/r2/helpers/local-uploads.ts): `GET
 * /accounts/{id}/r2/buckets/{bucket}/local-uploads` answers `{ enabled }`, `PUT` with `{ enabled }`
 * sets it. "Object's data is written to the nearest region first, then asynchronously replicated":
 * the double has one region, so the setting is kept with the bucket's settings (snapshots and
 * storages hold it) and shown, and changes nothing else. A body without a boolean `enabled` (the
 * schema requires it) is 10040 with the reason.
 */
import { ok } from '../api/envelope.js';
import type { Handler } from '../api/router.js';
import { r2ApiErrors } from './errors.js';
import type { R2Table } from './routes.js';
import { jsonObject } from './rules-body.js';
import { namedBucket, type R2Service } from './service.js';
import { changeSettings, readSettings } from './settings.js';

const getLocalUploads: Handler<R2Service> = async (svc, req, params) =>
  ok({
    enabled: await readSettings(namedBucket(svc, req, params).bucket, 'getBucketLocalUploads', (c) => c.localUploads),
  });

const putLocalUploads: Handler<R2Service> = async (svc, req, params) => {
  const { bucket } = namedBucket(svc, req, params); // 10006 before the body is read
  const body = await jsonObject(req);
  if (typeof body.enabled !== 'boolean') throw r2ApiErrors.malformed('enabled must be a boolean');
  const enabled = body.enabled;
  await changeSettings(bucket, 'putBucketLocalUploads', (c) => (c.localUploads = enabled));
  return ok({});
};

export const localUploadsRoutes: R2Table = (rest) =>
  rest.length === 2 && rest[1] === 'local-uploads' ? { GET: getLocalUploads, PUT: putLocalUploads } : undefined;
