/**
 * The Queues double: the producer binding (`send`, `sendBatch`, `metrics`) and the queue behind it,
 * which delivers batches to a consumer with Queues' batching, ack, retry and dead-letter rules, on
 * the double's clock.
 *
 * When batches go out: a batch leaves as soon as `maxBatchSize` messages are visible, or
 * `maxBatchTimeout` seconds after the first message of a partial batch became visible (Miniflare's
 * broker counts the same way). The queue wakes itself for those moments through the clock: a
 * `ManualClock`'s `sleep` (so `clock.advance()` delivers), else the global `setTimeout` looked up
 * when needed (so Vitest's fake timers deliver, and real time does without either; the timer is
 * unref'd where the platform can, so a pending delay never keeps Node alive). `await drain()`
 * delivers every message visible now without waiting for batch timeouts, and resolves when the
 * consumer is done with them, retries that come due meanwhile included: no test sleeps.
 *
 * One batch is delivered at a time (production runs up to `max_concurrency` consumers at once;
 * one at a time keeps tests deterministic and is a behaviour production can show). Messages sent
 * while no consumer is attached wait for one (production keeps them for the retention period;
 * Miniflare drops them).
 */
import { timeSource, type Clock, type TimeSource } from '../clock.js';
import { randomHex, seeded } from '../random.js';
import { copyArgument } from '../support/call-log.js';
import { registerDouble } from '../support/registry.js';
import {
  actionOf,
  queueDouble,
  QueueSupport,
  type LoggedMessage,
  type MessageOutcome,
  type MutableQueueCall,
} from '../support/queue-support.js';
import { createExecutionContext, waitOnExecutionContext } from '../execution-context.js';
import { keepRequestAlive } from '../wait-until.js';
import { BatchState, Message, MessageBatch, toInteger, type MessageBatchMetadata } from './batch.js';
import { resolveQueueCompat, type QueueCompat } from './compat.js';
import {
  contentTypeOf,
  decodeBody,
  deferredJson,
  encodeBody,
  unreadable,
  type HeldBody,
  type QueueContentType,
} from './content.js';
import { faultError, serviceError } from './errors.js';
import { registerServiceEntry, type ServiceMessage } from './service.js';
import { MessageStore, type Batching, type Held, type StoreSnapshot } from './store.js';
import {
  MAX_BATCH_BYTES,
  MAX_BATCH_MESSAGES,
  MAX_DELAY_SECONDS,
  MAX_MESSAGE_BYTES,
  PRODUCTION_CONSUMER_DEFAULTS,
  resolveConsumerSettings,
  type ConsumerSettings,
  type ResolvedConsumerSettings,
} from './limits.js';

export { type ServiceMessage } from './service.js';

/** `send`'s options (workers-types `QueueSendOptions`). */
export interface QueueSendOptions {
  contentType?: QueueContentType;
  delaySeconds?: number;
}

/** `sendBatch`'s options (workers-types `QueueSendBatchOptions`). */
export interface QueueSendBatchOptions {
  delaySeconds?: number;
}

/** One message of `sendBatch` (workers-types `MessageSendRequest`). */
export interface MessageSendRequest<Body = unknown> {
  body: Body;
  contentType?: QueueContentType;
  delaySeconds?: number;
}

/** The queue's backlog, as a send reports it (workers-types `QueueMetrics`). */
export interface QueueMetrics {
  backlogCount: number;
  backlogBytes: number;
  oldestMessageTimestamp?: Date;
}

/** What `send` and `sendBatch` resolve to (workers-types `QueueSendResponse`, `QueueSendBatchResponse`). */
export interface QueueSendResponse {
  metadata: { metrics: QueueMetrics };
}

/** A consumer: a Worker's `queue(batch, env, ctx)` handler. */
export type QueueHandler<Body = unknown, Env = unknown> = (
  batch: MessageBatch<Body>,
  env: Env,
  ctx: ExecutionContextLike,
) => unknown;

/** What the consumer's third argument offers (`createExecutionContext()`'s). */
export interface ExecutionContextLike {
  /** Keeps the delivery going until `promise` settles. */
  waitUntil(promise: Promise<unknown>): void;
  /** Accepted; does nothing (as in a queue handler). */
  passThroughOnException(): void;
  readonly props: unknown;
}

/** What `new Queue(options)` takes. */
export interface QueueOptions {
  /** The queue's name (`batch.queue`, the dead-letter queue's lookups). Default `queue`. */
  name?: string;
  /** The producer Worker's compatibility date: `json` is the default content type from 2024-03-18, `v8` before. Default today. */
  compatibilityDate?: string;
  compatibilityFlags?: string[];
  /** "Now" for timestamps, delays and batch timeouts (default `Date.now()`, so fake timers apply). */
  clock?: Clock;
  /** The producer's `delivery_delay`, in seconds: the delay of a send that names none. Default 0. */
  deliveryDelay?: number;
  /** Record sends and deliveries in `queue.log` from the start. Default false. */
  log?: boolean;
  /**
   * The consumer defaults settings fall back on. Default production's (batch 10, 5 s, 3 retries);
   * `SIMULATOR_CONSUMER_DEFAULTS` gives Miniflare's (5, 1 s, 2).
   */
  consumerDefaults?: Readonly<Required<Omit<ConsumerSettings, 'deadLetterQueue'>>>;
  /**
   * Where queues are found by name (dead-letter queues): an account's, or `createEnv`'s. A
   * dead-letter queue missing there is made and added (Queues creates it when missing). Default:
   * the queue's own.
   */
  queues?: Map<string, Queue>;
}

interface Consumer {
  readonly handler: QueueHandler<never, unknown>;
  readonly env: unknown;
  readonly settings: ResolvedConsumerSettings;
}

interface QueueSnapshot {
  readonly owner: Queue;
  readonly store: StoreSnapshot;
  /** The batch being delivered then (not in the store): held again on restore, as not yet delivered. */
  readonly inFlight: readonly Held[];
}

const KNOWN_OPTIONS = [
  'name',
  'compatibilityDate',
  'compatibilityFlags',
  'clock',
  'deliveryDelay',
  'log',
  'consumerDefaults',
  'queues',
];

/** How many messages of a `sendBatch` iterable are read before it is refused as too many (the limit is 100). */
const READ_AT_MOST = 10_000;

function checkDelay(d: number): boolean {
  return d >= 0 && d <= MAX_DELAY_SECONDS;
}

/** @internal Drops every message a queue holds, as `reset()` does, but keeps its fault rules and call log (the API's purge). */
export let purgeQueue: (queue: Queue) => void;

/**
 * @internal What the API's peek and metrics read, and its delete of peeked messages: the messages
 * the queue holds (not in a delivery), the batch in delivery, and a removal by id from what it holds.
 */
export let queueMessages: {
  /** Held now, oldest visible first (delayed ones after), a batch in delivery excluded. */
  held(queue: Queue): Held[];
  /** The batch being delivered (to a Worker, or held by the API's pull consumer). */
  inFlight(queue: Queue): readonly Held[];
  /** Takes the messages with these ids out of what the queue holds; returns the ids taken. */
  remove(queue: Queue, ids: ReadonlySet<string>): Set<string>;
};

/**
 * @internal What `--persist` (lib/node/persist) reads and brings back of a queue: how many times the
 * messages it holds changed (a send, a delivery settled, a dead letter taken, a restore or purge),
 * the messages held (a batch in delivery included, as a snapshot holds it), and a way to hold
 * persisted ones again (through `restore`, so delivery is scheduled).
 */
export let queueImage: {
  changes(queue: Queue): number;
  held(queue: Queue): Held[];
  load(queue: Queue, held: readonly Held[]): void;
};

/**
 * @internal Detaches the queue's consumer when it is `handler` (the API's HTTP pull consumer,
 * removed or restored away); a consumer attached in code stays. The messages stay held.
 */
export let detachConsumer: (queue: Queue, handler: (...args: never[]) => unknown) => void;

/**
 * The queue, through its producer binding. Its `constructor.name` is workerd's for the binding,
 * 'WorkerQueue'; `Queue` is the name workers-types gives the interface and this package exports it under.
 */
export class Queue<Body = unknown> {
  readonly name: string;
  readonly #compat: QueueCompat;
  readonly #time: TimeSource;
  readonly #manual: { sleep(ms: number): Promise<void> } | undefined;
  readonly #deliveryDelay: number;
  readonly #defaults: Readonly<Required<Omit<ConsumerSettings, 'deadLetterQueue'>>>;
  readonly #queues: Map<string, Queue>;
  readonly #support: QueueSupport;
  #consumer: Consumer | undefined;

  /** The messages held, and when they leave in batches. */
  readonly #store = new MessageStore();
  readonly #idPrefix = randomHex(8);
  #idCount = 0;
  /** The id's first 30 digits for the current run of 256 counter values (see #newId). */
  #idHigh = '';
  /** The delivery loop, while it runs. */
  #running: Promise<void> | undefined;
  /** The moment the queue has asked the clock to wake it at (Infinity: none). */
  #wakeAt = Infinity;
  /** The `setTimeout` that wake-up was set with (a ManualClock's sleep: undefined), to notice it gone. */
  #armedWith: unknown;
  /** Bumped by restore/reset: a delivery in flight then changes nothing. */
  #epoch = 0;
  /**
   * The batch being delivered, out of the store until its handler is done: a snapshot holds it (an
   * HTTP pull consumer holds a batch until a client acks it, lib/queue/pull-consumer.ts).
   */
  #inFlight: readonly Held[] = [];
  /** Rises whenever the messages held (store and batch in flight) change: `queueImage.changes`. */
  #changes = 0;

  constructor(options: QueueOptions = {}) {
    for (const k of Object.keys(options)) {
      if (!KNOWN_OPTIONS.includes(k))
        throw new TypeError(`Queue: unknown option '${k}' (known: ${KNOWN_OPTIONS.join(', ')})`);
    }
    const { name = 'queue', clock, deliveryDelay = 0, log = false } = options;
    if (typeof name !== 'string' || name === '')
      throw new TypeError(`Queue option 'name': expected a queue name, got ${String(name)}`);
    if (!(Number.isInteger(deliveryDelay) && checkDelay(deliveryDelay))) {
      throw new RangeError(
        `Queue option 'deliveryDelay': expected an integer from 0 to ${MAX_DELAY_SECONDS} seconds, got ${String(deliveryDelay)}`,
      );
    }
    if (typeof log !== 'boolean') throw new TypeError(`Queue option 'log': expected a boolean, got ${String(log)}`);
    this.name = name;
    this.#compat = resolveQueueCompat(options.compatibilityDate, options.compatibilityFlags);
    this.#time = timeSource(clock);
    queueClocks.set(this, clock);
    this.#manual =
      typeof clock === 'object' && clock !== null && typeof clock.sleep === 'function'
        ? (clock as { sleep(ms: number): Promise<void> })
        : undefined;
    this.#deliveryDelay = deliveryDelay;
    this.#defaults = options.consumerDefaults ?? PRODUCTION_CONSUMER_DEFAULTS;
    resolveConsumerSettings(this.#defaults as ConsumerSettings);
    this.#queues = options.queues ?? new Map();
    this.#support = new QueueSupport(log);
    registerServiceEntry(this, (message) => this.#fromService(message));
    registerDouble(
      this,
      queueDouble(
        { snapshot: () => this.snapshot(), restore: (s: never) => this.restore(s), reset: () => this.reset() },
        this.#support,
      ),
    );
  }

  // ---- the producer binding ------------------------------------------------------------------

  /** Sends one message. Rejects as workerd does: TypeErrors for the body, plain Errors for what the service refuses. */
  async send(body: Body, options?: QueueSendOptions): Promise<QueueSendResponse> {
    if (body === undefined) throw new TypeError('Message body cannot be undefined');
    const type = options?.contentType !== undefined ? contentTypeOf(options.contentType) : undefined;
    const delay = options?.delaySeconds !== undefined ? toInteger(options.delaySeconds) : undefined;
    // Copied for the log before encoding: send() detaches a bytes body's buffer.
    const copy = this.#support.log.recording ? copyArgument(body) : undefined;
    const encoded = encodeBody(body, type ?? this.#defaultType(), true);
    const entry = this.#support.log.recording
      ? this.#support.entry('send', this.name, this.#time.now(), [
          { id: '', body: copy, contentType: encoded.type, delaySeconds: delay ?? this.#deliveryDelay },
        ])
      : undefined;
    try {
      await this.#fault('send', entry, false);
      // The service's checks (Miniflare's broker's order: size, then delay).
      if (encoded.bytes > MAX_MESSAGE_BYTES) throw serviceError('message-size', false, this.#compat.exposeErrorCodes);
      if (delay !== undefined && !checkDelay(delay))
        throw serviceError('metadata', false, this.#compat.exposeErrorCodes);
      if (unreadable(encoded)) throw serviceError('internal', false, this.#compat.exposeErrorCodes);
      const response = this.#response();
      const held = this.#hold(encoded, delay ?? this.#deliveryDelay, this.#time.now());
      this.#wake();
      if (entry) entry.messages = [{ ...entry.messages[0]!, id: held.id }];
      return response;
    } catch (e) {
      if (entry) entry.error = errorText(e);
      throw e;
    } finally {
      if (entry) this.#support.log.done(entry);
    }
  }

  /** Sends up to 100 messages (256 KB in all) at once. */
  async sendBatch(
    messages: Iterable<MessageSendRequest<Body>>,
    options?: QueueSendBatchOptions,
  ): Promise<QueueSendResponse> {
    if (
      messages === null ||
      typeof messages !== 'object' ||
      typeof (messages as Iterable<unknown>)[Symbol.iterator] !== 'function'
    ) {
      throw new TypeError("Failed to execute 'sendBatch' on 'WorkerQueue': parameter 1 is not of type 'Sequence'.");
    }
    // workerd reads the whole sequence before the service counts it; the double stops reading far
    // past the limit, so an endless iterable is refused instead of growing without end.
    const list: MessageSendRequest<Body>[] = [];
    for (const m of messages) {
      if (list.length === READ_AT_MOST) throw serviceError('batch-count', true, this.#compat.exposeErrorCodes);
      list.push(m);
    }
    if (list.length === 0) throw new TypeError('sendBatch() requires at least one message');
    const batchDelay = options?.delaySeconds !== undefined ? toInteger(options.delaySeconds) : undefined;
    // Flat lists, not an object a message: a bench sends 10,000 (bench/queue.ts).
    const n = list.length;
    const bodies: HeldBody[] = new Array<HeldBody>(n);
    const delays: (number | undefined)[] = new Array<number | undefined>(n);
    for (let i = 0; i < n; i++) {
      const m = list[i]!;
      const body = (m as MessageSendRequest | null | undefined)?.body;
      if (body === undefined) throw new TypeError('Message body cannot be undefined');
      const type = m.contentType !== undefined ? contentTypeOf(m.contentType) : this.#defaultType();
      delays[i] = m.delaySeconds !== undefined ? toInteger(m.delaySeconds) : undefined;
      bodies[i] = encodeBody(body, type, false);
    }
    const entry = this.#support.log.recording
      ? this.#support.entry(
          'sendBatch',
          this.name,
          this.#time.now(),
          list.map((m, i) => ({
            id: '',
            body: copyArgument(m.body),
            contentType: bodies[i]!.type,
            delaySeconds: delays[i] ?? batchDelay ?? this.#deliveryDelay,
          })),
        )
      : undefined;
    try {
      await this.#fault('sendBatch', entry, true);
      const expose = this.#compat.exposeErrorCodes;
      if (n > MAX_BATCH_MESSAGES) throw serviceError('batch-count', true, expose);
      let total = 0;
      for (let i = 0; i < n; i++) {
        const bytes = bodies[i]!.bytes;
        if (bytes > MAX_MESSAGE_BYTES) throw serviceError('message-size', true, expose);
        total += bytes;
      }
      if (total > MAX_BATCH_BYTES) throw serviceError('batch-size', true, expose);
      if (batchDelay !== undefined && !checkDelay(batchDelay)) throw serviceError('metadata', true, expose);
      for (let i = 0; i < n; i++) {
        const d = delays[i];
        if (d !== undefined && !checkDelay(d)) throw serviceError('metadata', true, expose);
        if (unreadable(bodies[i]!)) throw serviceError('internal', true, expose);
      }
      const response = this.#response();
      const now = this.#time.now();
      const fallback = batchDelay ?? this.#deliveryDelay;
      const ids: string[] | undefined = entry ? [] : undefined;
      for (let i = 0; i < n; i++) {
        const h = this.#hold(bodies[i]!, delays[i] ?? fallback, now);
        ids?.push(h.id);
      }
      this.#wake();
      if (entry) entry.messages = entry.messages.map((m, i) => ({ ...m, id: ids![i]! }));
      return response;
    } catch (e) {
      if (entry) entry.error = errorText(e);
      throw e;
    } finally {
      if (entry) this.#support.log.done(entry);
    }
  }

  /** The backlog: messages held and not in a batch being delivered. */
  async metrics(): Promise<QueueMetrics> {
    this.#wake();
    return this.#metrics();
  }

  // ---- the consumer side ---------------------------------------------------------------------

  /**
   * Attaches the consumer (a Worker's `queue` handler, called with `env`), with its settings
   * (`max_batch_size`, ... as `[[queues.consumers]]` names them, in camelCase). Replaces any
   * consumer attached before. Without settings, those a config gave the queue (`createEnv`'s
   * `[[queues.consumers]]` entry) apply. Returns the queue.
   */
  consume<Env = unknown>(handler: QueueHandler<Body, Env>, settings?: ConsumerSettings & { env?: Env }): this {
    if (typeof handler !== 'function')
      throw new TypeError(`Queue.consume: the handler must be a function, got ${typeof handler}`);
    const { env, ...rest } = settings ?? {};
    const given = Object.keys(rest).length > 0 ? rest : (presets.get(this) ?? rest);
    this.#consumer = {
      handler: handler as QueueHandler<never, unknown>,
      env,
      settings: resolveConsumerSettings(given, this.#defaults),
    };
    this.#wake();
    return this;
  }

  /** The consumer's settings in force (defaults filled in), or undefined without a consumer. */
  get consumerSettings(): Readonly<ResolvedConsumerSettings> | undefined {
    return this.#consumer?.settings;
  }

  /**
   * Delivers everything visible now (whole batches or not: batch timeouts are not waited for) and
   * resolves when the consumer is done with it, retries that come due on the clock meanwhile
   * included. `{ waitForBatchTimeout: true }` delivers only what the clock makes due (full
   * batches, and partial ones whose timeout has passed), as production would by now.
   */
  async drain(options?: { waitForBatchTimeout?: boolean }): Promise<void> {
    const force = !options?.waitForBatchTimeout;
    for (;;) {
      if (this.#running) {
        await this.#running;
        continue;
      }
      if (!this.#consumer || !this.#due(this.#time.now(), force)) return;
      await this.#run(force);
    }
  }

  /** The messages held (visible or delayed, not in a batch being delivered), oldest first: ids, bodies, attempts. */
  get pending(): { id: string; body: unknown; attempts: number; visibleAt: Date }[] {
    this.#wake();
    return this.#store.all().map((h) => ({
      id: h.id,
      body: decodeBody(h.body),
      attempts: h.failures + 1,
      visibleAt: new Date(h.visibleAt),
    }));
  }

  /** The queue's dead-letter queue (made when missing, as Queues does), when the consumer names one. */
  get deadLetterQueue(): Queue | undefined {
    const name = this.#consumer?.settings.deadLetterQueue;
    return name === undefined ? undefined : this.#queueNamed(name);
  }

  // ---- test support --------------------------------------------------------------------------

  /** Fault rules: failed sends, and deliveries that fail, repeat or reorder (QueueFault). */
  get faults() {
    return this.#support.faults;
  }

  /** Sends and deliveries, when recording (`log: true` or `log.start()`). */
  get log() {
    return this.#support.log;
  }

  /** The messages held now, a batch being delivered included (O(messages held)); restore with `restore`. */
  snapshot(): object {
    return Object.freeze({
      owner: this,
      store: this.#store.snapshot(),
      inFlight: this.#inFlight,
    } satisfies QueueSnapshot);
  }

  /** Puts back the messages of a snapshot this queue took; clears fault rules and the call log. */
  restore(snapshot: object): void {
    const s = snapshot as QueueSnapshot;
    if (s?.owner !== this) throw new TypeError('Queue.restore: this snapshot was not taken by this queue');
    this.#epoch++;
    this.#changes++;
    this.#store.restore(s.store);
    this.#inFlight = [];
    for (const h of s.inFlight) this.#store.add(h);
    this.#support.clear();
    this.#wakeAt = Infinity;
    this.#schedule();
  }

  /** Empties the queue; clears fault rules and the call log (the consumer stays attached). */
  reset(): void {
    this.#purge();
    this.#support.clear();
  }

  /** Drops every message held (a delivery in flight is forgotten); fault rules and the log stay. */
  #purge(): void {
    this.#epoch++;
    this.#changes++;
    this.#store.clear();
    this.#inFlight = [];
    this.#wakeAt = Infinity;
  }

  static {
    purgeQueue = (queue) => queue.#purge();
    queueImage = {
      changes: (queue) => queue.#changes,
      held: (queue) => [...queue.#inFlight, ...queue.#store.all()],
      load: (queue, held) =>
        queue.restore(
          Object.freeze({
            owner: queue,
            store: { waiting: [], ready: [], openedAt: 0 },
            inFlight: held,
          } satisfies QueueSnapshot),
        ),
    };
    queueMessages = {
      held: (queue) => {
        queue.#wake();
        return queue.#store.all();
      },
      inFlight: (queue) => queue.#inFlight,
      remove: (queue, ids) => {
        const taken = queue.#store.remove(ids);
        if (taken.length) queue.#changes++;
        return new Set(taken.map((h) => h.id));
      },
    };
    detachConsumer = (queue, handler) => {
      if (queue.#consumer?.handler !== handler) return;
      queue.#consumer = undefined;
      queue.#wakeAt = Infinity;
    };
  }

  // ---- inside --------------------------------------------------------------------------------

  #defaultType(): QueueContentType {
    return this.#compat.jsonByDefault ? 'json' : 'v8';
  }

  async #fault(op: 'send' | 'sendBatch', entry: MutableQueueCall | undefined, batch: boolean): Promise<void> {
    const fault = this.#support.faults.active ? this.#support.faults.take(op) : undefined;
    if (!fault) return;
    const fails = actionOf(fault.rule) === 'fail';
    if (entry) entry.injected = { fault: fault.id, delay: fault.rule.delay, failed: fails };
    if (fault.rule.delay) await this.#time.sleep(fault.rule.delay);
    if (fails) throw faultError(fault.rule.message, batch, this.#compat.exposeErrorCodes);
  }

  /** The send's answer: the backlog before the send (as Miniflare's broker answers). */
  #response(): QueueSendResponse {
    return { metadata: { metrics: this.#metrics() } };
  }

  #metrics(): QueueMetrics {
    const { count, bytes, oldest } = this.#store.backlog;
    return oldest === undefined
      ? { backlogCount: count, backlogBytes: bytes }
      : { backlogCount: count, backlogBytes: bytes, oldestMessageTimestamp: new Date(oldest) };
  }

  /**
   * A message a Cloudflare service writes (R2's event notifications), not a Worker's producer
   * binding: JSON, no delay of the producer's, no fault rules of the binding's (they stand for a
   * Worker's failing send), and never a rejection; logged as a send, so the matchers see it.
   */
  #fromService(message: ServiceMessage): void {
    const json = deferredJson(message);
    // One message, so no arrays: this runs on every notified write (bench/notifications.ts).
    const held = this.#hold(json, 0, this.#time.now());
    this.#wake();
    if (this.#support.log.recording) {
      const body = JSON.parse(json.value) as unknown;
      const entry = this.#support.entry('send', this.name, this.#time.now(), [
        { id: held.id, body, contentType: 'json', delaySeconds: 0 },
      ]);
      if (entry) this.#support.log.done(entry);
    }
  }

  /** Puts one message on the queue (the caller schedules delivery). */
  #hold(body: HeldBody, delay: number, now: number): Held {
    const h: Held = {
      id: this.#newId(),
      timestamp: now,
      body,
      failures: 0,
      visibleAt: now + delay * 1000,
      seq: this.#store.nextSeq(),
    };
    this.#store.add(h);
    this.#changes++;
    return h;
  }

  /**
   * A message id: 32 hex digits, as production's and Miniflare's. A random half per queue and a
   * counter: unique, and cheaper than 16 random bytes a message when a test sends thousands. All
   * but the counter's last two digits are made once per 256 messages, so an id is one concatenation.
   */
  #newId(): string {
    const n = ++this.#idCount;
    const low = n & 0xff;
    if (low === 0 || this.#idHigh === '') {
      const high = Math.floor(n / 256);
      this.#idHigh = this.#idPrefix + high.toString(16).padStart(14, '0');
    }
    return this.#idHigh + HEX_BYTE[low];
  }

  /** The consumer's batching, or undefined without a consumer. */
  #batching(): Batching | undefined {
    const c = this.#consumer?.settings;
    return c && { size: c.maxBatchSize, timeoutMs: c.maxBatchTimeout * 1000 };
  }

  #due(now: number, force: boolean): boolean {
    const b = this.#batching();
    return b !== undefined && this.#store.due(now, b, force);
  }

  #run(force: boolean): Promise<void> {
    // `.finally` runs after this assignment even when the loop finds nothing to do.
    const run: Promise<void> = this.#loop(force).finally(() => {
      if (this.#running === run) this.#running = undefined;
      this.#schedule();
    });
    this.#running = run;
    return run;
  }

  async #loop(force: boolean): Promise<void> {
    for (;;) {
      const batching = this.#batching();
      const next = batching && this.#store.take(this.#time.now(), batching, force);
      if (!next) return;
      await this.#deliver(next.messages, next.at);
    }
  }

  /**
   * What every operation does with the clock before it returns: delivers what fell due while no
   * wake-up came, and re-arms a wake-up that is gone. A timer can be lost without the queue hearing
   * of it: workerd drops one set during a request once the test has read the response (when the
   * request cannot be kept alive for it, see #schedule), and a test may clear its fake timers or
   * switch them off and on. A wake-up whose moment has passed, or one
   * set with a `setTimeout` no longer the global one, counts as lost. (One dropped before its moment
   * with the same timers is noticed by the first operation after that moment.) A ManualClock's
   * wake-up cannot be lost.
   */
  #wake(): void {
    // A ManualClock's sleep is never lost: its `advance` releases it, synchronously.
    if (this.#wakeAt !== Infinity && !this.#running && this.#manual === undefined) {
      const now = this.#time.now();
      if (this.#wakeAt < now || this.#armedWith !== globalThis.setTimeout) {
        this.#wakeAt = Infinity;
        if (this.#due(now, false)) {
          void this.#run(false).catch(() => {});
          return;
        }
      }
    }
    this.#schedule();
  }

  /** Asks the clock to wake the queue at the next moment something becomes due. */
  #schedule(): void {
    const batching = this.#batching();
    if (!batching || this.#running) return;
    const at = this.#store.nextEvent(this.#time.now(), batching);
    if (at === Infinity || at >= this.#wakeAt) return;
    this.#wakeAt = at;
    const wake = () => {
      if (this.#wakeAt === at) this.#wakeAt = Infinity;
      if (this.#running) void this.#running.then(() => this.#schedule());
      else if (this.#due(this.#time.now(), false)) void this.#run(false).catch(() => {});
      else this.#schedule();
    };
    const ms = Math.max(0, at - this.#time.now());
    if (this.#manual) void this.#manual.sleep(ms).then(wake);
    else {
      // Armed inside a workerd request (a Worker's send while serving one), the timer belongs to that
      // request and never fires once the request is over, with no later queue call to notice it
      // gone: the request is kept until the wake-up has come and the delivery it started is done
      // (lib/wait-until.ts). A ManualClock's wake-up needs no keeping: the test's advance() runs it.
      keepRequestAlive(ms, () => this.#wakeAt === at || this.#running !== undefined, KEEP_AFTER_WAKE_MS);
      this.#armedWith = globalThis.setTimeout;
      const handle = globalThis.setTimeout(wake, ms) as unknown as { unref?: () => void };
      if (typeof handle === 'object' && handle !== null && typeof handle.unref === 'function') handle.unref();
    }
  }

  /** Delivers one batch to the consumer at moment `at`, then acks, retries or dead-letters each message. */
  async #deliver(held: Held[], at: number): Promise<void> {
    const consumer = this.#consumer!;
    const epoch = this.#epoch;
    const taken = held;
    this.#inFlight = taken;
    const support = this.#support;
    const fault = support.faults.active ? support.faults.take('deliver') : undefined;
    const action = fault && actionOf(fault.rule);
    if (fault?.rule.delay) await this.#time.sleep(fault.rule.delay);
    if (action === 'reorder') held = shuffled(held, fault!.rule.seed ?? fault!.id);
    const state = new BatchState();
    const messages: Message<never>[] = [];
    for (const h of held) messages.push(new Message<never>(state, h, h.failures + 1));
    const batch = new MessageBatch(state, this.name, messages, { metrics: metricsOf(this.#metrics()) });
    let failed = false;
    let error: unknown;
    if (action === 'fail') {
      failed = true;
      error = new Error(fault!.rule.message ?? 'delivery failed (fault)');
    } else {
      const ctx = createExecutionContext<ExecutionContextLike>();
      try {
        await consumer.handler(batch as never, consumer.env, ctx);
      } catch (e) {
        failed = true;
        error = e;
      }
      // Acks are implicit when the handler returns and its waitUntil promises settle (a rejection
      // there does not fail the batch: workerd reports the handler's own outcome).
      await waitOnExecutionContext(ctx).catch(() => {});
    }
    if (epoch !== this.#epoch) return; // restored or reset meanwhile: the batch is forgotten
    if (this.#inFlight === taken) this.#inFlight = [];
    this.#changes++; // settled: acked messages are gone, retried ones held again
    // The common case, a handler that returned without a call on its messages: all acked, and
    // nothing more to do unless the batch is duplicated or logged.
    const allAcked = !failed && state.untouched;
    if (allAcked && action !== 'duplicate' && !support.log.recording) return;
    const outcomes: MessageOutcome[] = [];
    const dead: Held[] = [];
    const settings = consumer.settings;
    for (const h of held) {
      if (allAcked) {
        outcomes.push('acked');
        continue;
      }
      const fate = state.fate(h.id, failed);
      if (!fate.retry) {
        outcomes.push('acked');
        continue;
      }
      if (fate.givenBack) {
        // Given back by the API's pull consumer when removed (lib/queue/pull-consumer.ts): visible
        // again as it was, no attempt spent (logged as retried: the log has no other word for it).
        outcomes.push('retried');
        this.#store.add({ ...h, visibleAt: at, seq: this.#store.nextSeq() });
        continue;
      }
      const failures = h.failures + 1;
      if (failures > settings.maxRetries) {
        if (settings.deadLetterQueue !== undefined) {
          outcomes.push('dead-lettered');
          dead.push(h);
        } else outcomes.push('dropped');
        continue;
      }
      outcomes.push('retried');
      const delay = fate.delaySeconds ?? settings.retryDelay;
      this.#store.add({ ...h, failures, visibleAt: at + Math.max(0, delay) * 1000, seq: this.#store.nextSeq() });
    }
    if (action === 'duplicate') {
      // At-least-once: the acked messages come once more, as they were.
      held.forEach(
        (h, i) => outcomes[i] === 'acked' && this.#store.add({ ...h, visibleAt: at, seq: this.#store.nextSeq() }),
      );
    }
    if (dead.length) this.#queueNamed(settings.deadLetterQueue!).#acceptDead(dead);
    // Built only when recording: reading a body decodes it.
    const entry = support.log.recording
      ? support.entry(
          'deliver',
          this.name,
          at,
          held.map((h, i): LoggedMessage => ({
            id: h.id,
            body: messages[i]!.body,
            contentType: h.body.type,
            attempts: h.failures + 1,
            outcome: outcomes[i],
          })),
        )
      : undefined;
    if (entry) {
      if (failed) entry.error = errorText(error);
      if (fault) entry.injected = { fault: fault.id, delay: fault.rule.delay, failed: action === 'fail' };
      support.log.done(entry);
    }
  }

  /** Takes messages whose retries ran out on another queue: same id, timestamp and body, attempts afresh. */
  #acceptDead(dead: Held[]): void {
    const now = this.#time.now();
    for (const h of dead) this.#store.add({ ...h, failures: 0, visibleAt: now, seq: this.#store.nextSeq() });
    this.#changes++;
    this.#schedule();
  }

  #queueNamed(name: string): Queue {
    let q = this.#queues.get(name);
    if (!q) {
      // Made as Queues makes a missing dead-letter queue: on this queue's clock, recording if this one does.
      q = new Queue({
        name,
        clock: this.#manual ? (this.#manual as Clock) : () => this.#time.now(),
        queues: this.#queues,
        consumerDefaults: this.#defaults,
        log: this.#support.log.recording,
      });
      queueClocks.set(q, queueClocks.get(this)); // the same time as this queue's, whichever function reads it
      this.#queues.set(name, q);
    }
    return q;
  }
}

Object.defineProperty(Queue, 'name', { value: 'WorkerQueue' });

/**
 * How long a workerd request that armed a wake-up is kept at most after the wake-up's moment
 * (lib/wait-until.ts): longer than a test waits for a delivery. A wake-up on fake timers, which the
 * test runs from its own context, holds the request that long when the test does not advance them.
 */
const KEEP_AFTER_WAKE_MS = 60_000;

/** Two hex digits for each byte value, for message ids. */
const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The `clock` option each queue was made with, for `clockOfQueue`. */
const queueClocks = new WeakMap<Queue, Clock | undefined>();

/** @internal The clock option `queue` runs on (undefined: `Date.now()`): `createEnv` checks its own against an account's queue's. */
export function clockOfQueue(queue: Queue): Clock | undefined {
  return queueClocks.get(queue);
}

/** Consumer settings a config gave a queue before any consumer was attached (createEnv without a worker). */
const presets = new WeakMap<Queue, ConsumerSettings>();

/** @internal Remembers a config's consumer settings for a later `consume(handler)` (checked now). */
export function presetConsumerSettings(queue: Queue, settings: ConsumerSettings): void {
  resolveConsumerSettings(settings);
  presets.set(queue, settings);
}

function metricsOf(m: QueueMetrics): MessageBatchMetadata['metrics'] {
  return m;
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** A seeded shuffle (Fisher–Yates): the same seed, the same order. */
function shuffled<T>(list: T[], seed: number): T[] {
  const out = list.slice();
  const draw = seeded(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(draw() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  // A shuffle that happens to keep the order is no reordering: rotate instead.
  if (out.length > 1 && out.every((x, i) => x === list[i])) out.push(out.shift()!);
  return out;
}
