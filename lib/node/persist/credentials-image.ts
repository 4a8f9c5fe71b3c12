/**
 * The account itself in the persisted image (`--persist`): its id, name, created time and
 * `notifyMissingKeyDeletes`, the id sequence (lib/account/ids.ts) so ids derived after a restart
 * never repeat persisted ones, the credential table (tokens, email + key), and R2's temporary
 * credentials with the S3 key pairs they may name as parents.
 *
 * Keys: `account`, `ids`, `credentials` (the table, one value: it changes only when a test or the
 * CLI adds one), `temp/parents`, `temp/grant/<sha-256 of the session token>` (one per grant: a
 * session token is unbounded in length, its digest is not).
 *
 * Cost of a write that finds nothing changed: three number compares.
 */
import type { AccountState } from '../../account/state.js';
import { idSequence } from '../../account/ids.js';
import type { CredentialsImage } from '../../account/credentials.js';
import { adoptTemporary, temporaryTable, type TemporaryGrant } from '../../account/temporary-credentials.js';
import { digestHex } from '../../hash.js';
import { valuesUnder, type ImagePart, type ImageStore } from './image-store.js';

/** The account as persisted. */
export interface AccountRecord {
  id: string;
  name: string;
  created: number;
  notifyMissingKeyDeletes: boolean;
}

const grantKey = (sessionToken: string) => `temp/grant/${digestHex('sha256', sessionToken)}`;

export class CredentialsPart implements ImagePart {
  readonly #state: AccountState;
  #accountWritten = false;
  #ids = -1;
  #credentials = -1;
  #temporary = -1;
  /** The grants last written, by session token. */
  #grants = new Map<string, TemporaryGrant>();

  constructor(state: AccountState) {
    this.#state = state;
  }

  write(store: ImageStore): boolean {
    const state = this.#state;
    let wrote = false;
    if (!this.#accountWritten) {
      const record: AccountRecord = {
        id: state.id,
        name: state.name,
        created: state.created,
        notifyMissingKeyDeletes: state.notifyMissingKeyDeletes,
      };
      store.put('account', record);
      this.#accountWritten = wrote = true;
    }
    if (idSequence.now !== this.#ids) {
      store.put('ids', (this.#ids = idSequence.now));
      wrote = true;
    }
    if (state.credentials.changes !== this.#credentials) {
      store.put('credentials', state.credentials.image());
      this.#credentials = state.credentials.changes;
      wrote = true;
    }
    const temporary = temporaryTable(state);
    if (temporary && temporary.changes !== this.#temporary) {
      this.#temporary = temporary.changes;
      store.put('temp/parents', [...temporary.parents]);
      // O(grants), only when the table changed (a mint, which also drops expired grants).
      for (const [token, g] of temporary.grants)
        if (this.#grants.get(token) !== g) store.put(grantKey(token), { ...g });
      for (const token of this.#grants.keys()) if (!temporary.grants.has(token)) store.remove(grantKey(token));
      this.#grants = new Map(temporary.grants);
      wrote = true;
    }
    return wrote;
  }
}

/** The account as persisted; undefined when nothing is. */
export function accountRecord(store: ImageStore): AccountRecord | undefined {
  return store.get('account') as AccountRecord | undefined;
}

/** Brings back the id sequence, the credentials and the temporary credentials (joining those the account has). */
export function loadCredentials(store: ImageStore, state: AccountState): void {
  const ids = store.get('ids');
  if (typeof ids === 'number') idSequence.continueFrom(ids);
  const credentials = store.get('credentials') as CredentialsImage | undefined;
  if (credentials) state.credentials.adopt(credentials);
  const parents = (store.get('temp/parents') as [string, string][] | undefined) ?? [];
  const grants = valuesUnder(store, 'temp/grant/') as TemporaryGrant[];
  if (parents.length || grants.length) adoptTemporary(state, parents, grants);
}
