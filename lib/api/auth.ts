/**
 * Credentials: `Authorization: Bearer <token>` or `X-Auth-Email` + `X-Auth-Key`, with the API's
 * distinct errors for missing, malformed and unknown credentials, and per-credential scopes (the
 * accounts and the zones a credential reaches). Every route of the `/client/v4` router asks here.
 */
import { toHex, utf8 } from '../bytes.js';
import { digest } from '../hash.js';
import { asciiName } from '../dns/names.js';
import type { DnsCredential, R2Permission } from '../dns/types.js';
import { apiErrors as dnsErrors, type DnsApiError } from './errors.js';

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
  /** What it may do with R2's control plane (types.ts `R2Permission`); absent: `'write'`. */
  r2?: R2Permission;
}

const tokenId = (token: string) => toHex(digest('md5', utf8(`edge-doubles token ${token}`)));

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Real global keys are 37 hex characters; an unknown key of another shape is "malformed".
const GLOBAL_KEY = /^[0-9a-f]{37}$/i;

export class Credentials {
  /**
   * No table: any well-formed credential passes (the default when `credentials` is not given) until
   * the first credential is added, which makes the table the only way in.
   */
  private open: boolean;
  private readonly tokens = new Map<string, Principal>();
  private readonly keys = new Map<string, Principal>();

  constructor(list: readonly DnsCredential[] | undefined) {
    this.open = list === undefined;
    for (const c of list ?? []) this.add(c);
  }

  add(c: DnsCredential): void {
    this.open = false;
    // Names as zones are given to the constructor (capitals, trailing dot, Unicode) must still match.
    const zones = c.zones ? new Set(c.zones.map((z) => asciiName(z.trim()) ?? z.toLowerCase())) : null;
    // Account names are shown as given (`account.name` on a zone), so they match as given.
    const accounts = c.accounts ? new Set(c.accounts) : null;
    if ('token' in c) {
      const id = tokenId(c.token);
      const p: Principal = { kind: 'token', zones, accounts, tokenId: id, caller: `token ${id}` };
      if (c.user !== undefined) p.email = c.user;
      if (c.r2 !== undefined) p.r2 = c.r2;
      this.tokens.set(c.token, p);
    } else {
      this.keys.set(`${c.email.toLowerCase()}\n${c.key}`, { kind: 'key', zones, accounts, caller: `user ${c.email.toLowerCase()}`, email: c.email });
    }
  }

  /** The table now (configuration, for an account's snapshot): O(credentials). */
  snapshot(): object {
    return Object.freeze({ open: this.open, tokens: new Map(this.tokens), keys: new Map(this.keys) });
  }

  /** Brings back a `snapshot` of this table: credentials added since are gone. */
  restore(snapshot: object): void {
    const s = snapshot as { open: boolean; tokens: Map<string, Principal>; keys: Map<string, Principal> };
    this.open = s.open;
    this.tokens.clear();
    this.keys.clear();
    for (const [k, p] of s.tokens) this.tokens.set(k, p);
    for (const [k, p] of s.keys) this.keys.set(k, p);
  }

  /**
   * The caller, or the API's error. When several schemes are sent, either valid one suffices.
   * A well-formed token the API does not know is `1000 Invalid API Token` on `/user/tokens/verify`
   * and `9109 Invalid access token` (403) everywhere else, as clients see it on zones and records
   * (certbot's dns-cloudflare maps 9109 to "Did you enter a valid Cloudflare Token?").
   */
  authenticate(headers: { get(name: string): string | null }, endpoint: 'verify' | 'resource' = 'resource'): Principal {
    const authorization = headers.get('authorization');
    const email = headers.get('x-auth-email');
    const key = headers.get('x-auth-key');
    if (authorization === null && email === null && key === null) throw dnsErrors.missingAuth();

    let failure: DnsApiError | undefined;
    if (authorization !== null) {
      const m = BEARER.exec(authorization.trim());
      if (!m) failure = dnsErrors.badAuthorizationHeader();
      else {
        const id = this.open ? tokenId(m[1]!) : '';
        const p = this.open ? { kind: 'token' as const, zones: null, accounts: null, tokenId: id, caller: `token ${id}` } : this.tokens.get(m[1]!);
        if (p) return p;
        failure = endpoint === 'verify' ? dnsErrors.invalidToken() : dnsErrors.invalidAccessToken();
      }
    }
    if (email !== null || key !== null) {
      let keyFailure: DnsApiError;
      if (email === null || key === null) keyFailure = dnsErrors.missingAuth();
      else if (!EMAIL.test(email)) keyFailure = dnsErrors.badAuthEmailHeader();
      else {
        const known = this.keys.get(`${email.toLowerCase()}\n${key}`);
        if (known) return known;
        if (this.open && key !== '' && !/\s/.test(key)) return { kind: 'key', zones: null, accounts: null, caller: `user ${email.toLowerCase()}`, email };
        keyFailure = GLOBAL_KEY.test(key) ? dnsErrors.unknownKey() : dnsErrors.badAuthKeyHeader();
      }
      failure ??= keyFailure;
    }
    throw failure!;
  }
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
