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
 *
 * A queue has one consumer (production makes the consumer exclusive: a worker or an HTTP pull one;
 * a second is refused). A worker consumer's settings are the queue's consumer settings for the
 * Worker that consumes it (`presetConsumerSettings`: `createEnv`'s worker, or `queue.consume(h)`).
 *
 * An HTTP pull consumer is the queue's consumer itself: its handler holds each batch the queue
 * delivers until every message in it has been acked, retried, or left past its visibility timeout
 * (retried then, on the double's clock). So pulled messages have the attempts, retry delays and
 * dead-lettering of the Worker consumer's delivery (lib/queue/queue.ts), not a copy of them. A pull
 * with no batch held has the queue deliver everything visible (up to 100) as one; a pull returns
 * the held batch's messages not yet leased, up to `batch_size`, and the next batch follows when
 * this one is settled. (So while a batch is held, messages sent since wait for it: production's
 * pulls are not known to group messages so; declared.)
 *
 * Pushed messages are the producer's sends (`Queue.send`/`sendBatch`): text or JSON, as the SDK's
 * `MqQueueMessageText`/`MqQueueMessageJson`. A pulled body is the message as text: a text body as
 * it is, JSON as its JSON text, bytes (and v8 values the double holds as bytes) base64
 * (`metadata['CF-Content-Type']` says which).
 *
 * Purge is `Queue.reset()`: it also clears the queue's fault rules and call log (test support),
 * which production has no counterpart of.
 *
 * Error codes not established: a second consumer (409 11007, our placeholder), a lease that is not
 * held (reported in `warnings`, as the SDK's ack response types them).
 */
import { ok } from '../api/envelope.js';
import { fail } from '../api/errors.js';
import { HEX32, type ApiService, type Handler, type Incoming, type Route, type RouteParams, type RouteTable } from '../api/router.js';
import { toBase64 } from '../bytes.js';
import { randomHex } from '../random.js';
import { queueById, type AccountQueue } from './account-queues.js';
import type { Message, MessageBatch } from './batch.js';
import { presetConsumerSettings, type Queue, type QueueMetrics } from './queue.js';
import { jsonObject, queueApiErrors } from './routes.js';
import type { ConsumerSettings } from './limits.js';

/** The visibility timeout a pull names none of: production's default, 30 s. */
const DEFAULT_VISIBILITY_MS = 30_000;

const consumerErrors = {
  /** placeholder code and text: production's answer to a second consumer is not established. */
  taken: () => fail(409, 11007, 'Queue already has a consumer'),
  notFound: () => fail(404, 11000, 'Consumer does not exist'),
  noPull: () => fail(400, 11008, 'Queue does not have an http_pull consumer'),
  bad: (why: string) => fail(400, 10207, `Request JSON body does not match expected schema: ${why}`),
};

/** A consumer as the API shows it (SDK `Consumer`: worker or http_pull). */
interface ApiConsumer {
  consumer_id: string;
  type: 'worker' | 'http_pull';
  script?: string;
  created_on: string;
  dead_letter_queue?: string;
  settings: Record<string, number>;
}

/** A leased message of an http_pull consumer's held batch. */
interface Lease {
  readonly message: Message;
  readonly expires: number;
}

/** The batch an http_pull consumer holds: messages not leased yet, the leases, and the release. */
interface Held {
  available: Message[];
  readonly leases: Map<string, Lease>;
  left: number;
  readonly release: () => void;
}

interface PullState {
  held: Held | undefined;
}

const consumers = new WeakMap<Queue, ApiConsumer>();
const pulls = new WeakMap<Queue, PullState>();

/** The queue's consumer as the API shows it, if the API gave it one. */
export function consumersOf(queue: Queue): ApiConsumer[] {
  const c = consumers.get(queue);
  return c ? [c] : [];
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
  if (rest === 'purge') return at({ POST: purge(id) });
  if (rest === 'messages') return at({ POST: push(id, false) });
  if (rest === 'messages/batch') return at({ POST: push(id, true) });
  if (rest === 'messages/pull') return at({ POST: pull(id) });
  if (rest === 'messages/ack') return at({ POST: ack(id) });
  return undefined;
};

function lookup(svc: ApiService, params: RouteParams, id: string): AccountQueue {
  if (!/^[0-9a-zA-Z]+$/.test(id)) throw queueApiErrors.malformedId();
  const q = queueById(params.account ?? svc.account, id);
  if (!q) throw queueApiErrors.notFound();
  return q;
}

/** The body as a JSON object; an empty body is `{}` (wrangler's purge and the SDK's pull may send none). */
async function body(req: Incoming): Promise<Record<string, unknown>> {
  // The body is read once and kept (lib/api/front-door.ts), so reading it again to parse is free.
  return (await req.text()).trim() === '' ? {} : jsonObject(req);
}

/** An optional integer within bounds, or the schema refusal. */
function int(v: unknown, name: string, min: number, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw consumerErrors.bad(`${name} must be an integer from ${min} to ${max}`);
  return v;
}

/** The settings a POST or PUT body gives, checked with wrangler's and the consumer settings' bounds. */
function settingsOf(type: 'worker' | 'http_pull', raw: unknown): Record<string, number> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) throw consumerErrors.bad('settings must be an object');
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

/** The queue's consumer settings (lib/queue/limits.ts) an API consumer stands for. */
function queueSettings(c: ApiConsumer): ConsumerSettings {
  const s = c.settings;
  return {
    ...(s.batch_size !== undefined ? { maxBatchSize: s.batch_size } : {}),
    ...(s.max_retries !== undefined ? { maxRetries: s.max_retries } : {}),
    ...(s.retry_delay !== undefined ? { retryDelay: s.retry_delay } : {}),
    ...(s.max_wait_time_ms !== undefined ? { maxBatchTimeout: Math.round(s.max_wait_time_ms / 1000) } : {}),
    ...(c.dead_letter_queue ? { deadLetterQueue: c.dead_letter_queue } : {}),
  };
}

/** Makes the queue's consumer what `c` says: a worker's settings preset, or the pull consumer attached. */
function attach(queue: Queue, c: ApiConsumer): void {
  if (c.type === 'worker') {
    presetConsumerSettings(queue, queueSettings(c));
    return;
  }
  const state: PullState = pulls.get(queue) ?? { held: undefined };
  pulls.set(queue, state);
  // Batches of up to 100 (a pull's most), delivered when a pull asks (`drain`, below) or after the
  // longest batch timeout: the pull decides how many of them it takes.
  queue.consume((batch: MessageBatch) => holdBatch(state, batch), { ...queueSettings(c), maxBatchSize: 100, maxBatchTimeout: 60 });
}

function holdBatch(state: PullState, batch: MessageBatch): Promise<void> {
  return new Promise((release) => {
    state.held = { available: [...batch.messages], leases: new Map(), left: batch.messages.length, release };
    if (batch.messages.length === 0) settle(state);
  });
}

/** Counts one message of the held batch settled; the batch is released when none is left. */
function settle(state: PullState): void {
  const held = state.held!;
  if (--held.left > 0) return;
  state.held = undefined;
  held.release();
}

/** Leases past their visibility timeout are retried (an attempt spent), as an unacked message is. */
function expire(state: PullState, now: number): void {
  const held = state.held;
  if (!held) return;
  for (const [id, lease] of held.leases) {
    if (lease.expires > now) continue;
    held.leases.delete(id);
    lease.message.retry();
    settle(state);
    if (state.held !== held) return;
  }
}

/** Lets the queue deliver the next batch (its delivery loop runs on promise turns and timers). */
const turn = () => new Promise<void>((done) => setTimeout(done, 0));

const present = (c: ApiConsumer, q: AccountQueue) => ({ ...c, queue_name: q.name, ...(c.type === 'worker' ? { script_name: c.script } : {}) });

const listConsumers = (id: string): Handler<ApiService> => (svc, _req, params) => {
  const q = lookup(svc, params, id);
  return ok(consumersOf(q.queue).map((c) => present(c, q)));
};

const addConsumer = (id: string): Handler<ApiService> => async (svc, req, params) => {
  const q = lookup(svc, params, id);
  const b = await body(req);
  const type = b.type ?? 'worker';
  if (type !== 'worker' && type !== 'http_pull') throw consumerErrors.bad('type must be worker or http_pull');
  const script = b.script_name ?? b.script;
  if (type === 'worker' && (typeof script !== 'string' || script === '')) throw consumerErrors.bad('script_name is required for a worker consumer');
  const dlq = b.dead_letter_queue;
  if (dlq !== undefined && dlq !== null && dlq !== '' && typeof dlq !== 'string') throw consumerErrors.bad('dead_letter_queue must be a queue name');
  // Exclusive: the API's consumer, or a Worker's attached in code (`createEnv(config, { worker })`,
  // `queue.consume`); a pull consumer removed earlier leaves only its parked handler, which a new one replaces.
  if (consumers.has(q.queue) || (q.queue.consumerSettings !== undefined && !pulls.has(q.queue))) throw consumerErrors.taken();
  const c: ApiConsumer = {
    consumer_id: randomHex(16),
    type,
    ...(type === 'worker' ? { script: script as string } : {}),
    created_on: new Date(svc.now()).toISOString(),
    ...(typeof dlq === 'string' && dlq !== '' ? { dead_letter_queue: dlq } : {}),
    settings: settingsOf(type, b.settings),
  };
  consumers.set(q.queue, c);
  attach(q.queue, c);
  return ok(present(c, q));
};

function consumerOf(svc: ApiService, params: RouteParams, id: string, cid: string) {
  const q = lookup(svc, params, id);
  const c = consumers.get(q.queue);
  if (!c || c.consumer_id !== cid) throw consumerErrors.notFound();
  return { q, c };
}

const getConsumer = (id: string, cid: string): Handler<ApiService> => (svc, _req, params) => {
  const { q, c } = consumerOf(svc, params, id, cid);
  return ok(present(c, q));
};

const updateConsumer = (id: string, cid: string): Handler<ApiService> => async (svc, req, params) => {
  const { q, c } = consumerOf(svc, params, id, cid);
  const b = await body(req);
  c.settings = settingsOf(c.type, b.settings);
  if (typeof b.dead_letter_queue === 'string') c.dead_letter_queue = b.dead_letter_queue || undefined;
  attach(q.queue, c);
  return ok(present(c, q));
};

const removeConsumer = (id: string, cid: string): Handler<ApiService> => (svc, _req, params) => {
  const { q, c } = consumerOf(svc, params, id, cid);
  consumers.delete(q.queue);
  if (c.type === 'http_pull') {
    // The queue has no way to detach a consumer: the held batch stays held, its leases given back
    // (no attempt spent), and the next batch waits there until a pull consumer is added again.
    const held = pulls.get(q.queue)?.held;
    if (held) {
      held.available = [...held.available, ...[...held.leases.values()].map((l) => l.message)];
      held.leases.clear();
    }
  }
  return ok(null);
};

const purge = (id: string): Handler<ApiService> => async (svc, req, params) => {
  const q = lookup(svc, params, id);
  const b = await body(req);
  if (b.delete_messages_permanently !== undefined && typeof b.delete_messages_permanently !== 'boolean') throw consumerErrors.bad('delete_messages_permanently must be a boolean');
  q.queue.reset();
  const state = pulls.get(q.queue);
  const held = state?.held;
  if (held) {
    state.held = undefined;
    held.release(); // forgotten by the queue: reset started a new epoch
  }
  return ok({ started_at: new Date(svc.now()).toISOString(), complete: true });
};

const metricsJson = (m: QueueMetrics) => ({
  backlog_count: m.backlogCount,
  backlog_bytes: m.backlogBytes,
  oldest_message_timestamp_ms: m.oldestMessageTimestamp?.getTime() ?? 0,
});

/** One pushed message: `{ body, content_type: 'text' | 'json', delay_seconds? }` (json when not said). */
function pushed(raw: unknown): { body: unknown; contentType: 'text' | 'json'; delaySeconds?: number } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw consumerErrors.bad('a message must be an object');
  const m = raw as Record<string, unknown>;
  const type = m.content_type ?? 'json';
  if (type !== 'text' && type !== 'json') throw consumerErrors.bad('content_type must be text or json');
  if (!('body' in m)) throw consumerErrors.bad('body is required');
  if (type === 'text' && typeof m.body !== 'string') throw consumerErrors.bad('a text message body must be a string');
  const delay = int(m.delay_seconds, 'delay_seconds', 0, 43200);
  return { body: m.body, contentType: type, ...(delay !== undefined ? { delaySeconds: delay } : {}) };
}

const push = (id: string, batch: boolean): Handler<ApiService> => async (svc, req, params) => {
  const q = lookup(svc, params, id);
  const b = await body(req);
  let sent;
  try {
    if (!batch) {
      const m = pushed(b);
      sent = await q.queue.send(m.body, { contentType: m.contentType, ...(m.delaySeconds !== undefined ? { delaySeconds: m.delaySeconds } : {}) });
    } else {
      if (!Array.isArray(b.messages)) throw consumerErrors.bad('messages must be an array');
      const delay = int(b.delay_seconds, 'delay_seconds', 0, 43200);
      sent = await q.queue.sendBatch(b.messages.map(pushed), delay !== undefined ? { delaySeconds: delay } : undefined);
    }
  } catch (e) {
    // The producer's refusals (too large, too many): the API's schema refusal, with the binding's reason.
    if (e instanceof Error && !('status' in e)) throw consumerErrors.bad(e.message);
    throw e;
  }
  return ok({ metadata: { metrics: metricsJson(sent.metadata.metrics) } });
};

/** A pulled message's body as text, and what it was. */
function bodyText(body: unknown): { text: string; type: string } {
  if (typeof body === 'string') return { text: body, type: 'text' };
  if (body instanceof ArrayBuffer) return { text: toBase64(new Uint8Array(body)), type: 'bytes' };
  if (ArrayBuffer.isView(body)) return { text: toBase64(new Uint8Array(body.buffer, body.byteOffset, body.byteLength)), type: 'bytes' };
  return { text: JSON.stringify(body) ?? '', type: 'json' };
}

const pull = (id: string): Handler<ApiService> => async (svc, req, params) => {
  const q = lookup(svc, params, id);
  const c = consumers.get(q.queue);
  const state = pulls.get(q.queue);
  if (c?.type !== 'http_pull' || !state) throw consumerErrors.noPull();
  const b = await body(req);
  const size = int(b.batch_size, 'batch_size', 1, 100) ?? c.settings.batch_size ?? 10;
  const visibility = int(b.visibility_timeout_ms, 'visibility_timeout_ms', 0, 43_200_000) ?? c.settings.visibility_timeout_ms ?? DEFAULT_VISIBILITY_MS;
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
    messages.push({ id: m.id, body: text, attempts: m.attempts, timestamp_ms: m.timestamp.getTime(), lease_id: lease, metadata: { 'CF-Content-Type': type } });
  }
  const metrics = metricsJson(await q.queue.metrics());
  return ok({ messages, message_backlog_count: metrics.backlog_count + (held ? held.available.length + held.leases.size : 0), metadata: { metrics } });
};

const ack = (id: string): Handler<ApiService> => async (svc, req, params) => {
  const q = lookup(svc, params, id);
  const state = pulls.get(q.queue);
  if (consumers.get(q.queue)?.type !== 'http_pull' || !state) throw consumerErrors.noPull();
  const b = await body(req);
  const acks = b.acks ?? [];
  const retries = b.retries ?? [];
  if (!Array.isArray(acks) || !Array.isArray(retries)) throw consumerErrors.bad('acks and retries must be arrays');
  const delays = retries.map((r) => int((r as { delay_seconds?: unknown })?.delay_seconds, 'delay_seconds', 0, 43200));
  expire(state, svc.now());
  const warnings: Record<string, string> = {};
  let ackCount = 0;
  let retryCount = 0;
  const take = (entry: unknown): Lease | undefined => {
    const lease = typeof entry === 'object' && entry !== null ? (entry as { lease_id?: unknown }).lease_id : undefined;
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
