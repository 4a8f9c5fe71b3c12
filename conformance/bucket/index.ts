/** The bucket conformance suite: every group, in the order the summary prints them. */
import { runGroups, type BucketTarget, type Group } from './harness.js';
import { argumentCoercion } from './groups/arguments.js';
import { keys } from './groups/keys.js';
import { putValues } from './groups/put-values.js';
import { checksums } from './groups/checksums.js';
import { customMetadata } from './groups/custom-metadata.js';
import { httpMetadata } from './groups/http-metadata.js';
import { storageClass } from './groups/storage-class.js';
import { resultShape } from './groups/result-shape.js';
import { body } from './groups/body.js';
import { ssec } from './groups/ssec.js';
import { deletion } from './groups/delete.js';
import { integrity } from './groups/integrity.js';
import { conditionals } from './groups/conditionals.js';
import { ranges } from './groups/ranges.js';
import { list } from './groups/list.js';
import { listInclude } from './groups/list-include.js';
import { multipart } from './groups/multipart.js';
import { multipartExpiry } from './groups/multipart-expiry.js';
import { compatibilityDates } from './groups/compatibility-dates.js';

/** Every group of the bucket suite, in the order it runs them. */
const bucketGroups: readonly Group[] = [
  argumentCoercion,
  keys,
  putValues,
  checksums,
  customMetadata,
  httpMetadata,
  storageClass,
  resultShape,
  body,
  ssec,
  deletion,
  integrity,
  conditionals,
  ranges,
  list,
  listInclude,
  multipart,
  multipartExpiry,
  compatibilityDates,
];

/** Registers the whole bucket conformance suite (Vitest tests) for one target. */
export function bucketConformance(target: BucketTarget): void {
  runGroups(bucketGroups, target);
}

export {
  bucketDifferences,
  doubleDifferences,
  doubleInWorkerdDifferences,
  runtimeDifferences,
  happyDomDifferences,
  jsdomDifferences,
  simulatorDifferences,
  type BucketDifferenceId,
} from './differences.js';
export type { BucketTarget } from './harness.js';
