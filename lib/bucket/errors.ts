/**
 * The bucket's error catalogue: every error the double raises, with the runtime's exact texts.
 *
 * Two families, as in the real binding:
 * - backend errors (R2 itself): plain `Error`, message `"<action>: <message> (<code>)"`, and no `code`
 *   property (workerd's R2Error throw path is compiled out, so callers only ever see the string);
 * - client-side errors (workerd's argument conversion and validation): TypeError / RangeError /
 *   Error with workerd's messages and no code.
 */

export type R2Action =
  | 'head'
  | 'get'
  | 'put'
  | 'delete'
  | 'list'
  | 'createMultipartUpload'
  | 'uploadPart'
  | 'completeMultipartUpload'
  | 'abortMultipartUpload';

/**
 * The operations on a bucket's settings (config.ts), each a call like a put: logged and faulted
 * under these names whichever surface asked (layer.ts `changeSettings`). Named for the S3
 * operation where there is one; `putBucketLocks`, `putBucketNotifications`,
 * `putBucketPublicAccess` and `putBucketStorageClass` are the API's (no S3 operation), and
 * `deleteBucket` is a bucket's settings going with it.
 */
export type SettingAction =
  | 'getBucketCors'
  | 'putBucketCors'
  | 'deleteBucketCors'
  | 'getBucketLifecycle'
  | 'putBucketLifecycle'
  | 'deleteBucketLifecycle'
  | 'getBucketLocks'
  | 'putBucketLocks'
  | 'getBucketNotifications'
  | 'putBucketNotifications'
  | 'getBucketPublicAccess'
  | 'putBucketPublicAccess'
  | 'getBucketStorageClass'
  | 'putBucketStorageClass'
  | 'getBucketSippy'
  | 'putBucketSippy'
  | 'deleteBucketSippy'
  | 'getBucketLocalUploads'
  | 'putBucketLocalUploads'
  | 'deleteBucket';

/** Any operation on a bucket: on its objects (R2Action) or its settings. */
export type BucketAction = R2Action | SettingAction;

/** Backend error codes and their messages. */
export const R2_ERRORS = {
  internal: [10001, 'We encountered an internal error. Please try again.'],
  entityTooSmall: [10011, 'Your proposed upload is smaller than the minimum allowed object size.'],
  metadataTooLarge: [10012, 'Your metadata headers exceed the maximum allowed metadata size.'],
  invalidObjectName: [10020, 'The specified object name is not valid.'],
  invalidMaxKeys: [10022, 'MaxKeys params must be positive integer <= 1000.'],
  noSuchUpload: [10024, 'The specified multipart upload does not exist.'],
  invalidPart: [10025, 'One or more of the specified parts could not be found.'],
  // Production's answer to reading an SSE-C object without its key (not in the local simulator).
  ssecKeyMismatch: [10001, 'We encountered an internal error. Please try again.'],
  invalidRange: [10039, 'The requested range is not satisfiable'],
  // What the binding's caller sees when the R2 behind it answers an error without its CF-R2-Error
  // header: workerd's client then reports code 0. The local simulator answers so for the one case
  // the double copies (range.ts, `readsEmptyWindow`); production's answer there is not established.
  unspecified: [0, 'Unspecified error'],
  invalidPartSizes: [10048, 'There was a problem with the multipart upload.'],
  entityTooLarge: [100100, 'Your proposed upload exceeds the maximum allowed object size.'],
  // Production's per-key write limit (1 write per second per key; docs: r2/api/error-codes, 10058
  // TooManyRequests); the text is production's as users report it. Raised only by injected faults.
  tooManyRequests: [10058, 'Reduce your concurrent request rate for the same object.'],
  // A delete or overwrite a bucket lock rule refuses (locks.ts): docs r2/api/error-codes lists 10069
  // ObjectLockedByBucketPolicy, HTTP 403. The text is ours: production's wording is not published.
  objectLocked: [10069, 'The object is locked by a bucket lock rule and cannot be deleted or overwritten.'],
} as const satisfies Record<string, readonly [number, string]>;

export type R2ErrorName = keyof typeof R2_ERRORS | 'checksumMismatch';

export const HASH_LABEL = {
  md5: 'MD5',
  sha1: 'SHA-1',
  sha256: 'SHA-256',
  sha384: 'SHA-384',
  sha512: 'SHA-512',
} as const;

/** What a checksum mismatch knows: the algorithm, the hex the caller gave, the hex of the body. */
export interface ChecksumFacts {
  readonly alg: keyof typeof HASH_LABEL;
  readonly provided: string;
  readonly actual: string;
}

/**
 * An error of R2 itself, as the model raises it: which rule refused (`reason`), R2's numeric `code`,
 * the operation, and the facts a surface needs to phrase it (a checksum mismatch's values). Each
 * surface formats it: the binding as workerd's plain Error (`bindingError`), the S3 view as its XML
 * code and status (lib/s3/errors.ts `fromModelError`); no surface reads another's message text.
 * `message` is the binding's text, so an error that escapes unformatted still reads as R2's.
 */
export class R2ModelError extends Error {
  override readonly name = 'R2ModelError';
  readonly code: number;

  constructor(
    readonly action: BucketAction,
    readonly reason: R2ErrorName,
    readonly facts?: ChecksumFacts,
  ) {
    super(
      reason === 'checksumMismatch'
        ? checksumText(facts!)
        : `${action}: ${R2_ERRORS[reason][1]} (${R2_ERRORS[reason][0]})`,
    );
    this.code = reason === 'checksumMismatch' ? 10037 : R2_ERRORS[reason][0];
  }
}

/** A backend error, as the model raises it. */
export function r2Error(action: BucketAction, name: keyof typeof R2_ERRORS): R2ModelError {
  return new R2ModelError(action, name);
}

/** 10037: the one backend error whose message spans three lines. */
export function checksumMismatch(alg: keyof typeof HASH_LABEL, provided: string, actual: string): R2ModelError {
  return new R2ModelError('put', 'checksumMismatch', { alg, provided, actual });
}

function checksumText({ alg, provided, actual }: ChecksumFacts): string {
  const a = HASH_LABEL[alg];
  return (
    `put: The ${a} checksum you specified did not match what we received.\n` +
    `You provided a ${a} checksum with value: ${provided}\n` +
    `Actual ${a} was: ${actual} (10037)`
  );
}

/**
 * A model error as the binding shows it: a plain `Error` (not a subclass) whose message is
 * `"<action>: <message> (<code>)"`, with no `code` property (workerd's R2Error throw path is
 * compiled out, so callers only ever see the string: docs/sources/r2-binding.md#errors). Anything
 * else passes as it is.
 */
export const bindingError = (e: unknown): unknown => (e instanceof R2ModelError ? new Error(e.message) : e);

// ---- client side (workerd) -------------------------------------------------------------------

const VALUE_TYPES = 'JsReadableStream or ArrayBuffer or ArrayBufferView or string or Blob';

/** workerd's message for an argument that cannot be converted to the parameter's type. */
export function parameterTypeError(method: string, iface: string, index: number, type: string): TypeError {
  return new TypeError(`Failed to execute '${method}' on '${iface}': parameter ${index} is not of type '${type}'.`);
}

export const putValueTypeError = () => parameterTypeError('put', 'R2Bucket', 2, VALUE_TYPES);
export const partValueTypeError = () => parameterTypeError('uploadPart', 'R2MultipartUpload', 2, VALUE_TYPES);

/** "Incorrect type for the '<field>' field on '<Struct>': …" for option-bag fields. */
export function fieldTypeError(field: string, struct: string, type: string): TypeError {
  return new TypeError(
    `Incorrect type for the '${field}' field on '${struct}': the provided value is not of type '${type}'.`,
  );
}

export const unknownLengthStream = () =>
  new TypeError(
    'Provided readable stream must have a known length (request/response body or readable half of FixedLengthStream)',
  );

export const bodyUsed = () =>
  new TypeError('Body has already been used. It can only be used once. Use tee() first if you need to read it twice.');

export const invalidDate = () => new TypeError('The value cannot be converted because it is not a valid Date.');

export const int32OutOfRange = () =>
  new TypeError('Value out of range. Must be between -2147483648 and 2147483647 (inclusive).');

export const partNumberRange = (n: number) =>
  new TypeError(`Part number must be between 1 and 10000 (inclusive). Actual value was: ${n}`);
