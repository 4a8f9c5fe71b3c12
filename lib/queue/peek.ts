/**
 * The Queues API's looks at a queue that take nothing out of its delivery (cloudflare/api-schemas
 * 2026-08-14; the SDK's `queues.messages.peek/purge`):
 *
 *   POST /accounts/{a}/queues/{q}/messages/peek          up to `batch_size` messages, each with a `ref`
 *   POST /accounts/{a}/queues/{q}/messages/purge         delete peeked messages by `refs: [{ ref }]`
 *   POST /accounts/{a}/queues/{q}/messages/preview       the older pair: the same messages, the ref as `lease_id`
 *   POST /accounts/{a}/queues/{q}/messages/preview/ack   delete previewed messages (`acks`); `retries` leave them
 *
 * A peek leases nothing: the messages stay for the next peek, pull or Worker delivery. It shows what
 * a pull would take next, oldest first: the batch an HTTP pull consumer holds (its messages not
 * leased) then the visible messages the queue holds; never a delayed message, a leased one or a
 * batch a Worker is being given. Each is shown as a pull shows it (pull-consumer.ts: the body as
 * text, `metadata['CF-Content-Type']`, `attempts` the attempt its next delivery would be).
 *
 * A ref names its queue and message (opaque to clients; production's are encrypted tokens). A
 * delete by ref takes the message out of the queue wherever it waits, as not delivered: no retry,
 * no dead letter, no attempt spent. A ref this queue cannot find (already gone, another queue's,
 * not a ref) is a warning, `{ [ref]: why }`, not an error; `errors` stays empty. `batch_size` is
 * 1–100 (a pull's bounds), 10 when absent (a pull's default).
 */
import { ok } from '../api/envelope.js';
import { HEX32, type ApiService, type Handler, type Route, type RouteTable } from '../api/router.js';
import type { AccountQueue } from './account-queues.js';
import { body, bodyText, consumerErrors, int, lookup } from './consumers.js';
import { decodeBody } from './content.js';
import { settle } from './pull-consumer.js';

/** A ref: base64url of `{"q":<queue id>,"m":<message id>}`. */
const refOf = (queueId: string, messageId: string) =>
  btoa(JSON.stringify({ q: queueId, m: messageId }))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** The message id a ref names on this queue, or undefined. */
function messageOf(ref: unknown, queueId: string): string | undefined {
  if (typeof ref !== 'string') return undefined;
  try {
    const v = JSON.parse(atob(ref.replace(/-/g, '+').replace(/_/g, '/'))) as { q?: unknown; m?: unknown };
    return v?.q === queueId && typeof v.m === 'string' ? v.m : undefined;
  } catch {
    return undefined;
  }
}

/** A peeked message as the API shows it, its ref under `refField` (`ref` for peek, `lease_id` for preview). */
function shown(
  q: AccountQueue,
  m: { id: string; attempts: number; body: unknown; timestamp: number },
  refField: string,
) {
  const { text, type } = bodyText(m.body);
  return {
    id: m.id,
    body: text,
    attempts: m.attempts,
    timestamp_ms: m.timestamp,
    [refField]: refOf(q.id, m.id),
    metadata: { 'CF-Content-Type': type },
  };
}

/** Up to `size` messages a pull would take next (see above), without taking them. */
function peekable(q: AccountQueue, now: number, size: number) {
  const out: { id: string; attempts: number; body: unknown; timestamp: number }[] = [];
  const held = q.entry.pull?.held;
  for (const m of held?.available ?? []) {
    if (out.length >= size) return out;
    out.push({ id: m.id, attempts: m.attempts, body: m.body, timestamp: m.timestamp.getTime() });
  }
  for (const h of q.entry.state.held()) {
    if (out.length >= size || h.visibleAt > now) break;
    out.push({ id: h.id, attempts: h.failures + 1, body: decodeBody(h.body), timestamp: h.timestamp });
  }
  return out;
}

const look =
  (id: string, refField: 'ref' | 'lease_id'): Handler<ApiService> =>
  async (svc, req, params) => {
    const q = lookup(svc, params, id);
    const b = await body(req);
    const size = int(b.batch_size, 'batch_size', 1, 100) ?? 10;
    return ok({ messages: peekable(q, svc.now(), size).map((m) => shown(q, m, refField)) });
  };

/**
 * Deletes the messages `refs` name from the queue, as not delivered; answers the refs it could not
 * find as warnings. A message in an HTTP pull consumer's held batch is settled there (acked: its
 * batch no longer waits for it), one the queue holds is taken out of it.
 */
function deleteByRef(q: AccountQueue, refs: readonly unknown[]): Record<string, string> {
  const warnings: Record<string, string> = {};
  const wanted = new Map<string, unknown>();
  for (const ref of refs) {
    const m = messageOf(ref, q.id);
    if (m === undefined) warnings[String(ref)] = 'not a ref of a message of this queue';
    else wanted.set(m, ref);
  }
  const state = q.entry.pull;
  const held = state?.held;
  if (held) {
    const settleOne = (message: { ack(): void }) => {
      message.ack();
      settle(state);
    };
    held.available = held.available.filter((m) => {
      if (!wanted.has(m.id)) return true;
      wanted.delete(m.id);
      settleOne(m);
      return false;
    });
    for (const [lease, l] of [...held.leases]) {
      if (!wanted.has(l.message.id)) continue;
      wanted.delete(l.message.id);
      held.leases.delete(lease);
      settleOne(l.message);
    }
  }
  const taken = q.entry.state.remove(new Set(wanted.keys()));
  for (const [m, ref] of wanted)
    if (!taken.has(m)) warnings[String(ref)] = 'message not found: already deleted, acked or in a delivery';
  return warnings;
}

/** Each entry of `list` must be an object whose `field`, when given, is a string (the schema's item). */
function entries(list: unknown, name: string, field: string): unknown[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw consumerErrors.bad(`${name} must be an array`);
  return list.map((e, i) => {
    if (typeof e !== 'object' || e === null || Array.isArray(e))
      throw consumerErrors.bad(`${name}[${i}] must be an object`);
    const v = (e as Record<string, unknown>)[field];
    if (v !== undefined && typeof v !== 'string') throw consumerErrors.bad(`${name}[${i}].${field} must be a string`);
    return v;
  });
}

const purgeByRef =
  (id: string): Handler<ApiService> =>
  async (svc, req, params) => {
    const q = lookup(svc, params, id);
    const b = await body(req);
    // `refs` is required, and so is each entry's `ref` (the schema's request).
    if (b.refs === undefined) throw consumerErrors.bad('refs is required');
    const refs = entries(b.refs, 'refs', 'ref');
    refs.forEach((r, i) => {
      if (r === undefined) throw consumerErrors.bad(`refs[${i}].ref is required`);
    });
    return ok({ errors: [], warnings: deleteByRef(q, refs) });
  };

const ackPreview =
  (id: string): Handler<ApiService> =>
  async (svc, req, params) => {
    const q = lookup(svc, params, id);
    const b = await body(req);
    const acks = entries(b.acks, 'acks', 'lease_id');
    const retries = entries(b.retries, 'retries', 'lease_id');
    for (const [i, r] of (retries.length ? (b.retries as Record<string, unknown>[]) : []).entries())
      int(r.delay_seconds, `retries[${i}].delay_seconds`, 0, 43200);
    const warnings = deleteByRef(
      q,
      acks.filter((a) => a !== undefined),
    );
    // A retried preview leaves the message where it is: it was never leased, so there is nothing to give back.
    for (const r of retries)
      if (typeof r === 'string' && messageOf(r, q.id) === undefined)
        warnings[r] = 'not a ref of a message of this queue';
    return ok({ warnings });
  };

/** `messages/peek`, `messages/purge`, `messages/preview` and `messages/preview/ack` of a queue. */
export const peekRoutes: RouteTable<ApiService> = (segments): Route<ApiService> | undefined => {
  if (segments[0] !== 'accounts' || segments[2] !== 'queues' || segments[4] !== 'messages') return undefined;
  const accountId = segments[1]!;
  if (!HEX32.test(accountId)) return undefined;
  const id = segments[3]!;
  const rest = segments.slice(5).join('/');
  const at = (methods: Record<string, Handler<ApiService>>): Route<ApiService> => ({ methods, accountId });
  if (rest === 'peek') return at({ POST: look(id, 'ref') });
  if (rest === 'purge') return at({ POST: purgeByRef(id) });
  if (rest === 'preview') return at({ POST: look(id, 'lease_id') });
  if (rest === 'preview/ack') return at({ POST: ackPreview(id) });
  return undefined;
};
