/** How an account looks on the wire. */
import { timestamp } from '../dns/present.js';

/** `GET /accounts` items and `GET /accounts/{id}`'s result: the fields of the `cloudflare` SDK's `Account` type. */
export interface AccountInfo {
  id: string;
  name: string;
  type: 'standard' | 'enterprise';
  created_on: string;
  settings: { enforce_twofactor: boolean };
}

export const presentAccount = (a: {
  readonly id: string;
  readonly name: string;
  readonly created: number;
}): AccountInfo => ({
  id: a.id,
  name: a.name,
  type: 'standard',
  created_on: timestamp(a.created),
  settings: { enforce_twofactor: false },
});
