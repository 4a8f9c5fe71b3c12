/**
 * R2's temporary access credentials, as the account keeps them (issue 28, point 4): minted by the
 * API (`POST /accounts/{id}/r2/temp-access-credentials`, lib/r2-api/temp-credentials.ts) and
 * accepted by the S3 view (lib/s3/temporary-access.ts) with `x-amz-security-token`, until they
 * expire on the double's clock, within the bucket, paths and permission they were minted with.
 *
 * Kept beside the account's state rather than in it, so that an account that never mints any
 * carries nothing of them, and the S3 view's bundle takes only this small table.
 *
 * The shape follows R2's documentation (developers.cloudflare.com/r2/api/s3/temporary-credentials/;
 * docs/sources/r2-s3.md#authentication): the parent's access key id is reused; the session token is
 * `base64("jwt/" + jwt)` and the secret the SHA-256 hex of that JWT. Production signs the JWT with
 * HS256 under the parent's secret with claims it does not document; here the JWT carries the grant
 * as the double's own claims and a signature of its own (the token is opaque to every client, and the
 * double finds the grant by the token, never by reading it back).
 */
import { toBase64, utf8 } from '../bytes.js';
import { digestHex } from '../hash.js';
import { randomBase64Url } from '../random.js';
import type { Jurisdiction } from '../bucket/backend.js';
import type { BackendHost } from '../support/backend.js';

export const TEMPORARY_PERMISSIONS = [
  'admin-read-write',
  'admin-read-only',
  'object-read-write',
  'object-read-only',
] as const;
export type TemporaryPermission = (typeof TEMPORARY_PERMISSIONS)[number];

/** What one set of temporary credentials may do. */
export interface TemporaryGrant {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
  readonly bucket: string;
  readonly jurisdiction: Jurisdiction;
  readonly permission: TemporaryPermission;
  /** Key prefixes the credentials reach (with `objects`, either admits a key); none: the whole bucket. */
  readonly prefixes: readonly string[];
  /** Exact keys the credentials reach. */
  readonly objects: readonly string[];
  /** Epoch ms on the account's clock past which they are refused. */
  readonly expires: number;
}

export interface TemporaryTable {
  /** Grants by session token. Expired ones are dropped as they are met (and when minting). */
  readonly grants: Map<string, TemporaryGrant>;
  /**
   * Parent access key ids the account's S3 views were given (`S3Api({ credentials })`), with their
   * secrets: minting checks the parent against them. None: every parent id is taken, as every
   * well-formed signature is.
   */
  readonly parents: Map<string, string>;
  /** Rises on every change to either map: `--persist` (lib/node/persist) writes what moved. */
  changes: number;
}

const tables = new WeakMap<BackendHost, TemporaryTable>();

function tableOf(state: BackendHost): TemporaryTable {
  let t = tables.get(state);
  if (!t) tables.set(state, (t = { grants: new Map(), parents: new Map(), changes: 0 }));
  return t;
}

/** Records the key pairs an S3 view of the account accepts: the parents temporary credentials may name. */
export function addParentKeys(
  state: BackendHost,
  keys: readonly { accessKeyId: string; secretAccessKey: string; sessionToken?: string }[],
): void {
  const table = tableOf(state);
  table.changes++;
  for (const k of keys) if (k.sessionToken === undefined) table.parents.set(k.accessKeyId, k.secretAccessKey);
}

/** The account's table as it is, for reading (`--persist`); undefined while it holds nothing. */
export const temporaryTable = (state: BackendHost): Readonly<TemporaryTable> | undefined => tables.get(state);

/** Takes in persisted grants and parents (`--persist`): the account's own stay. */
export function adoptTemporary(
  state: BackendHost,
  parents: Iterable<readonly [string, string]>,
  grants: Iterable<TemporaryGrant>,
): void {
  const table = tableOf(state);
  table.changes++;
  for (const [id, secret] of parents) if (!table.parents.has(id)) table.parents.set(id, secret);
  for (const g of grants) if (!table.grants.has(g.sessionToken)) table.grants.set(g.sessionToken, g);
}

/** Whether `accessKeyId` may be a parent: one of the S3 views' keys, or any when none were given. */
export function parentKnown(state: BackendHost, accessKeyId: string): boolean {
  const parents = tables.get(state)?.parents;
  return !parents || parents.size === 0 || parents.has(accessKeyId);
}

const base64Url = (s: string) => toBase64(utf8(s)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Mints credentials for a grant checked by the caller (the API route), good until `expires`. */
export function mintTemporaryCredentials(
  state: BackendHost,
  grant: Omit<TemporaryGrant, 'accessKeyId' | 'secretAccessKey' | 'sessionToken'> & { parentAccessKeyId: string },
): TemporaryGrant {
  const table = tableOf(state);
  table.changes++;
  const now = state.now();
  for (const [token, g] of table.grants) if (g.expires < now) table.grants.delete(token);
  const { parentAccessKeyId, ...scope } = grant;
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = base64Url(
    JSON.stringify({
      sub: parentAccessKeyId,
      bucket: scope.bucket,
      permission: scope.permission,
      ...(scope.prefixes.length ? { prefixes: scope.prefixes } : {}),
      ...(scope.objects.length ? { objects: scope.objects } : {}),
      exp: Math.floor(scope.expires / 1000),
      jti: randomBase64Url(16),
    }),
  );
  const jwt = `${header}.${claims}.${randomBase64Url(32)}`;
  const minted: TemporaryGrant = {
    ...scope,
    accessKeyId: parentAccessKeyId,
    secretAccessKey: digestHex('sha256', jwt),
    sessionToken: toBase64(utf8(`jwt/${jwt}`)),
  };
  table.grants.set(minted.sessionToken, minted);
  return minted;
}

/** The grant a session token names for `accessKeyId`, expired or not; undefined when it names none. */
export function temporaryGrant(
  state: BackendHost,
  accessKeyId: string,
  sessionToken: string,
): TemporaryGrant | undefined {
  const grant = tables.get(state)?.grants.get(sessionToken);
  return grant && grant.accessKeyId === accessKeyId ? grant : undefined;
}
