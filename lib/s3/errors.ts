/**
 * The S3 view's error catalogue: R2's codes, statuses and messages (which are not always AWS's),
 * and the envelope R2 sends them in: `<Error><Code/><Message/></Error>` with no RequestId, no
 * HostId and no xmlns (docs r2/api/error-codes; docs/sources/r2-s3.md#errors).
 */
import { HASH_LABEL, R2ModelError, type R2ErrorName } from '../bucket/errors.js';
import { xmlDocument } from './xml.js';

export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra elements after Message (SignatureDoesNotMatch's debugging fields), in order. */
    readonly extra: readonly (readonly [string, string])[] = [],
    /** Headers the error response carries. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

const e = (status: number, code: string, message: string) => () => new S3Error(status, code, message);

/** Errors whose text never varies. */
export const s3Errors = {
  noSuchKey: e(404, 'NoSuchKey', 'The specified key does not exist.'),
  noSuchBucket: e(404, 'NoSuchBucket', 'The specified bucket does not exist.'),
  noSuchUpload: e(404, 'NoSuchUpload', 'The specified multipart upload does not exist.'),
  // R2's error-code reference lists 10073 with S3 code `BucketConflict`, 409, "Bucket name already
  // exists." (cloudflare-docs src/content/docs/r2/api/error-codes.mdx, "Bucket errors"); bucket names are
  // per account on R2, so AWS's BucketAlreadyExists/BucketAlreadyOwnedByYou split does not arise.
  // The message is that table's text: R2's exact wording on the S3 endpoint is not published.
  bucketConflict: e(409, 'BucketConflict', 'Bucket name already exists.'),
  routeNotFound: e(404, 'RouteNotFound', 'No route matches this url.'),
  preconditionFailed: e(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold.'),
  invalidRange: e(416, 'InvalidRange', 'The requested range is not satisfiable'),
  // S3's answers for `GET ?partNumber=` past the last part, and with a Range besides (GetObject API
  // reference; minio and Ceph RGW match AWS's texts, ceph/ceph#66780). R2's own texts are not published.
  invalidPartNumber: e(416, 'InvalidPartNumber', 'The requested partnumber is not satisfiable'),
  rangeWithPartNumber: e(400, 'InvalidRequest', 'Cannot specify both Range header and partNumber query parameter'),
  unauthorized: e(401, 'Unauthorized', 'Unauthorized'),
  requestTimeTooSkewed: e(
    403,
    'RequestTimeTooSkewed',
    "The difference between the request time and the server's time is too large.",
  ),
  expiredRequest: e(403, 'ExpiredRequest', 'Request has expired'),
  // A request outside its credentials' scope (R2's token scopes, docs r2/api/tokens: 403
  // AccessDenied, 10003).
  accessDenied: e(403, 'AccessDenied', 'Access Denied'),
  // Expired temporary credentials: R2's answer is not documented
  // (docs/sources/r2-s3.md#authentication); S3's, which the AWS SDKs act on (temporary-access.ts).
  expiredToken: e(400, 'ExpiredToken', 'The provided token has expired.'),
  contentSha256Mismatch: e(
    400,
    'XAmzContentSHA256Mismatch',
    "The provided 'x-amz-content-sha256' header does not match what was computed.",
  ),
  malformedXml: e(
    400,
    'MalformedXML',
    'The XML you provided was not well formed or did not validate against our published schema.',
  ),
  invalidMaxKeys: e(400, 'InvalidMaxKeys', 'MaxKeys params must be positive integer <= 1000.'),
  invalidDigest: e(400, 'InvalidDigest', 'The checksum or Content-MD5 you specified is not valid.'),
  invalidStorageClass: e(400, 'InvalidStorageClass', 'The storage class specified is not valid.'),
  invalidPartMissing: e(400, 'InvalidPart', 'One or more of the specified parts could not be found.'),
  invalidPartProblem: e(400, 'InvalidPart', 'There was a problem with the multipart upload.'),
  invalidPartSizes: e(400, 'InvalidPart', 'All non-trailing parts must have the same length.'),
  entityTooSmall: e(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.'),
  entityTooLarge: e(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed object size.'),
  metadataTooLarge: e(400, 'MetadataTooLarge', 'Your metadata headers exceed the maximum allowed metadata size.'),
  invalidObjectName: e(400, 'InvalidObjectName', 'The specified object name is not valid.'),
  internal: e(500, 'InternalError', 'We encountered an internal error. Please try again.'),
  // R2's per-key write limit on the S3 API: 429 TooManyRequests, code 10058 (R2 docs, r2/api/error-codes;
  // docs/sources/r2-s3.md#limits). The text is the binding's for 10058 (lib/bucket/errors.ts).
  tooManyRequests: e(429, 'TooManyRequests', 'Reduce your concurrent request rate for the same object.'),
  // A bucket lock rule refusing a delete or overwrite: R2's error-code page lists 10069 with S3 code
  // ObjectLockedByBucketPolicy, 403 (docs r2/api/error-codes). The message is the binding's (ours).
  objectLocked: e(
    403,
    'ObjectLockedByBucketPolicy',
    'The object is locked by a bucket lock rule and cannot be deleted or overwritten.',
  ),
  encryptionNotApplicable: e(400, 'InvalidRequest', 'The encryption parameters are not applicable to this object.'),
  invalidEncryptionAlgorithm: e(
    400,
    'InvalidEncryptionAlgorithmError',
    'The encryption request that you specified is not valid. The valid value is AES256.',
  ),
  badRangeFormat: e(
    400,
    'InvalidArgument',
    "range must be in format 'bytes=start-end', 'bytes=start-' or 'bytes=-suffix'.'",
  ),
  rangeNotPositive: e(400, 'InvalidArgument', 'range must be positive.'),
  partNumberRange: e(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive.'),
  sseCustomerKeyMissing: e(
    400,
    'InvalidArgument',
    'Requests specifying Server Side Encryption with Customer provided keys must provide an appropriate secret key.',
  ),
  sseCustomerKeyMd5Missing: e(
    400,
    'InvalidArgument',
    'Requests specifying Server Side Encryption with Customer provided keys must provide the client calculated MD5 of the secret key.',
  ),
  sseCustomerAlgorithmMissing: e(
    400,
    'InvalidArgument',
    'Requests specifying Server Side Encryption with Customer provided keys must provide a valid encryption algorithm.',
  ),
  sseCustomerKeyMd5Mismatch: e(
    400,
    'InvalidArgument',
    'The calculated MD5 hash of the key did not match the hash that was provided.',
  ),
} as const;

export const invalidArgument = (message: string) => new S3Error(400, 'InvalidArgument', message);
export const invalidRequest = (message: string) => new S3Error(400, 'InvalidRequest', message);
export const notImplemented = (what: string) => new S3Error(501, 'NotImplemented', `${what} not implemented`);
export const headerNotImplemented = (name: string, value: string) =>
  notImplemented(`Header '${name}' with value '${value}'`);

export function badDigest(kind: 'MD5' | string, provided: string, actual: string): S3Error {
  return new S3Error(
    400,
    'BadDigest',
    `The ${kind} checksum you specified did not match what we received.\nYou provided a ${kind} checksum with value: ${provided}\nActual ${kind} was: ${actual}`,
  );
}

/**
 * A model error as the S3 API reports it: the rule that refused decides (the mapping of Miniflare's
 * BINDING_ERRORS and R2's error-code page: docs/sources/r2-s3.md#errors). Not a model error:
 * undefined (the caller answers InternalError).
 */
export function fromModelError(err: unknown): S3Error | undefined {
  if (!(err instanceof R2ModelError)) return undefined;
  if (err.reason === 'checksumMismatch') {
    const { alg, provided, actual } = err.facts!;
    return badDigest(HASH_LABEL[alg], provided, actual);
  }
  return BY_REASON[err.reason]();
}

/** R2's refusals and the S3 error each becomes. */
const BY_REASON: Record<Exclude<R2ErrorName, 'checksumMismatch'>, () => S3Error> = {
  internal: s3Errors.internal, // 10001
  // Production answers a read of an SSE-C object without its key with 10001 (errors.ts); the S3
  // view checks the key itself first (ssec.ts), so this is only a backstop.
  ssecKeyMismatch: s3Errors.internal,
  entityTooSmall: s3Errors.entityTooSmall, // 10011
  metadataTooLarge: s3Errors.metadataTooLarge, // 10012
  invalidObjectName: s3Errors.invalidObjectName, // 10020
  invalidMaxKeys: s3Errors.invalidMaxKeys, // 10022
  noSuchUpload: s3Errors.noSuchUpload, // 10024
  invalidPart: s3Errors.invalidPartMissing, // 10025
  invalidRange: s3Errors.invalidRange, // 10039
  // The simulator's failure on an empty window at an object's end (lib/bucket/range.ts); the S3 view
  // answers such ranges itself (416 InvalidRange), so this is only a backstop.
  unspecified: s3Errors.internal, // 0
  invalidPartSizes: s3Errors.invalidPartSizes, // 10048
  entityTooLarge: s3Errors.entityTooLarge, // 100100
  tooManyRequests: s3Errors.tooManyRequests, // 10058
  objectLocked: s3Errors.objectLocked, // 10069
};

/** The XML body of an error. */
function errorXml(err: S3Error): string {
  const content: Record<string, string> = { Code: err.code, Message: err.message };
  for (const [k, v] of err.extra) content[k] = v;
  return xmlDocument('Error', content, false);
}

/** The response for an error: no body for HEAD, as R2 answers. */
export function errorResponse(err: S3Error, method: string): Response {
  const headers = new Headers(err.headers);
  if (method === 'HEAD') return new Response(null, { status: err.status, headers });
  headers.set('content-type', 'application/xml');
  return new Response(errorXml(err), { status: err.status, headers });
}
