/**
 * Which operation a request is (R2's routing, docs/sources/r2-s3.md#routing): the method, whether
 * there is a key, and the query's subresources decide. Subresources R2 answers 501 for are named
 * with the AWS operation in R2's message, `<Operation> not implemented`.
 */
import { invalidArgument, notImplemented, s3Errors, type S3Error } from './errors.js';
import { isIgnoredParam } from './listing.js';

export type Operation =
  | {
      op:
        | 'HeadBucket'
        | 'GetBucketLocation'
        | 'ListMultipartUploads'
        | 'ListObjects'
        | 'DeleteObjects'
        | 'PostBucket'
        | 'CreateBucket'
        | 'DeleteBucket';
    }
  | { op: 'GetBucketCors' | 'PutBucketCors' | 'DeleteBucketCors' }
  | { op: 'GetBucketLifecycleConfiguration' | 'PutBucketLifecycleConfiguration' | 'DeleteBucketLifecycle' }
  | { op: 'BucketConfig'; name: string }
  | { op: 'GetObject' | 'HeadObject' | 'PutObject' | 'CopyObject' | 'DeleteObject' | 'CreateMultipartUpload' }
  | {
      op: 'UploadPart' | 'UploadPartCopy' | 'CompleteMultipartUpload' | 'AbortMultipartUpload' | 'ListParts';
      uploadId: string;
    };

const OBJECT_SUBRESOURCES: Record<string, Partial<Record<string, string>>> = {
  tagging: { GET: 'GetObjectTagging', PUT: 'PutObjectTagging' },
  acl: { GET: 'GetObjectAcl', PUT: 'PutObjectAcl' },
  attributes: { GET: 'GetObjectAttributes' },
  torrent: { GET: 'GetObjectTorrent' },
  retention: { GET: 'GetObjectRetention', PUT: 'PutObjectRetention' },
  'legal-hold': { GET: 'GetObjectLegalHold', PUT: 'PutObjectLegalHold' },
};

/** Bucket configuration R2 answers with fixed documents. */
const BUCKET_GET_FIXED = new Set(['encryption', 'versioning', 'tagging', 'object-lock', 'replication']);

/**
 * Bucket subresources answered 501 here. R2 implements (as a dummy) acl; this double does not keep
 * it, and says so rather than pretending.
 */
const BUCKET_GET_501: Record<string, string> = {
  versions: 'ListObjectVersions',
  policy: 'GetBucketPolicy',
  website: 'GetBucketWebsite',
  notification: 'GetBucketNotificationConfiguration',
  requestPayment: 'GetBucketRequestPayment',
  logging: 'GetBucketLogging',
  accelerate: 'GetBucketAccelerateConfiguration',
  publicAccessBlock: 'GetPublicAccessBlock',
  ownershipControls: 'GetBucketOwnershipControls',
  'intelligent-tiering': 'GetBucketIntelligentTieringConfiguration',
  inventory: 'GetBucketInventoryConfiguration',
  metrics: 'GetBucketMetricsConfiguration',
  analytics: 'GetBucketAnalyticsConfiguration',
  policyStatus: 'GetGetBucketPolicyStatus', // R2's own typo, verbatim
  acl: 'GetBucketAcl',
};

const BUCKET_PUT_501: Record<string, string> = {
  accelerate: 'PutBucketAccelerateConfiguration',
  acl: 'PutBucketAcl',
  analytics: 'PutBucketAnalyticsConfiguration',
  'intelligent-tiering': 'PutBucketIntelligentTieringConfiguration',
  inventory: 'PutBucketInventoryConfiguration',
  logging: 'PutBucketLogging',
  metrics: 'PutBucketMetricsConfiguration',
  notification: 'PutBucketNotificationConfiguration',
  'object-lock': 'PutObjectLockConfiguration',
  ownershipControls: 'PutBucketOwnershipControls',
  policy: 'PutBucketPolicy',
  publicAccessBlock: 'PutPublicAccessBlock',
  replication: 'PutBucketReplication',
  requestPayment: 'PutBucketRequestPayment',
  tagging: 'PutBucketTagging',
  website: 'PutBucketWebsite',
  encryption: 'PutBucketEncryption',
  versioning: 'PutBucketVersioning',
};

const BUCKET_DELETE_501: Record<string, string> = {
  analytics: 'DeleteBucketAnalyticsConfiguration',
  'intelligent-tiering': 'DeleteBucketIntelligentTieringConfiguration',
  inventory: 'DeleteBucketInventoryConfiguration',
  metrics: 'DeleteBucketMetricsConfiguration',
  ownershipControls: 'DeleteBucketOwnershipControls',
  policy: 'DeleteBucketPolicy',
  replication: 'DeleteBucketReplication',
  tagging: 'DeleteBucketTagging',
  website: 'DeleteBucketWebsite',
  encryption: 'DeleteBucketEncryption',
};

const fail = (e: S3Error): never => {
  throw e;
};

/** PUT / DELETE on a bucket: a known subresource wins wherever it appears; unknown ones are refused. */
function bucketMutation(
  method: 'PUT' | 'DELETE',
  q: URLSearchParams,
  table: Record<string, string>,
  bare: 'CreateBucket' | 'DeleteBucket',
): Operation {
  for (const name of q.keys()) {
    if (name === 'cors') return { op: method === 'PUT' ? 'PutBucketCors' : 'DeleteBucketCors' };
    if (name === 'lifecycle')
      return { op: method === 'PUT' ? 'PutBucketLifecycleConfiguration' : 'DeleteBucketLifecycle' };
    if (table[name]) throw notImplemented(table[name]!);
  }
  const unsupported = [...new Set(q.keys())].filter((n) => !isIgnoredParam(n));
  if (unsupported.length) {
    throw invalidArgument(
      `Unsupported search param(s) ${unsupported.map((n) => `"${n}"`).join(', ')} on a ${method} bucket route`,
    );
  }
  return { op: bare };
}

export function bucketOperation(method: string, q: URLSearchParams): Operation {
  switch (method) {
    case 'HEAD':
      return { op: 'HeadBucket' };
    case 'PUT':
      return bucketMutation('PUT', q, BUCKET_PUT_501, 'CreateBucket');
    case 'DELETE':
      return bucketMutation('DELETE', q, BUCKET_DELETE_501, 'DeleteBucket');
    case 'POST':
      return q.has('delete') ? { op: 'DeleteObjects' } : { op: 'PostBucket' };
    case 'GET': {
      if (q.has('uploads')) return { op: 'ListMultipartUploads' };
      if (q.has('location')) {
        for (const name of q.keys()) {
          if (name !== 'location' && !isIgnoredParam(name))
            throw invalidArgument(`Search param ${name} is unsupported for bucket location`);
        }
        return { op: 'GetBucketLocation' };
      }
      for (const name of q.keys()) {
        if (name === 'cors') return { op: 'GetBucketCors' };
        if (name === 'lifecycle') return { op: 'GetBucketLifecycleConfiguration' };
        if (BUCKET_GET_FIXED.has(name)) return { op: 'BucketConfig', name };
        if (BUCKET_GET_501[name]) throw notImplemented(BUCKET_GET_501[name]!);
      }
      return { op: 'ListObjects' };
    }
    default:
      return fail(s3Errors.routeNotFound());
  }
}

function subresourceError(q: URLSearchParams, method: string): void {
  for (const name of q.keys()) {
    const op = OBJECT_SUBRESOURCES[name]?.[method];
    if (op) throw notImplemented(op);
  }
}

export function objectOperation(method: string, q: URLSearchParams, headers: Headers): Operation {
  const uploadId = q.get('uploadId');
  if (uploadId !== null) {
    const partNumber = q.get('partNumber');
    if (partNumber !== null && !/^ *-?\d*$/.test(partNumber)) throw s3Errors.routeNotFound();
    switch (method) {
      case 'GET':
        return { op: 'ListParts', uploadId };
      case 'PUT':
        // Without partNumber the upload id is ignored: a plain PutObject / CopyObject.
        if (partNumber === null) break;
        return { op: headers.has('x-amz-copy-source') ? 'UploadPartCopy' : 'UploadPart', uploadId };
      case 'POST':
        return { op: 'CompleteMultipartUpload', uploadId };
      case 'DELETE':
        return { op: 'AbortMultipartUpload', uploadId };
      case 'HEAD':
        return { op: 'HeadObject' };
      default:
        throw s3Errors.routeNotFound();
    }
  }
  if (q.has('uploads')) {
    if (method === 'POST') return { op: 'CreateMultipartUpload' };
    if (method === 'GET') return { op: 'ListMultipartUploads' };
  }
  switch (method) {
    case 'GET':
    case 'HEAD':
      // `partNumber` reads one part (objects.ts, readObject).
      if (method === 'GET') subresourceError(q, method);
      return { op: method === 'GET' ? 'GetObject' : 'HeadObject' };
    case 'PUT':
      subresourceError(q, method);
      return { op: headers.has('x-amz-copy-source') ? 'CopyObject' : 'PutObject' };
    case 'POST':
      return { op: 'PutObject' };
    case 'DELETE':
      return { op: 'DeleteObject' };
    default:
      throw s3Errors.routeNotFound();
  }
}
