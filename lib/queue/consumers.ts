/**
 * The Queues API's consumer and message routes (wrangler 4.86 `src/queues/client.ts` and
 * `cli/commands/consumer/*`, `queues purge`; the SDK's `queues.consumers`, `queues.messages`):
 *
 *   GET|POST   /accounts/{a}/queues/{q}/consumers            list, add (worker or http_pull)
 *   GET|PUT|DELETE /accounts/{a}/queues/{q}/consumers/{c}    one consumer
 *   POST       /accounts/{a}/queues/{q}/purge                drop every message
 *   POST       /accounts/{a}/queues/{q}/messages             push one message
 *   POST       /accounts/{a}/queues/{q}/messages/batch       push up to 100
 *   POST       /accounts/{a}/queues/{q}/messages/pull        lease a batch (http_pull consumer)
 *   POST       /accounts/{a}/queues/{q}/messages/ack         ack and retry leases
 *   POST       /accounts/{a}/queues/{q}/messages/extend      extend leases (`extend: [{ lease_id }]`, `visibility_timeout_ms`)
 *   GET        /accounts/{a}/queues/{q}/purge                the last purge: `{ started_at, completed }`
 *   GET        /accounts/{a}/queues/{q}/metrics              backlog count, bytes, oldest message's timestamp
 *
 * A queue has one consumer (production makes the consumer exclusive: a worker or an HTTP pull one;
 * a second is refused). A worker consumer's settings are the queue's consumer settings for the
 * Worker that consumes it (`presetConsumerSettings`: `createEnv`'s worker, or `queue.consume(h)`).
 *
 * The consumer is data in the queue's API record (backend.ts), so the account's snapshot,
 * restore and reset cover it; pull-consumer.ts makes the queue's delivery follow it. An HTTP pull
 * consumer is the queue's consumer itself: its handler holds each batch the queue delivers until
 * every message in it is acked, retried, or past its visibility timeout. A pull with no batch held
 * has the queue deliver everything visible (up to 100) as one; a pull returns the held batch's
 * messages not yet leased, up to `batch_size`, and the next batch follows when this one is settled.
 * Removing a pull consumer gives its held batch back to the queue (no attempt spent).
 *
 * Pushed messages are the producer's sends (`Queue.send`/`sendBatch`): text or JSON, as the SDK's
 * `MqQueueMessageText`/`MqQueueMessageJson`. A pulled body is the message as text: a text body as
 * it is, JSON as its JSON text, bytes (and v8 values the double holds as bytes) base64
 * (`metadata['CF-Content-Type']` says which).
 *
 * Purge deletes the queue's messages only: its settings, consumer, fault rules and call log stay. It
 * answers the queue (the schema's `queues-purge` response, the SDK's `purge.start(): Queue`). The
 * double purges at once, so its status (`queues-purge-get`, kept in the queue's record) is the last
 * purge's start and `completed: "true"` (strings, as the schema types both); `{}` before any purge.
 *
 * Extending a lease keeps its `lease_id` and moves its end to now plus `visibility_timeout_ms` (the
 * consumer's, else 30 s) without spending an attempt (the schema: "a new lease ID ... without
 * incrementing the message's attempts"; its answer carries no ids, only `extendCount` and
 * `warnings`, so the id a client holds stays the one that works: our reading). A lease not held
 * (expired, acked, unknown) is a warning, as in an ack.
 *
 * Metrics (`queues-get-metrics`) are the queue's now: every message not yet acknowledged, those a
 * delivery holds (a Worker's batch, a pull consumer's unsettled messages) included; the oldest
 * timestamp is 0 when there is none (the schema: "Returns 0 if unknown").
 *
 * Known limits are declared as data in conformance/queue/differences.ts (the held batch, the
 * status for a second consumer).
 *
 * Error codes not established: a second consumer's status (409 11004 `workers.api.error.consumer_exists`,
 * the code and text observed), a lease that is not held (reported in `warnings`, as the SDK's ack
 * response types them), and the texts of bodies the schema refuses (the Queues API's 10207 form).
 *
 * Bodies are judged by the schema's request types (cloudflare/api-schemas 2026-08-14,
 * `mq_consumer-request`: a worker consumer needs `type` and `script_name`, an HTTP pull consumer
 * `type`; `messages/ack`'s `lease_id` is a string): a body that breaks them is refused before
 * anything changes.
 */
import { ok } from '../api/envelope.js';
import { fail } from '../api/errors.js';
import {
  HEX32,
  type ApiService,
  type Handler,
  type Incoming,
  type Route,
  type RouteParams,
  type RouteTable,
} from '../api/router.js';
import { toBase64 } from '../bytes.js';
import { randomHex } from '../random.js';
import { queueById, type AccountQueue } from './account-queues.js';
import {
  attachConsumer,
  detachApiConsumer,
  dropHeld,
  expire,
  settle,
  type Lease,
  type QueueConsumer,
} from './pull-consumer.js';
import type { QueueMetrics } from './queue.js';
import type { Held } from './store.js';
import { jsonObject, presentQueue, queueApiErrors } from './routes.js';

/** The visibility timeout a pull names none of: production's default, 30 s. */
const DEFAULT_VISIBILITY_MS = 30_000;

export const consumerErrors = {
  /**
   * A second consumer: the code and text wrangler printed from the API (workers-sdk#5347, 2024-03:
   * "workers.api.error.consumer_exists [code: 11004]"); the status, 409, is ours (not printed).
   */
  taken: () => fail(409, 11004, 'workers.api.error.consumer_exists'),
  notFound: () => fail(404, 11000, 'Consumer does not exist'),
  noPull: () => fail(400, 11008, 'Queue does not have an http_pull consumer'),
  bad: (why: string) => fail(400, 10207, `Request JSON body does not match expected schema: ${why}`),
};

/** The queue's consumer as the API shows it, if the API gave it one. */
export function consumersOf(q: AccountQueue): QueueConsumer[] {
  return q.consumer ? [q.consumer] : [];
}

export const consumerRoutes: RouteTable<ApiService> = (segments): Route<ApiService> | undefined => {
  if (segments[0] !== 'accounts' || segments[2] !== 'queues' || segments.length < 5) return undefined;
  const accountId = segments[1]!;
  if (!HEX32.test(accountId)) return undefined;
  const id = segments[3]!;
  const rest = segments.slice(4).join('/');
  const at = (methods: Record<string, Handler<ApiService>>): Route<ApiService> => ({ methods, accountId });
  if (rest === 'consumers') return at({ GET: listConsumers(id), POST: addConsumer(id) });
  if (segments.length === 6 && segments[4] === 'consumers') {
    const cid = segments[5]!;
    return at({ GET: getConsumer(id, cid), PUT: updateConsumer(id, cid), DELETE: removeConsumer(id, cid) });
  }
  if (rest === 'purge') return at({ POST: purge(id), GET: purgeStatus(id) });
  if (rest === 'metrics') return at({ GET: queueMetrics(id) });
  if (rest === 'messages/extend') return at({ POST: extend(id) });
  if (rest === 'messages') return at({ POST: push(id, false) });
  if (rest === 'messages/batch') return at({ POST: push(id, true) });
  if (rest === 'messages/pull') return at({ POST: pull(id) });
  if (rest === 'messages/ack') return at({ POST: ack(id) });
  return undefined;
};

export function lookup(svc: ApiService, params: RouteParams, id: string): AccountQueue {
  if (!/^[0-9a-zA-Z]+$/.test(id)) throw queueApiErrors.malformedId();
  const q = queueById(params.account ?? svc.account, id);
  if (!q) throw queueApiErrors.notFound();
  return q;
}

/** The body as a JSON object; an empty body is `{}` (wrangler's purge and the SDK's pull may send none). */
export async function body(req: Incoming): Promise<Record<string, unknown>> {
  // The body is read once and kept (lib/api/front-door.ts), so reading it again to parse is free.
  return (await req.text()).trim() === '' ? {} : jsonObject(req);
}

/** An optional integer within bounds, or the schema refusal. */
export function int(v: unknown, name: string, min: number, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw consumerErrors.bad(`${name} must be an integer from ${min} to ${max}`);
  return v;
}

/** The settings a POST or PUT body gives, checked with wrangler's and the consumer settings' bounds. */
function settingsOf(type: 'worker' | 'http_pull', raw: unknown): Record<string, number> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw)))
    throw consumerErrors.bad('settings must be an object');
  const s = (raw ?? {}) as Record<string, unknown>;
  const out: Record<string, number> = {};
  const put = (k: string, v: number | undefined) => v !== undefined && (out[k] = v);
  put('batch_size', int(s.batch_size, 'batch_size', 1, 100));
  put('max_retries', int(s.max_retries, 'max_retries', 0, 100));
  put('retry_delay', int(s.retry_delay, 'retry_delay', 0, 43200));
  if (type === 'worker') {
    put('max_wait_time_ms', int(s.max_wait_time_ms, 'max_wait_time_ms', 0, 60_000));
    put('max_concurrency', int(s.max_concurrency, 'max_concurrency', 1, 250));
  } else put('visibility_timeout_ms', int(s.visibility_timeout_ms, 'visibility_timeout_ms', 0, 43_200_000));
  return out;
}

/** Lets the queue deliver the next batch (its delivery loop runs on promise turns and timers). */
const turn = () => new Promise<void>((done) => setTimeout(done, 0));

const present = (c: QueueConsumer, q: AccountQueue) => ({
  ...c,
  queue_name: q.name,
  ...(c.type === 'worker' ? { script_name: c.script } : {}),
});

const listConsumers =
  (id: string): Handler<ApiService> =>
  (svc, _req, params) => {
    const q = lookup(svc, params, id);
    return ok(consumersOf(q).map((c) => present(c, q)));
  };

/**
 * A consumer request (`mq_consumer-request`): `type` worker or http_pull, a worker's `script_name`
 * (`script`, wrangler's older name, too), an optional `dead_letter_queue` name, the settings.
 */
function consumerRequest(b: Record<string, unknown>) {
  const type = b.type;
  if (type !== 'worker' && type !== 'http_pull') throw consumerErrors.bad('type must be worker or http_pull');
  const script = b.script_name ?? b.script;
  if (type === 'worker' && (typeof script !== 'string' || script === ''))
    throw consumerErrors.bad('script_name is required for a worker consumer');
  const dlq = b.dead_letter_queue;
  if (dlq !== undefined && dlq !== null && typeof dlq !== 'string')
    throw consumerErrors.bad('dead_letter_queue must be a queue name');
  return {
    type,
    script: type === 'worker' ? (script as string) : undefined,
    dlq: typeof dlq === 'string' ? dlq : undefined,
    settings: settingsOf(type, b.settings),
  } as const;
}

const addConsumer =
  (id: string): Handler<ApiService> =>
  async (svc, req, params) => {
    const q = lookup(svc, params, id);
    const { type, script, dlq, settings } = consumerRequest(await body(req));
    // Exclusive: the API's consumer, or a Worker's attached in code (`createEnv(config, { worker })`,
    // `queue.consume`). A pull consumer removed earlier was detached (pull-consumer.ts).
    if (q.consumer || q.queue.consumerSettings !== undefined) throw consumerErrors.taken();
    const c: QueueConsumer = {
      consumer_id: randomHex(16),
      type,
      ...(script !== undefined ? { script } : {}),
      created_on: new Date(svc.now()).toISOString(),
      ...(dlq ? { dead_letter_queue: dlq } : {}),
      settings,
    };
    q.consumer = c;
    attachConsumer(q.entry, c);
    return ok(present(c, q));
  };

function consumerOf(svc: ApiService, params: RouteParams, id: string, cid: string) {
  const q = lookup(svc, params, id);
  const c = q.consumer;
  if (!c || c.consumer_id !== cid) throw consumerErrors.notFound();
  return { q, c };
}

const getConsumer =
  (id: string, cid: string): Handler<ApiService> =>
  (svc, _req, params) => {
    const { q, c } = consumerOf(svc, params, id, cid);
    return ok(present(c, q));
  };

const updateConsumer =
  (id: string, cid: string): Handler<ApiService> =>
  async (svc, req, params) => {
    const { q, c } = consumerOf(svc, params, id, cid);
    const { type, script, dlq, settings } = consumerRequest(await body(req));
    // A consumer keeps its kind: a worker consumer does not become a pull one (remove it, add the other).
    if (type !== c.type) throw consumerErrors.bad(`type must be ${c.type}, the consumer's type`);
    // A new consumer value (the record is replaced whole, so a snapshot or --persist sees it changed).
    const next: QueueConsumer = {
      ...c,
      settings,
      ...(script !== undefined && { script }),
      ...(dlq !== undefined && { dead_letter_queue: dlq || undefined }),
    };
    q.consumer = next;
    attachConsumer(q.entry, next);
    return ok(present(next, q));
  };

const removeConsumer =
  (id: string, cid: string): Handler<ApiService> =>
  (svc, _req, params) => {
    const { q, c } = consumerOf(svc, params, id, cid);
    q.consumer = undefined;
    // A pull consumer's held batch is given back (leases included, no attempt spent) for the next consumer.
    detachApiConsumer(q.entry, c);
    return ok(null);
  };

/** Deletes the queue's messages, and only them: its settings, consumer, fault rules and call log stay. */
const purge =
  (id: string): Handler<ApiService> =>
  async (svc, req, params) => {
    const q = lookup(svc, params, id);
    const b = await body(req);
    if (b.delete_messages_permanently !== undefined && typeof b.delete_messages_permanently !== 'boolean')
      throw consumerErrors.bad('delete_messages_permanently must be a boolean');
    q.entry.state.purge();
    dropHeld(q.entry); // its delivery was forgotten with the messages
    q.purged = svc.now();
    return ok(presentQueue(q));
  };

const purgeStatus =
  (id: string): Handler<ApiService> =>
  (svc, _req, params) => {
    const q = lookup(svc, params, id);
    return ok(q.purged === undefined ? {} : { started_at: new Date(q.purged).toISOString(), completed: 'true' });
  };

/** The queue's backlog now (see above): the messages it holds, and those a delivery holds unsettled. */
const queueMetrics =
  (id: string): Handler<ApiService> =>
  (svc, _req, params) => {
    const q = lookup(svc, params, id);
    const held = q.entry.pull?.held;
    const unsettled = held
      ? new Set([...held.available.map((m) => m.id), ...[...held.leases.values()].map((l) => l.message.id)])
      : undefined;
    let count = 0;
    let bytes = 0;
    let oldest = Infinity;
    const add = (h: Held) => {
      count++;
      bytes += h.body.bytes;
      if (h.timestamp < oldest) oldest = h.timestamp;
    };
    for (const h of q.entry.state.inFlight) if (!unsettled || unsettled.has(h.id)) add(h);
    for (const h of q.entry.state.held()) add(h);
    return ok({
      backlog_count: count,
      backlog_bytes: bytes,
      oldest_message_timestamp_ms: oldest === Infinity ? 0 : oldest,
    });
  };

const metricsJson = (m: QueueMetrics) => ({
  backlog_count: m.backlogCount,
  backlog_bytes: m.backlogBytes,
  oldest_message_timestamp_ms: m.oldestMessageTimestamp?.getTime() ?? 0,
});

/** One pushed message: `{ body, content_type: 'text' | 'json', delay_seconds? }` (json when not said). */
function pushed(raw: unknown): { body: unknown; contentType: 'text' | 'json'; delaySeconds?: number } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw consumerErrors.bad('a message must be an object');
  const m = raw as Record<string, unknown>;
  const type = m.content_type ?? 'json';
  if (type !== 'text' && type !== 'json') throw consumerErrors.bad('content_type must be text or json');
  if (!('body' in m)) throw consumerErrors.bad('body is required');
  if (type === 'text' && typeof m.body !== 'string') throw consumerErrors.bad('a text message body must be a string');
  const delay = int(m.delay_seconds, 'delay_seconds', 0, 43200);
  return { body: m.body, contentType: type, ...(delay !== undefined ? { delaySeconds: delay } : {}) };
}

const push =
  (id: string, batch: boolean): Handler<ApiService> =>
  async (svc, req, params) => {
    const q = lookup(svc, params, id);
    const b = await body(req);
    let sent;
    try {
      if (!batch) {
        const m = pushed(b);
        sent = await q.queue.send(m.body, {
          contentType: m.contentType,
          ...(m.delaySeconds !== undefined ? { delaySeconds: m.delaySeconds } : {}),
        });
      } else {
        if (!Array.isArray(b.messages)) throw consumerErrors.bad('messages must be an array');
        const delay = int(b.delay_seconds, 'delay_seconds', 0, 43200);
        sent = await q.queue.sendBatch(
          b.messages.map(pushed),
          delay !== undefined ? { delaySeconds: delay } : undefined,
        );
      }
    } catch (e) {
      // The producer's refusals (too large, too many): the API's schema refusal, with the binding's reason.
      if (e instanceof Error && !('status' in e)) throw consumerErrors.bad(e.message);
      throw e;
    }
    return ok({ metadata: { metrics: metricsJson(sent.metadata.metrics) } });
  };

/** A pulled message's body as text, and what it was. */
export function bodyText(body: unknown): { text: string; type: string } {
  if (typeof body === 'string') return { text: body, type: 'text' };
  if (body instanceof ArrayBuffer) return { text: toBase64(new Uint8Array(body)), type: 'bytes' };
  if (ArrayBuffer.isView(body))
    return { text: toBase64(new Uint8Array(body.buffer, body.byteOffset, body.byteLength)), type: 'bytes' };
  return { text: JSON.stringify(body) ?? '', type: 'json' };
}

const pull =
  (id: string): Handler<ApiService> =>
  async (svc, req, params) => {
    const q = lookup(svc, params, id);
    const c = q.consumer;
    const state = q.entry.pull;
    if (c?.type !== 'http_pull' || !state) throw consumerErrors.noPull();
    const b = await body(req);
    const size = int(b.batch_size, 'batch_size', 1, 100) ?? c.settings.batch_size ?? 10;
    const visibility =
      int(b.visibility_timeout_ms, 'visibility_timeout_ms', 0, 43_200_000) ??
      c.settings.visibility_timeout_ms ??
      DEFAULT_VISIBILITY_MS;
    expire(state, svc.now());
    // Without a held batch, everything visible now is delivered as one (not awaited: the delivery
    // lasts until its messages are settled); a batch settled just now is followed on the queue's next turns.
    if (!state.held) void q.queue.drain().catch(() => {});
    if (!state.held?.available.length) await turn();
    const messages = [];
    const held = state.held;
    while (held && held.available.length > 0 && messages.length < size) {
      const m = held.available.shift()!;
      const lease = randomHex(16);
      held.leases.set(lease, { message: m, expires: svc.now() + visibility });
      const { text, type } = bodyText(m.body);
      messages.push({
        id: m.id,
        body: text,
        attempts: m.attempts,
        timestamp_ms: m.timestamp.getTime(),
        lease_id: lease,
        metadata: { 'CF-Content-Type': type },
      });
    }
    const metrics = metricsJson(await q.queue.metrics());
    return ok({
      messages,
      message_backlog_count: metrics.backlog_count + (held ? held.available.length + held.leases.size : 0),
      metadata: { metrics },
    });
  };

const extend =
  (id: string): Handler<ApiService> =>
  async (svc, req, params) => {
    const q = lookup(svc, params, id);
    const c = q.consumer;
    const state = q.entry.pull;
    if (c?.type !== 'http_pull' || !state) throw consumerErrors.noPull();
    const b = await body(req);
    const list = b.extend ?? [];
    if (!Array.isArray(list)) throw consumerErrors.bad('extend must be an array');
    for (const [i, e] of (list as unknown[]).entries()) {
      if (typeof e !== 'object' || e === null || Array.isArray(e))
        throw consumerErrors.bad(`extend[${i}] must be an object`);
      const lease = (e as { lease_id?: unknown }).lease_id;
      if (lease !== undefined && typeof lease !== 'string')
        throw consumerErrors.bad(`extend[${i}].lease_id must be a string`);
    }
    const visibility =
      int(b.visibility_timeout_ms, 'visibility_timeout_ms', 0, 43_200_000) ??
      c.settings.visibility_timeout_ms ??
      DEFAULT_VISIBILITY_MS;
    expire(state, svc.now());
    const warnings: Record<string, string> = {};
    let extendCount = 0;
    for (const e of list as { lease_id?: string }[]) {
      const held = state.held;
      const found = e.lease_id !== undefined ? held?.leases.get(e.lease_id) : undefined;
      if (!found) {
        warnings[String(e.lease_id)] = 'lease not found: expired, or already acked or retried';
        continue;
      }
      held!.leases.set(e.lease_id!, { message: found.message, expires: svc.now() + visibility });
      extendCount++;
    }
    return ok({ extendCount, warnings });
  };

const ack =
  (id: string): Handler<ApiService> =>
  async (svc, req, params) => {
    const q = lookup(svc, params, id);
    const state = q.entry.pull;
    if (q.consumer?.type !== 'http_pull' || !state) throw consumerErrors.noPull();
    const b = await body(req);
    const acks = b.acks ?? [];
    const retries = b.retries ?? [];
    if (!Array.isArray(acks) || !Array.isArray(retries)) throw consumerErrors.bad('acks and retries must be arrays');
    // Each entry is an object whose lease_id, when given, is a string (`mq_lease-id`).
    for (const [list, entries] of [
      ['acks', acks],
      ['retries', retries],
    ] as const)
      for (const [i, e] of (entries as unknown[]).entries()) {
        if (typeof e !== 'object' || e === null || Array.isArray(e))
          throw consumerErrors.bad(`${list}[${i}] must be an object`);
        const lease = (e as { lease_id?: unknown }).lease_id;
        if (lease !== undefined && typeof lease !== 'string')
          throw consumerErrors.bad(`${list}[${i}].lease_id must be a string`);
      }
    const delays = retries.map((r) =>
      int((r as { delay_seconds?: unknown })?.delay_seconds, 'delay_seconds', 0, 43200),
    );
    expire(state, svc.now());
    const warnings: Record<string, string> = {};
    let ackCount = 0;
    let retryCount = 0;
    const take = (entry: unknown): Lease | undefined => {
      const lease =
        typeof entry === 'object' && entry !== null ? (entry as { lease_id?: unknown }).lease_id : undefined;
      const held = state.held;
      const found = typeof lease === 'string' ? held?.leases.get(lease) : undefined;
      if (!found) {
        warnings[String(lease)] = 'lease not found: expired, or already acked or retried';
        return undefined;
      }
      held!.leases.delete(lease as string);
      return found;
    };
    for (const a of acks) {
      const lease = take(a);
      if (!lease) continue;
      lease.message.ack();
      ackCount++;
      settle(state);
    }
    for (const [i, r] of retries.entries()) {
      const delay = delays[i];
      const lease = take(r);
      if (!lease) continue;
      lease.message.retry(delay !== undefined ? { delaySeconds: delay } : undefined);
      retryCount++;
      settle(state);
    }
    await turn();
    return ok({ ackCount, retryCount, warnings });
  };
