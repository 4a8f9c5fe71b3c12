/**
 * The Queues routes of the `/client/v4` router (lib/api/router.ts): the account's queues, as
 * `wrangler queues create/list/info/update/delete` and the SDK's `client.queues.*` call them
 * (wrangler `src/queues/client.ts`; SDK `resources/queues/queues`). R2's event notifications find
 * their queue here by name first (wrangler resolves `--queue` with `GET /queues?name=`).
 */
import { ok } from '../api/envelope.js';
import { fail } from '../api/errors.js';
import {
  HEX32,
  positiveParam,
  type ApiService,
  type Handler,
  type Incoming,
  type Route,
  type RouteTable,
} from '../api/router.js';
import { consumersOf } from './consumers.js';
import {
  accountQueues,
  createAccountQueue,
  deleteAccountQueue,
  queueById,
  queueByName,
  type AccountQueue,
  type QueueSettings,
} from './account-queues.js';

/**
 * The Queues API's errors (docs queues/reference/error-codes: 10104 QueueNotFound, 10107
 * QueueIDMalformed; wrangler's INVALID_QUEUE_SETTINGS_ERROR = 100128). A name already taken is
 * 11009 as a deploy script reports it (Trailgenic/workers#59, "already taken"); its text is ours.
 */
export const queueApiErrors = {
  notFound: () => fail(404, 10104, 'Queue does not exist'),
  malformedId: () => fail(400, 10107, 'The queue ID in the request URL is not a valid queue identifier'),
  nameTaken: (name: string) =>
    fail(409, 11009, `A queue with the name ${name} already exists: the name is already taken`),
  badName: () =>
    fail(
      400,
      10207,
      'Request JSON body does not match expected schema: queue_name must be 1 to 63 lowercase letters, digits and hyphens',
    ),
  badSettings: () => fail(400, 100128, 'The specified queue settings are invalid.'),
  malformed: () => fail(400, 10208, 'Request body is not valid JSON'),
};

/** Queue names: what wrangler's binding-name rule and the dashboard accept (lowercase, digits, hyphens; ≤ 63). */
const QUEUE_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const queueRoutes: RouteTable<ApiService> = (segments): Route<ApiService> | undefined => {
  if (segments[0] !== 'accounts' || segments[2] !== 'queues') return undefined;
  const accountId = segments[1]!;
  if (!HEX32.test(accountId)) return undefined;
  if (segments.length === 3) return { methods: { GET: listQueues, POST: createQueue }, accountId };
  if (segments.length === 4) {
    const id = segments[3]!;
    return {
      methods: {
        GET: getQueue(id),
        PUT: updateQueue(id, 'put'),
        PATCH: updateQueue(id, 'patch'),
        DELETE: removeQueue(id),
      },
      accountId,
    };
  }
  return undefined;
};

/** A queue as the API shows it (SDK `Queue`). Producers are the account's Workers' (none deployed here); the consumer is the one the API added (consumers.ts). */
export function presentQueue(q: AccountQueue) {
  return {
    queue_id: q.id,
    queue_name: q.name,
    created_on: new Date(q.created).toISOString(),
    modified_on: new Date(q.modified).toISOString(),
    producers: [],
    producers_total_count: 0,
    consumers: consumersOf(q),
    consumers_total_count: consumersOf(q).length,
    settings: { delivery_delay: 0, delivery_paused: false, message_retention_period: 345600, ...q.settings },
  };
}

const listQueues: Handler<ApiService> = (svc, req, { account }) => {
  const q = req.url.searchParams;
  positiveParam(q.get('page'), 1, 'page');
  // wrangler sends `name` once per queue it looks for (listAllQueues): any of them matches.
  const names = q.getAll('name');
  const all = [...accountQueues(account ?? svc.account).values()].filter(
    (x) => names.length === 0 || names.includes(x.name),
  );
  return ok(all.map(presentQueue));
};

function lookup(svc: ApiService, account: RouteParamsAccount, id: string): AccountQueue {
  if (!/^[0-9a-zA-Z]+$/.test(id)) throw queueApiErrors.malformedId();
  const q = queueById(account ?? svc.account, id);
  if (!q) throw queueApiErrors.notFound();
  return q;
}
type RouteParamsAccount = Parameters<Handler<ApiService>>[2]['account'];

const getQueue =
  (id: string): Handler<ApiService> =>
  (svc, _req, { account }) =>
    ok(presentQueue(lookup(svc, account, id)));

const createQueue: Handler<ApiService> = async (svc, req, { account }) => {
  const state = account ?? svc.account;
  const body = await jsonObject(req);
  const name = body.queue_name;
  if (typeof name !== 'string' || !QUEUE_NAME.test(name)) throw queueApiErrors.badName();
  if (queueByName(state, name)) throw queueApiErrors.nameTaken(name);
  const settings = queueSettings(body.settings);
  return ok(presentQueue(createAccountQueue(state, name, settings)));
};

/** PUT overwrites the configuration (SDK: "does not support partial updates"); PATCH changes what it names. */
const updateQueue =
  (id: string, mode: 'put' | 'patch'): Handler<ApiService> =>
  async (svc, req, { account }) => {
    const q = lookup(svc, account, id);
    const body = await jsonObject(req);
    if (body.queue_name !== undefined && body.queue_name !== q.name) {
      // Renaming is not modelled: a queue's name is what bindings and rules find it by.
      throw fail(400, 100128, 'The specified queue settings are invalid.');
    }
    const settings = queueSettings(body.settings);
    q.settings = mode === 'put' ? settings : { ...q.settings, ...settings };
    q.modified = svc.now();
    return ok(presentQueue(q));
  };

const removeQueue =
  (id: string): Handler<ApiService> =>
  (svc, _req, { account }) => {
    const q = lookup(svc, account, id);
    deleteAccountQueue(account ?? svc.account, q.id);
    return ok(null);
  };

/** Queue-level settings with wrangler's bounds (delivery delay 0–86400 s, retention 60–1,209,600 s). */
function queueSettings(raw: unknown): QueueSettings {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw queueApiErrors.badSettings();
  const s = raw as Record<string, unknown>;
  const out: QueueSettings = {};
  if (s.delivery_delay !== undefined) {
    if (!Number.isInteger(s.delivery_delay) || (s.delivery_delay as number) < 0 || (s.delivery_delay as number) > 86400)
      throw queueApiErrors.badSettings();
    out.delivery_delay = s.delivery_delay as number;
  }
  if (s.message_retention_period !== undefined) {
    const v = s.message_retention_period as number;
    if (!Number.isInteger(v) || v < 60 || v > 1_209_600) throw queueApiErrors.badSettings();
    out.message_retention_period = v;
  }
  if (s.delivery_paused !== undefined) {
    if (typeof s.delivery_paused !== 'boolean') throw queueApiErrors.badSettings();
    out.delivery_paused = s.delivery_paused;
  }
  return out;
}

/** A Queues request's JSON object body, or the Queues API's malformed-body error. */
export async function jsonObject(req: Incoming): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = JSON.parse(await req.text());
  } catch {
    throw queueApiErrors.malformed();
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw queueApiErrors.malformed();
  return v as Record<string, unknown>;
}
