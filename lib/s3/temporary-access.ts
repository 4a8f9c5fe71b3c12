/**
 * The S3 view's side of R2's temporary credentials (issue 28, point 4; minted by the API,
 * lib/r2-api/temp-credentials.ts, kept by the account, lib/account/temporary-credentials.ts).
 *
 * A request carrying `x-amz-security-token` (header, or `X-Amz-Security-Token` in a presigned URL)
 * that names minted credentials is signed with their secret (sigv4.ts asks `temporaryCredential`),
 * refused once they expire on the double's clock, and then held to their grant (`enforceGrant`):
 * the one bucket, the paths, and the permission they were minted with.
 *
 * R2 documents the four permissions as its token scopes (r2/api/tokens: Admin R/W, Admin R, Object
 * R/W, Object R) and a request outside a token's scope as 403 AccessDenied (r2/api/error-codes,
 * 10003). What it answers for an expired temporary credential is not documented
 * (docs/sources/r2-s3.md#authentication): S3's answer is followed, 400 `ExpiredToken` "The provided
 * token has expired.", which the AWS SDKs recognise as a reason to fetch new credentials. Declared
 * in the conformance differences.
 *
 * Our reading where R2 documents nothing finer (declared there too): the object permissions reach
 * objects, listings and multipart uploads, never bucket settings; the admin ones reach the bucket's
 * settings too, but never another bucket (nor creating one); a listing under path-scoped credentials
 * must ask for a `prefix` inside a granted prefix (or equal to a granted key); a copy's source must be
 * in the same grant; a DeleteObjects naming any key outside the grant is refused whole.
 */
import type { AccountState } from '../account/state.js';
import { temporaryGrant, type TemporaryGrant } from '../account/temporary-credentials.js';
import { s3Errors } from './errors.js';
import type { Operation } from './routes.js';

export type { TemporaryGrant };

const accessDenied = s3Errors.accessDenied;

/** What sigv4.ts asks of a session token: the secret to check the signature with, and the grant to enforce. */
export type TemporaryLookup = (accessKeyId: string, sessionToken: string) => TemporaryGrant | undefined;

/** The lookup over an account's minted credentials, expiry judged by `now` (the double's clock). */
export function temporaryCredential(state: AccountState, now: () => number): TemporaryLookup {
  return (accessKeyId, token) => {
    const grant = temporaryGrant(state, accessKeyId, token);
    if (grant && now() > grant.expires) throw s3Errors.expiredToken();
    return grant;
  };
}

/** Whether a key is within the grant's paths (all keys when it names none). */
export function grantCovers(grant: TemporaryGrant, key: string): boolean {
  if (grant.prefixes.length === 0 && grant.objects.length === 0) return true;
  return grant.objects.includes(key) || grant.prefixes.some((p) => key.startsWith(p));
}

type Need = 'object-read' | 'object-write' | 'admin-read' | 'admin-write';

/** What each operation needs. Keyed operations are judged against their key too. */
function need(o: Operation, method: string): Need {
  switch (o.op) {
    case 'HeadBucket':
    case 'GetBucketLocation':
    case 'ListObjects':
    case 'ListMultipartUploads':
    case 'GetObject':
    case 'HeadObject':
    case 'ListParts':
      return 'object-read';
    case 'PutObject':
    case 'CopyObject':
    case 'DeleteObject':
    case 'DeleteObjects':
    case 'CreateMultipartUpload':
    case 'UploadPart':
    case 'UploadPartCopy':
    case 'CompleteMultipartUpload':
    case 'AbortMultipartUpload':
      return 'object-write';
    case 'GetBucketCors':
    case 'GetBucketLifecycleConfiguration':
      return 'admin-read';
    case 'BucketConfig':
      return method === 'GET' || method === 'HEAD' ? 'admin-read' : 'admin-write';
    case 'PutBucketCors':
    case 'DeleteBucketCors':
    case 'PutBucketLifecycleConfiguration':
    case 'DeleteBucketLifecycle':
    case 'DeleteBucket':
    case 'CreateBucket':
    case 'PostBucket':
      return 'admin-write';
  }
}

const GRANTED: Record<TemporaryGrant['permission'], readonly Need[]> = {
  'admin-read-write': ['object-read', 'object-write', 'admin-read', 'admin-write'],
  'admin-read-only': ['object-read', 'admin-read'],
  'object-read-write': ['object-read', 'object-write'],
  'object-read-only': ['object-read'],
};

/** What a request asks, as the S3 view routed it. `operation` is undefined for ListBuckets. */
export interface GrantedRequest {
  readonly method: string;
  readonly bucket: string | undefined;
  readonly jurisdiction: string;
  readonly key: string;
  readonly operation: Operation | undefined;
  readonly query: URLSearchParams;
  /** A copy's source (`x-amz-copy-source`), parsed by the caller when the operation copies. */
  readonly copySource?: () => { bucket: string; key: string };
}

/** Refuses (403 AccessDenied) a request outside the grant's bucket, paths or permission. */
export function enforceGrant(grant: TemporaryGrant, r: GrantedRequest): void {
  const granted = GRANTED[grant.permission];
  // ListBuckets: the bucket's name is the admin's to see; CreateBucket never (another bucket).
  if (r.bucket === undefined || r.operation === undefined) {
    if (!granted.includes('admin-read')) throw accessDenied();
    return;
  }
  if (r.bucket !== grant.bucket || r.jurisdiction !== grant.jurisdiction || r.operation.op === 'CreateBucket')
    throw accessDenied();
  if (!granted.includes(need(r.operation, r.method))) throw accessDenied();
  if (r.key !== '' && !grantCovers(grant, r.key)) throw accessDenied();
  const op = r.operation.op;
  if ((op === 'ListObjects' || op === 'ListMultipartUploads') && (grant.prefixes.length || grant.objects.length)) {
    const prefix = r.query.get('prefix') ?? '';
    if (!grant.prefixes.some((p) => prefix.startsWith(p)) && !grant.objects.includes(prefix)) throw accessDenied();
  }
  if ((op === 'CopyObject' || op === 'UploadPartCopy') && r.copySource) {
    const src = r.copySource();
    if (src.bucket !== grant.bucket || !grantCovers(grant, src.key)) throw accessDenied();
  }
}
