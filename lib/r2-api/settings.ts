/**
 * The API's way to a bucket's settings: every route that reads or changes one (CORS, lifecycle,
 * locks, event notifications, public access, the default storage class) calls the bucket's layer
 * here (lib/bucket/layer.ts `changeSettings` / `readSettings`, surface `api`), so the change is
 * kept by the bucket's storage, logged in the bucket's call log and caught by its fault rules like
 * any other call (ARCHITECTURE.md, "The joints": settings are bucket state).
 *
 * An error of R2 the call meets (an injected fault: 10001, 10058) is answered as the API answers
 * R2's errors: the code and R2's text in the envelope (500; 429 for the rate limit).
 */
import { fail } from '../api/errors.js';
import type { Bucket } from '../bucket/bucket.js';
import type { BucketConfig } from '../bucket/config.js';
import { R2_ERRORS, R2ModelError, type SettingAction } from '../bucket/errors.js';
import { bucketLayer } from '../bucket/internal.js';

const R2_TEXT = new Map<number, string>(Object.values(R2_ERRORS).map(([code, text]) => [code, text]));

/** `call`, with R2's errors answered as the API's. */
export async function settingCall<R>(call: Promise<R>): Promise<R> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof R2ModelError) throw fail(e.code === 10058 ? 429 : 500, e.code, R2_TEXT.get(e.code) ?? e.message);
    throw e;
  }
}

/** Changes `bucket`'s settings through the API (logged and faulted as `op`). */
export const changeSettings = <R>(bucket: Bucket, op: SettingAction, change: (config: BucketConfig) => R): Promise<R> =>
  settingCall(bucketLayer(bucket)!.changeSettings('api', op, change));

/** Reads `bucket`'s settings through the API (logged and faulted as `op`). */
export const readSettings = <R>(bucket: Bucket, op: SettingAction, read: (config: BucketConfig) => R): Promise<R> =>
  settingCall(bucketLayer(bucket)!.readSettings('api', op, read));
