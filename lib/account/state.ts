/**
 * What the views of an `Account` share (account.ts), apart from the class: a view that only reads
 * and changes the account's buckets (the S3 view) imports this, not the account class and its
 * credentials (credentials.ts), so its bundle stays its own (bench/bundle-size.ts). Internal: never
 * shown on `Account`.
 */
// Types only: the DNS entry point must not pull the bucket model into its bundle.
import type { Credentials } from './credentials.js';
import type { Account } from './account.js';
import type { AccountEvents } from './events.js';
import type { BackendHost, Backends } from '../support/backend.js';

/**
 * What the views share. Internal: reached through `accountState`, never shown on `Account`. It is
 * the host of the account's product backends (lib/support/backend.ts), each of which alone owns its
 * product's state; the product maps below move into their backends (issue 34).
 */
export interface AccountState extends BackendHost {
  readonly id: string;
  readonly name: string;
  readonly created: number;
  /** The product backends made so far, captured, restored and reset together. */
  readonly backends: Backends;
  readonly credentials: Credentials;
  /** Events between products: a bucket's changes reaching its notification rules' queues (events.ts). */
  readonly events: AccountEvents;
  /** `AccountOptions.notifyMissingKeyDeletes`. */
  readonly notifyMissingKeyDeletes: boolean;
}

/** Set by the Account constructor. */
export const accountStates = new WeakMap<Account, AccountState>();

export const accountState = (account: Account): AccountState => {
  const s = accountStates.get(account);
  if (!s) throw new TypeError('not an edge-doubles Account');
  return s;
};

/** Anything that serves an account (`CloudflareApi`, `DnsApi`): what `createEnv(config, { api })` and `new S3Api({ api })` take. */
export interface AccountHolder {
  readonly account: Account;
}

/** The account `options` name, by `account` or by `api` (one, or both the same); `who` names the caller in the error. */
export function chosenAccount(
  options: { account?: Account | undefined; api?: AccountHolder | undefined },
  who: string,
): Account | undefined {
  const fromApi = options.api?.account;
  if (options.account !== undefined && fromApi !== undefined && options.account !== fromApi) {
    throw new Error(`${who}: account and api name two accounts; give one (an api's account is api.account)`);
  }
  return options.account ?? fromApi;
}
