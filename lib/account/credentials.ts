/**
 * The credentials an account accepts, and what each reaches (the accounts and zones it is limited
 * to, its R2 permission): the account's table, which every view of the account shares. How a
 * request's headers are read against it, and the API's errors when they fail, are the front door's
 * (lib/api/auth.ts).
 */
import { toHex, utf8 } from '../bytes.js';
import { digest } from '../hash.js';
import { asciiName } from '../dns/names.js';
import type { ApiCredential } from '../api/types.js';
import type { CredentialTable, Principal } from '../api/auth.js';

/** A principal as plain data. */
type PrincipalImage = Omit<Principal, 'zones' | 'accounts'> & {
  zones: string[] | null;
  accounts: string[] | null;
};

/** The table as plain data: `image()`, `adopt()`. */
export interface CredentialsImage {
  open: boolean;
  tokens: [string, PrincipalImage][];
  keys: [string, PrincipalImage][];
}

const tokenId = (token: string) => toHex(digest('md5', utf8(`edge-doubles token ${token}`)));

export class Credentials implements CredentialTable {
  /**
   * No table: any well-formed credential passes (the default when `credentials` is not given) until
   * the first credential is added, which makes the table the only way in.
   */
  private isOpen: boolean;
  private readonly tokens = new Map<string, Principal>();
  private readonly keys = new Map<string, Principal>();
  /** Rises on every change to the table (an add, a restore, an adopt): `--persist` writes the table when it moved. */
  changes = 0;

  constructor(list: readonly ApiCredential[] | undefined) {
    this.isOpen = list === undefined;
    for (const c of list ?? []) this.add(c);
  }

  /** Whether any well-formed credential passes (no table given, none added). */
  get open(): boolean {
    return this.isOpen;
  }

  add(c: ApiCredential): void {
    this.changes++;
    this.isOpen = false;
    // Names as zones are given to the constructor (capitals, trailing dot, Unicode) must still match.
    const zones = c.zones ? new Set(c.zones.map((z) => asciiName(z.trim()) ?? z.toLowerCase())) : null;
    // Account names are shown as given (`account.name` on a zone), so they match as given.
    const accounts = c.accounts ? new Set(c.accounts) : null;
    if ('token' in c) {
      const p: Principal = { kind: 'token', zones, accounts, ...tokenPrincipal(c.token) };
      if (c.user !== undefined) p.email = c.user;
      if (c.r2 !== undefined) p.r2 = c.r2;
      this.tokens.set(c.token, p);
    } else {
      this.keys.set(`${c.email.toLowerCase()}\n${c.key}`, {
        kind: 'key',
        zones,
        accounts,
        caller: `user ${c.email.toLowerCase()}`,
        email: c.email,
      });
    }
  }

  /** The table now (configuration, for an account's snapshot): O(credentials). */
  snapshot(): object {
    return Object.freeze({ open: this.isOpen, tokens: new Map(this.tokens), keys: new Map(this.keys) });
  }

  /** Brings back a `snapshot` of this table: credentials added since are gone. */
  restore(snapshot: object): void {
    const s = snapshot as { open: boolean; tokens: Map<string, Principal>; keys: Map<string, Principal> };
    this.changes++;
    this.isOpen = s.open;
    this.tokens.clear();
    this.keys.clear();
    for (const [k, p] of s.tokens) this.tokens.set(k, p);
    for (const [k, p] of s.keys) this.keys.set(k, p);
  }

  /** The table as plain data (`--persist`, lib/node/persist): O(credentials). */
  image(): CredentialsImage {
    const plain = (m: Map<string, Principal>) =>
      [...m].map(([k, p]): [string, PrincipalImage] => [
        k,
        { ...p, zones: p.zones && [...p.zones], accounts: p.accounts && [...p.accounts] },
      ]);
    return { open: this.isOpen, tokens: plain(this.tokens), keys: plain(this.keys) };
  }

  /**
   * Takes in a persisted `image`: its credentials join the table's (a server's own, given again at
   * start, stay), and the table is open only when both were.
   */
  adopt(image: CredentialsImage): void {
    this.changes++;
    this.isOpen = this.isOpen && image.open;
    const principal = (p: PrincipalImage): Principal => ({
      ...p,
      zones: p.zones && new Set(p.zones),
      accounts: p.accounts && new Set(p.accounts),
    });
    for (const [k, p] of image.tokens) if (!this.tokens.has(k)) this.tokens.set(k, principal(p));
    for (const [k, p] of image.keys) if (!this.keys.has(k)) this.keys.set(k, principal(p));
  }

  /** The principal a bearer token is: the table's, or, while the table is open, an unlimited one. */
  token(token: string): Principal | undefined {
    if (this.isOpen) return { kind: 'token', zones: null, accounts: null, ...tokenPrincipal(token) };
    return this.tokens.get(token);
  }

  /** The principal a global key is, when the table has it. */
  key(email: string, key: string): Principal | undefined {
    return this.keys.get(`${email.toLowerCase()}\n${key}`);
  }
}

function tokenPrincipal(token: string): { tokenId: string; caller: string } {
  const id = tokenId(token);
  return { tokenId: id, caller: `token ${id}` };
}
