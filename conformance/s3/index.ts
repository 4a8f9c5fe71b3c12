/** The S3 API conformance suite: every group, in the order the summary prints them. */
import { runGroups, type Group, type S3Target } from './harness.js';
import { auth } from './groups/auth.js';
import { objects } from './groups/objects.js';
import { listing } from './groups/listing.js';
import { copy } from './groups/copy.js';
import { multipart } from './groups/multipart.js';
import { routing } from './groups/routing.js';
import { ssec } from './groups/ssec.js';

/** Every group of the S3 suite, in the order it runs them. */
const s3Groups: readonly Group[] = [auth, objects, listing, copy, multipart, ssec, routing];

/** Registers the whole S3 conformance suite (Vitest tests) for one target. */
export function s3Conformance(target: S3Target): void {
  runGroups(s3Groups, target);
}

export { s3Differences, type S3DifferenceId } from './differences.js';
export type { S3Target, S3FetchLike } from './harness.js';
