/**
 * The R2 control-plane conformance suite (`/accounts/{id}/r2/buckets...`): every group, in the order
 * the summary prints them. Each concern's cases live in their own file under groups/ and are listed
 * here, one line each: add yours to `r2ApiGroups`.
 */
import { runGroups, type Group, type R2ApiTarget } from './harness.js';
import { buckets } from './groups/buckets.js';
import { auth } from './groups/auth.js';
import { lifecycle } from './groups/lifecycle.js';
import { locks } from './groups/locks.js';
import { s3Lifecycle } from './groups/s3-lifecycle.js';
import { cors } from './groups/cors.js';
import { domains } from './groups/domains.js';
import { queues } from './groups/queues.js';
import { notifications } from './groups/notifications.js';
import { tempCredentials } from './groups/temp-credentials.js';
import { objects } from './groups/objects.js';

/** Every group of the R2 control-plane suite, in the order it runs them. */
const r2ApiGroups: readonly Group[] = [
  buckets,
  auth,
  lifecycle,
  s3Lifecycle,
  locks,
  objects,
  cors,
  domains,
  queues,
  notifications,
  tempCredentials,
];

/** Registers the whole R2 control-plane conformance suite (Vitest tests) for one target. */
export function r2ApiConformance(target: R2ApiTarget): void {
  runGroups(r2ApiGroups, target);
}

export { r2ApiDifferences, realApiDifferences, type R2ApiDifferenceId } from './differences.js';
export type { R2ApiTarget } from './harness.js';
