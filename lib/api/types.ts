/**
 * The `/client/v4` front door's public types, one product's no more than another's: who may call
 * (`ApiCredential`, `R2Permission`) and what the front door reads of a double's options
 * (`FrontDoorOptions`; the public `ApiOptions` holds the account, so it lives above it, in
 * lib/dns-api/options.ts).
 */
import type { Clock } from '../clock.js';

/**
 * A credential the double accepts. `zones` (ids or names) limits it to those zones, `accounts` (ids
 * or names) to those accounts' zones and the accounts themselves; absent means no limit of that
 * kind. A token's `user` is the e-mail of the user it belongs to and gives it the User Details Read
 * permission, so `GET /user` answers that user; without it `GET /user` is 403 9109. A token's `r2`
 * is its R2 permission (below).
 */
export type ApiCredential =
  | { email: string; key: string; zones?: readonly string[]; accounts?: readonly string[] }
  | { token: string; zones?: readonly string[]; accounts?: readonly string[]; user?: string; r2?: R2Permission };

/**
 * What a token may do with R2's control plane (the `/accounts/{id}/r2/...` routes): `'write'` is
 * "Workers R2 Storage Write" (every route), `'read'` "Workers R2 Storage Read" (GETs only), `'none'` a
 * token without either. Absent: `'write'`, so a credential written before R2 keeps its reach. A
 * global key (email + key) owns its account: always `'write'`.
 */
export type R2Permission = 'none' | 'read' | 'write';

/**
 * What the front door itself reads of an API double's options (the public `ApiOptions`, with the
 * account and the credentials the assemblies handle, is lib/dns-api/options.ts): see each there.
 */
export interface FrontDoorOptions {
  basePath?: string | undefined;
  clock?: Clock | undefined;
  log?: boolean | undefined;
  rateLimit?: boolean | { requests: number; windowMs: number } | undefined;
}
