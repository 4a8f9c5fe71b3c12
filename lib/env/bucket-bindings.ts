/**
 * A bucket binding entry (`r2_buckets[i]`, or the documents' `store_buckets[i]`): wrangler's checks
 * and messages, and the local identity that decides which bindings share one bucket's state.
 * Facts from workers-sdk `packages/workers-utils/src/config/validation.ts` (`validateR2Binding`,
 * `isRemoteValid`) and `validation-helpers.ts`, as bundled in wrangler 4.155.0.
 */
import type { Diagnostics } from './diagnostics.js';
import { experimental, hasProperty, isOptionalProperty, isRequiredProperty, unexpectedFields } from './rules.js';
import { isBucketName } from '../bucket/backend.js';

/** One entry of `r2_buckets` / `store_buckets` as a wrangler config holds it. */
export interface BucketBindingConfig {
  /** The name under which the bucket appears in `env`. */
  binding: string;
  /** The production bucket. Optional since wrangler provisions resources. */
  bucket_name?: string;
  /** The bucket `wrangler dev` (and so every local test) uses instead of `bucket_name`. */
  preview_bucket_name?: string;
  /** Over an account (createEnv's `account`/`api`), which jurisdiction's bucket of that name; otherwise ignored, as Miniflare ignores it. */
  jurisdiction?: string;
  remote?: boolean;
  local_dev?: { experimental_s3_credentials?: { accessKeyId: string; secretAccessKey: string } };
}

const BUCKET_NAME_RULE =
  'Bucket names must begin and end with an alphanumeric character, only contain lowercase letters, numbers, and hyphens, and be between 3 and 63 characters long.';

// R2's one name rule, the R2 backend's (lib/bucket/backend.ts).
const isValidBucketName = isBucketName;

const KNOWN_FIELDS = ['binding', 'bucket_name', 'preview_bucket_name', 'jurisdiction', 'remote', 'local_dev'];

/**
 * Checks one entry. `list` is the config field (`r2_buckets`), `field` the entry's path
 * (`env.staging.r2_buckets[1]`). The checks run in wrangler's order and each adds wrangler's text;
 * the name-format checks run only when the type checks before them passed, as in wrangler.
 */
export function validateBucketBinding(d: Diagnostics, list: string, field: string, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) {
    d.errors.push(`"${list}" bindings should be objects, but got ${JSON.stringify(value)}`);
    return false;
  }
  const v = value as Record<string, unknown>;
  const json = () => JSON.stringify(value);
  let valid = true;
  if (!isRequiredProperty(v, 'binding', 'string')) {
    d.errors.push(`"${field}" bindings should have a string "binding" field but got ${json()}.`);
    valid = false;
  }
  // An empty bucket_name passes the type check but is refused with the type message.
  if (
    !isOptionalProperty(v, 'bucket_name', 'string') ||
    (v.bucket_name !== undefined && (v.bucket_name as string).length === 0)
  ) {
    d.errors.push(`"${field}" bindings should have a string "bucket_name" field but got ${json()}.`);
    valid = false;
  }
  if (valid && hasProperty(v, 'bucket_name') && !isValidBucketName(v.bucket_name)) {
    d.errors.push(`${field}.bucket_name=${JSON.stringify(v.bucket_name)} is invalid. ${BUCKET_NAME_RULE}`);
    valid = false;
  }
  if (!isOptionalProperty(v, 'preview_bucket_name', 'string')) {
    d.errors.push(
      `"${field}" bindings should, optionally, have a string "preview_bucket_name" field but got ${json()}.`,
    );
    valid = false;
  }
  // Wrangler's text has a space after "=" here (and not for bucket_name).
  if (valid && hasProperty(v, 'preview_bucket_name') && !isValidBucketName(v.preview_bucket_name)) {
    d.errors.push(
      `${field}.preview_bucket_name= ${JSON.stringify(v.preview_bucket_name)} is invalid. ${BUCKET_NAME_RULE}`,
    );
    valid = false;
  }
  if (!isOptionalProperty(v, 'jurisdiction', 'string')) {
    d.errors.push(`"${field}" bindings should, optionally, have a string "jurisdiction" field but got ${json()}.`);
    valid = false;
  }
  if (!isOptionalProperty(v, 'remote', 'boolean')) {
    d.errors.push(`"${field}" should, optionally, have a boolean "remote" field but got ${json()}.`);
    valid = false;
  }
  if (hasProperty(v, 'local_dev')) {
    const localDev = v.local_dev;
    if (typeof localDev !== 'object' || localDev === null) {
      d.errors.push(`"${field}" bindings should, optionally, have an object "local_dev" field but got ${json()}.`);
      valid = false;
    } else {
      const dev = localDev as Record<string, unknown>;
      if (hasProperty(dev, 'experimental_s3_credentials')) {
        experimental(d, 'local_dev.experimental_s3_credentials');
        const c = dev.experimental_s3_credentials as Record<string, unknown> | null;
        if (
          typeof c !== 'object' ||
          c === null ||
          !isRequiredProperty(c, 'accessKeyId', 'string') ||
          !isRequiredProperty(c, 'secretAccessKey', 'string')
        ) {
          d.errors.push(
            `"${field}" bindings should, optionally, have a "local_dev.experimental_s3_credentials" field with string "accessKeyId" and "secretAccessKey" fields, but got ${json()}.`,
          );
          valid = false;
        }
      }
      unexpectedFields(d, `${field}.local_dev`, Object.keys(dev), ['experimental_s3_credentials']);
    }
  }
  unexpectedFields(d, field, Object.keys(v), KNOWN_FIELDS);
  return valid;
}

/**
 * The name of the store behind a binding when run locally: `wrangler dev` and the Vitest plugin
 * use `preview_bucket_name` in place of `bucket_name`, and Miniflare keys storage by the bucket
 * name, or by the binding when there is none. Equal identities share one store.
 */
export const localIdentity = (b: BucketBindingConfig): string => b.preview_bucket_name ?? b.bucket_name ?? b.binding;
