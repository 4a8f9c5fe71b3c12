/**
 * The account's routes of the `/client/v4` router (lib/api/router.ts): the accounts a credential
 * reaches, the user, and token verification. R2's control plane (`/accounts/{id}/r2/buckets...`)
 * is the next table beside this one.
 */
import { canSee, canSeeAccount } from '../api/auth.js';
import { json, ok, paging } from '../api/envelope.js';
import { apiErrors } from '../api/errors.js';
import { positiveParam, type ApiService, type Handler, type Route, type RouteTable } from '../api/router.js';
import { presentUser } from '../dns/present.js';
import { DNS } from '../dns/backend.js';
import { HEX32 } from './ids.js';
import { presentAccount } from './present.js';

export const accountRoutes: RouteTable<ApiService> = (segments): Route<ApiService> | undefined => {
  const first = segments[0];
  const second = segments[1];
  if (first === 'accounts') {
    if (segments.length === 1) return { methods: { GET: listAccounts } };
    // Account ids are 32 hex, as zone ids: anything else is the route error (7003).
    if (segments.length === 2 && HEX32.test(second!)) return { methods: { GET: getAccount }, accountId: second! };
    return undefined;
  }
  if (first !== 'user') return undefined;
  if (segments.length === 1) return { methods: { GET: getUser } };
  if (segments.length === 3 && second === 'tokens' && segments[2] === 'verify')
    return { methods: { GET: verifyToken }, endpoint: 'verify' };
  return undefined;
};

/**
 * The accounts the credential reaches: this double serves one, listed unless the credential is
 * limited to other accounts or `name` names another (AccountListParams in the `cloudflare` SDK:
 * `name`, `direction`, `page`, `per_page`; default page size 20, as the API's other v4 lists).
 */
const listAccounts: Handler<ApiService> = (svc, req, { who }) => {
  const q = req.url.searchParams;
  const page = positiveParam(q.get('page'), 1, 'page');
  const perPage = positiveParam(q.get('per_page'), 20, 'per_page');
  const direction = q.get('direction');
  if (direction !== null && direction !== 'asc' && direction !== 'desc')
    throw apiErrors.badQuery('direction', 'must be asc or desc');
  const name = q.get('name');
  const account = svc.account;
  const all = canSeeAccount(who, account) && (name === null || name === account.name) ? [account] : [];
  const slice = all.slice((page - 1) * perPage, page * perPage);
  return ok(slice.map(presentAccount), paging(page, perPage, slice.length, all.length));
};

const getAccount: Handler<ApiService> = (_svc, _req, { account }) => ok(presentAccount(account!));

// Many DNS tools check their token here before touching a zone.
const verifyToken: Handler<ApiService> = (_svc, _req, { who }) => {
  if (who.kind !== 'token') throw apiErrors.invalidToken();
  return json(200, {
    result: { id: who.tokenId, status: 'active' },
    success: true,
    errors: [],
    messages: [{ code: 10000, message: 'This API Token is valid and active', type: null }],
  });
};

/**
 * Tools check their credentials here before touching records. A global key owns its user; a token
 * sees the user only with User Details Read (the credential's `user`), otherwise 9109, the API's
 * answer to a token without the permission a user or account resource needs.
 */
const getUser: Handler<ApiService> = (svc, _req, { who }) => {
  if (who.email === undefined) throw apiErrors.unauthorizedResource();
  const account = svc.account;
  const zones = account.made(DNS)?.zones.values() ?? [];
  const plans = new Set([...zones].filter((z) => canSee(who, z, account)).map((z) => z.plan));
  return ok(presentUser(who.email, plans));
};
