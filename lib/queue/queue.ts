/**
 * The Queues double's producer binding (`send`, `sendBatch`, `metrics`) and the test helpers on it:
 * workerd's argument conversion and the service's refusals, over the queue's state (queue-state.ts:
 * the messages held and their delivery to a consumer with Queues' batching, ack, retry and
 * dead-letter rules, on the double's clock). A queue an account holds has its state in the account's
 * Queues backend (backend.ts), which makes its binding with `queueOver`; `new Queue()` makes its own.
 *
 * `await drain()` delivers every message visible now without waiting for batch timeouts, and
 * resolves when the consumer is done with them, retries that come due meanwhile included: no test
 * sleeps.
 */
import type { Clock } from '../clock.js';
import { copyArgument } from '../support/call-log.js';
import { registerDouble } from '../support/registry.js';
import { actionOf, queueDouble, type MutableQueueCall } from '../support/queue-support.js';
import { toInteger, type MessageBatch } from './batch.js';
import { resolveQueueCompat, type QueueCompat } from './compat.js';
import { contentTypeOf, decodeBody, encodeBody, unreadable, type HeldBody, type QueueContentType } from './content.js';
import { faultError, serviceError } from './errors.js';
import { errorText, QueueState, type QueueDirectory } from './queue-state.js';
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
   * Where queues are found by name (dead-letter queues): `createEnv`'s, or a map of your own. A
   * dead-letter queue missing there is made and added (Queues creates it when missing). Default:
   * the queue's own. (An account's queues find theirs in the account.)
   */
  queues?: Map<string, Queue>;
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

/**
 * The queue, through its producer binding. Its `constructor.name` is workerd's for the binding,
 * 'WorkerQueue'; `Queue` is the name workers-types gives the interface and this package exports it under.
 */
export class Queue<Body = unknown> {
  readonly name: string;
  readonly #compat: QueueCompat;
  readonly #deliveryDelay: number;
  /** The messages held and their delivery: the queue's own, or its account's (`queueOver`). */
  readonly #state: QueueState;

  constructor(options?: QueueOptions);
  // The second argument is `queueOver`'s only: the state an owner (the account's Queues backend) made.
  constructor(options: QueueOptions = {}, state?: QueueState) {
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
    this.#deliveryDelay = deliveryDelay;
    const defaults = options.consumerDefaults ?? PRODUCTION_CONSUMER_DEFAULTS;
    resolveConsumerSettings(defaults as ConsumerSettings);
    if (state instanceof QueueState && state.queue === undefined && state.name === name) this.#state = state;
    else if (state !== undefined) throw new TypeError('Queue: unknown argument');
    else {
      this.#state = new QueueState({
        name,
        clock,
        consumerDefaults: defaults,
        log,
        directory: Queue.#directory(options.queues ?? new Map()),
      });
    }
    this.#state.queue = this;
    const s = this.#state;
    registerDouble(
      this,
      queueDouble(
        { snapshot: () => s.snapshot(), restore: (snap: never) => s.restore(snap), reset: () => s.reset() },
        s.support,
      ),
    );
  }

  /** Dead-letter queues found in (and made into) a map of queues by name: createEnv's, or the user's. */
  static #directory(queues: Map<string, Queue>): QueueDirectory {
    return {
      deadLetter: (name, from) => {
        let q = queues.get(name);
        if (!q) {
          // Made as Queues makes a missing dead-letter queue: on this queue's clock, recording if this one does.
          q = new Queue({
            name,
            ...(from.clock !== undefined ? { clock: from.clock } : {}),
            queues,
            consumerDefaults: from.defaults,
            log: from.support.log.recording,
          });
          queues.set(name, q);
        }
        return q.#state;
      },
    };
  }

  // ---- the producer binding ------------------------------------------------------------------

  /** Sends one message. Rejects as workerd does: TypeErrors for the body, plain Errors for what the service refuses. */
  async send(body: Body, options?: QueueSendOptions): Promise<QueueSendResponse> {
    if (body === undefined) throw new TypeError('Message body cannot be undefined');
    const type = options?.contentType !== undefined ? contentTypeOf(options.contentType) : undefined;
    const delay = options?.delaySeconds !== undefined ? toInteger(options.delaySeconds) : undefined;
    const state = this.#state;
    const support = state.support;
    // Copied for the log before encoding: send() detaches a bytes body's buffer.
    const copy = support.log.recording ? copyArgument(body) : undefined;
    const encoded = encodeBody(body, type ?? this.#defaultType(), true);
    const entry = support.log.recording
      ? support.entry('send', this.name, state.time.now(), [
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
      const held = state.hold(encoded, delay ?? this.#deliveryDelay, state.time.now());
      state.wake();
      if (entry) entry.messages = [{ ...entry.messages[0]!, id: held.id }];
      return response;
    } catch (e) {
      if (entry) entry.error = errorText(e);
      throw e;
    } finally {
      if (entry) support.log.done(entry);
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
    const state = this.#state;
    const support = state.support;
    const entry = support.log.recording
      ? support.entry(
          'sendBatch',
          this.name,
          state.time.now(),
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
      const now = state.time.now();
      const fallback = batchDelay ?? this.#deliveryDelay;
      const ids: string[] | undefined = entry ? [] : undefined;
      for (let i = 0; i < n; i++) {
        const h = state.hold(bodies[i]!, delays[i] ?? fallback, now);
        ids?.push(h.id);
      }
      state.wake();
      if (entry) entry.messages = entry.messages.map((m, i) => ({ ...m, id: ids![i]! }));
      return response;
    } catch (e) {
      if (entry) entry.error = errorText(e);
      throw e;
    } finally {
      if (entry) support.log.done(entry);
    }
  }

  /** The backlog: messages held and not in a batch being delivered. */
  async metrics(): Promise<QueueMetrics> {
    this.#state.wake();
    return this.#state.metrics();
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
    this.#state.attach({
      handler: handler as QueueHandler<never, unknown>,
      env,
      settings: resolveConsumerSettings(given, this.#state.defaults),
    });
    return this;
  }

  /** The consumer's settings in force (defaults filled in), or undefined without a consumer. */
  get consumerSettings(): Readonly<ResolvedConsumerSettings> | undefined {
    return this.#state.consumer?.settings;
  }

  /**
   * Delivers everything visible now (whole batches or not: batch timeouts are not waited for) and
   * resolves when the consumer is done with it, retries that come due on the clock meanwhile
   * included. `{ waitForBatchTimeout: true }` delivers only what the clock makes due (full
   * batches, and partial ones whose timeout has passed), as production would by now.
   */
  async drain(options?: { waitForBatchTimeout?: boolean }): Promise<void> {
    await this.#state.drain(!options?.waitForBatchTimeout);
  }

  /** The messages held (visible or delayed, not in a batch being delivered), oldest first: ids, bodies, attempts. */
  get pending(): { id: string; body: unknown; attempts: number; visibleAt: Date }[] {
    return this.#state.held().map((h) => ({
      id: h.id,
      body: decodeBody(h.body),
      attempts: h.failures + 1,
      visibleAt: new Date(h.visibleAt),
    }));
  }

  /** The queue's dead-letter queue (made when missing, as Queues does), when the consumer names one. */
  get deadLetterQueue(): Queue | undefined {
    return this.#state.deadLetterQueue()?.queue;
  }

  // ---- test support --------------------------------------------------------------------------

  /** Fault rules: failed sends, and deliveries that fail, repeat or reorder (QueueFault). */
  get faults() {
    return this.#state.support.faults;
  }

  /** Sends and deliveries, when recording (`log: true` or `log.start()`). */
  get log() {
    return this.#state.support.log;
  }

  /** The messages held now, a batch being delivered included (O(messages held)); restore with `restore`. */
  snapshot(): object {
    return this.#state.snapshot();
  }

  /** Puts back the messages of a snapshot this queue took; clears fault rules and the call log. */
  restore(snapshot: object): void {
    this.#state.restore(snapshot);
  }

  /** Empties the queue; clears fault rules and the call log (the consumer stays attached). */
  reset(): void {
    this.#state.reset();
  }

  // ---- inside --------------------------------------------------------------------------------

  #defaultType(): QueueContentType {
    return this.#compat.jsonByDefault ? 'json' : 'v8';
  }

  async #fault(op: 'send' | 'sendBatch', entry: MutableQueueCall | undefined, batch: boolean): Promise<void> {
    const support = this.#state.support;
    const fault = support.faults.active ? support.faults.take(op) : undefined;
    if (!fault) return;
    const fails = actionOf(fault.rule) === 'fail';
    if (entry) entry.injected = { fault: fault.id, delay: fault.rule.delay, failed: fails };
    if (fault.rule.delay) await this.#state.time.sleep(fault.rule.delay);
    if (fails) throw faultError(fault.rule.message, batch, this.#compat.exposeErrorCodes);
  }

  /** The send's answer: the backlog before the send (as Miniflare's broker answers). */
  #response(): QueueSendResponse {
    return { metadata: { metrics: this.#state.metrics() } };
  }
}

Object.defineProperty(Queue, 'name', { value: 'WorkerQueue' });

/** What a producer binding decides of its own: the Worker's compatibility and its `delivery_delay`. */
export type ProducerOptions = Pick<QueueOptions, 'compatibilityDate' | 'compatibilityFlags' | 'deliveryDelay'>;

/** @internal The producer binding over `state`, a queue's state its owner made (the account's Queues backend). */
export function queueOver(state: QueueState, producer: ProducerOptions = {}): Queue {
  const make = Queue as unknown as new (options: QueueOptions, state: QueueState) => Queue;
  return new make({ ...producer, name: state.name, consumerDefaults: state.defaults }, state);
}

/** Consumer settings a config gave a queue before any consumer was attached (createEnv without a worker). */
const presets = new WeakMap<Queue, ConsumerSettings>();

/** @internal Remembers a config's consumer settings for a later `consume(handler)` (checked now). */
export function presetConsumerSettings(queue: Queue, settings: ConsumerSettings): void {
  resolveConsumerSettings(settings);
  presets.set(queue, settings);
}
