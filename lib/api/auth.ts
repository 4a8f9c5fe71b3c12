/**
 * Authentication: `Authorization: Bearer <token>` or `X-Auth-Email` + `X-Auth-Key`, with the API's
 * distinct errors for missing, malformed and unknown credentials, and per-credential scopes (the
 * accounts and the zones a credential reaches). Every route of the `/client/v4` router asks here;
 * the table of credentials is the account's (lib/account/credentials.ts).
 */
import { apiErrors, type ApiError } from './errors.js';
import type { ApiCredential, R2Permission } from './types.js';

/** Who is calling, and what they may see; `null` = no limit of that kind. */
export interface Principal {
  kind: 'token' | 'key';
  /** The zones (ids or names) the credential is limited to. */
  zones: ReadonlySet<string> | null;
  /** The accounts (ids or names) the credential is limited to. */
  accounts: ReadonlySet<string> | null;
  /** A token's id (what `/user/tokens/verify` reports): stable per token, 32 hex. */
  tokenId?: string;
  /** Who is counted for rate limiting: the token, or the account e-mail. */
  caller: string;
  /** The user's e-mail, where `GET /user` may answer it: a global key's, or a token's `user`. */
  email?: string;
  /** What it may do with R2's control plane (api/types.ts `R2Permission`); absent: `'write'`. */
  r2?: R2Permission;
}

/** What authentication reads of the account's table of credentials (lib/account/credentials.ts). */
export interface CredentialTable {
  /** Whether any well-formed credential passes (no table given, none added). */
  readonly open: boolean;
  /** The principal of a known token. */
  token(token: string): Principal | undefined;
  /** The principal of a known e-mail and global key. */
  key(email: string, key: string): Principal | undefined;
  /** Accepts one more credential (switches off "any well-formed credential"). */
  add(credential: ApiCredential): void;
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Real global keys are 37 hex characters; an unknown key of another shape is "malformed".
const GLOBAL_KEY = /^[0-9a-f]{37}$/i;

/**
 * The caller `headers` name in `credentials` (the account's table), or the API's error. When several
 * schemes are sent, either valid one suffices. A well-formed token the API does not know is
 * `1000 Invalid API Token` on `/user/tokens/verify` and `9109 Invalid access token` (403) everywhere
 * else, as clients see it on zones and records (certbot's dns-cloudflare maps 9109 to "Did you enter a
 * valid Cloudflare Token?").
 */
export function authenticate(
  credentials: CredentialTable,
  headers: { get(name: string): string | null },
  endpoint: 'verify' | 'resource' = 'resource',
): Principal {
  const authorization = headers.get('authorization');
  const email = headers.get('x-auth-email');
  const key = headers.get('x-auth-key');
  if (authorization === null && email === null && key === null) throw apiErrors.missingAuth();

  let failure: ApiError | undefined;
  if (authorization !== null) {
    const m = BEARER.exec(authorization.trim());
    if (!m) failure = apiErrors.badAuthorizationHeader();
    else {
      const p = credentials.token(m[1]!);
      if (p) return p;
      failure = endpoint === 'verify' ? apiErrors.invalidToken() : apiErrors.invalidAccessToken();
    }
  }
  if (email !== null || key !== null) {
    let keyFailure: ApiError;
    if (email === null || key === null) keyFailure = apiErrors.missingAuth();
    else if (!EMAIL.test(email)) keyFailure = apiErrors.badAuthEmailHeader();
    else {
      const known = credentials.key(email, key);
      if (known) return known;
      if (credentials.open && key !== '' && !/\s/.test(key))
        return { kind: 'key', zones: null, accounts: null, caller: `user ${email.toLowerCase()}`, email };
      keyFailure = GLOBAL_KEY.test(key) ? apiErrors.unknownKey() : apiErrors.badAuthKeyHeader();
    }
    failure ??= keyFailure;
  }
  throw failure!;
}

interface Named {
  readonly id: string;
  readonly name: string;
}

/** Whether the credential reaches an account: no account limit, or the account named in it. */
export const canSeeAccount = (p: Principal, account: Named): boolean =>
  p.accounts === null || p.accounts.has(account.id) || p.accounts.has(account.name);

/** Whether the credential reaches a zone of `account`: both its account and its zone limits allow it. */
export const canSee = (p: Principal, zone: Named, account: Named): boolean =>
  canSeeAccount(p, account) && (p.zones === null || p.zones.has(zone.id) || p.zones.has(zone.name));
