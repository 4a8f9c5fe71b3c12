/**
 * Bucket-level operations: ListBuckets, HeadBucket, GetBucketLocation, and the fixed answers R2
 * gives for bucket configuration it does not keep (docs/sources/r2-s3.md#bucket-answers).
 */
import { notImplemented, S3Error } from './errors.js';
import { isoTime, xmlResponse } from './context.js';
import { readMaxKeys, isIgnoredParam } from './listing.js';

export interface BucketEntry {
  readonly name: string;
  readonly created: number;
}

/** ListBuckets with R2's extension parameters (prefix, start-after, continuation-token, max-keys). */
export function listBuckets(
  all: readonly BucketEntry[],
  query: URLSearchParams,
  headers: Headers,
  owner: string,
): Response {
  // R2 reads the extensions from headers too (`cf-prefix`, ...), and headers win.
  const param = (name: string) => headers.get(`cf-${name}`) ?? query.get(name);
  for (const name of query.keys()) {
    if (!['prefix', 'start-after', 'continuation-token', 'max-keys'].includes(name) && !isIgnoredParam(name)) {
      throw notImplemented(`ListBuckets search parameter ${name}`);
    }
  }
  const prefix = param('prefix') ?? '';
  const token = param('continuation-token');
  const after = token !== null ? decodeToken(token) : (param('start-after') ?? '');
  const { echo, limit } = readMaxKeys(param('max-keys'));
  const matching = [...all]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .filter((b) => b.name.startsWith(prefix) && b.name > after);
  const page = matching.slice(0, limit);
  const truncated = matching.length > page.length;
  const content: Record<string, unknown> = {
    Buckets: { Bucket: page.map((b) => ({ Name: b.name, CreationDate: isoTime(b.created) })) },
    Owner: { ID: owner, DisplayName: owner },
  };
  const extra: Record<string, string> = {};
  if (query.has('max-keys') || headers.has('cf-max-keys') || truncated) {
    content.IsTruncated = truncated;
    content.MaxKeys = echo;
    extra['cf-is-truncated'] = String(truncated);
  }
  if (truncated) {
    const next = encodeToken(page[page.length - 1]!.name);
    content.NextContinuationToken = next;
    extra['cf-next-continuation-token'] = next;
  }
  return xmlResponse('ListAllMyBucketsResult', content, extra);
}

const encodeToken = (name: string) => btoa(name);
const decodeToken = (token: string) => {
  try {
    return atob(token);
  } catch {
    return '';
  }
};

/** GET `/<bucket>?<config>` answers R2 gives without keeping the configuration. */
export function bucketConfig(name: string): Response {
  switch (name) {
    case 'encryption':
      return xmlResponse('ServerSideEncryptionConfiguration', {
        Rule: { ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' }, BucketKeyEnabled: true },
      });
    case 'versioning':
      return xmlResponse('VersioningConfiguration', '');
    case 'tagging':
      throw new S3Error(404, 'NoSuchTagSet', 'The TagSet does not exist.');
    case 'object-lock':
      throw new S3Error(
        404,
        'ObjectLockConfigurationNotFoundError',
        'Object Lock configuration does not exist for this bucket.',
      );
    default:
      throw new S3Error(404, 'ReplicationConfigurationNotFoundError', 'The replication configuration was not found.');
  }
}
