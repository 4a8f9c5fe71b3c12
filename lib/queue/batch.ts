/**
 * What a consumer receives: `MessageBatch` and `Message` as workers-types declares them, and the
 * ack/retry state their calls collect, kept as workerd keeps it (src/workerd/api/queue.c++:
 * `QueueMessage::ack/retry`, `QueueEvent::ackAll/retryAll`, `QueueEventResult`):
 *
 * - `retry()` after `ackAll()` or after the message's `ack()` is ignored; `ack()` after `retryAll()`
 *   or after the message's `retry()` is ignored; `ackAll()` after `retryAll()` and `retryAll()`
 *   after `ackAll()` are ignored. So the first call on a message wins, and a call on a message made
 *   before `ackAll()`/`retryAll()` stands against it (cloudflare-docs `batching-retries.mdx`).
 * - A second `retry()` on a message replaces its delay, and one without a delay clears it, so the
 *   consumer's retry delay applies (workerd upserts an empty entry, then sets the delay if given).
 *
 * workerd logs a warning for each ignored call; the double ignores them silently.
 */
import { decodeBody, type HeldBody } from './content.js';

/** Delay options of `retry()` / `retryAll()`. */
export interface QueueRetryOptions {
  delaySeconds?: number;
}

/**
 * The state a batch's calls collect: the shape `getQueueResult` shows (as `@cloudflare/vitest-plugin`'s).
 * The `delaySeconds` fields are workerd's (its queue event result has them); `cloudflare:test`,
 * and so `getQueueResult`, never fills them in.
 */
export interface QueueResult {
  outcome: string;
  ackAll: boolean;
  retryBatch: { retry: boolean; delaySeconds?: number };
  explicitAcks: string[];
  retryMessages: { msgId: string; delaySeconds?: number }[];
}

/** Internal: what the calls on one batch recorded. */
export class BatchState {
  ackAll = false;
  retryAll = false;
  retryAllDelay: number | undefined;
  readonly acks = new Set<string>();
  readonly retries = new Map<string, number | undefined>();
  /** Messages first retried after `retryAll()`: `cloudflare:test` does not list them (see `result`). */
  readonly #retriedAfterAll = new Set<string>();

  /**
   * Messages handed back unread, no attempt spent: only the API's HTTP pull consumer does this, for
   * the messages of its held batch when it is removed (lib/queue/pull-consumer.ts). Never a Worker's call.
   */
  readonly givenBack = new Set<string>();

  /** No call was made on the batch or its messages but `ackAll()`. */
  get untouched(): boolean {
    return !this.retryAll && this.retries.size === 0 && this.givenBack.size === 0;
  }

  ack(id: string): void {
    if (this.ackAll || this.retryAll || this.retries.has(id)) return;
    this.acks.add(id);
  }

  retry(id: string, options: QueueRetryOptions | undefined): void {
    if (this.ackAll || this.acks.has(id)) return;
    if (this.retryAll && !this.retries.has(id)) this.#retriedAfterAll.add(id);
    this.retries.set(id, delayOption(options));
  }

  doAckAll(): void {
    if (this.retryAll) return;
    this.ackAll = true;
  }

  doRetryAll(options: QueueRetryOptions | undefined): void {
    if (this.ackAll) return;
    this.retryAll = true;
    const d = delayOption(options);
    if (d !== undefined) this.retryAllDelay = d;
  }

  /**
   * What `getQueueResult` gives, exactly as `cloudflare:test` builds it (@cloudflare/vitest-plugin
   * 1.5.0, dist/worker/lib/cloudflare/test-internal.mjs): its `retry()` and `retryAll()` take no
   * options, so no delay is ever reported (`{ msgId }`, `{ retry }`), and its `retry()` after
   * `retryAll()` records nothing. The delays still decide the delivery (`fate`), as workerd's own
   * result carries them to the service.
   */
  result(ids: readonly string[], outcome: string): QueueResult {
    return {
      outcome,
      ackAll: this.ackAll,
      retryBatch: { retry: this.retryAll },
      explicitAcks: ids.filter((id) => this.acks.has(id)),
      retryMessages: ids
        .filter((id) => this.retries.has(id) && !this.#retriedAfterAll.has(id))
        .map((msgId) => ({ msgId })),
    };
  }

  /**
   * What happens to one message when the handler is done: retried (with its delay, when one was
   * asked) or acked. `failed`: the handler threw (or its waitUntil rejected): the whole batch is
   * retried except the messages acked explicitly (cloudflare-docs `batching-retries.mdx`).
   */
  fate(
    id: string,
    failed: boolean,
  ): { retry: false } | { retry: true; delaySeconds: number | undefined; givenBack?: true } {
    if (this.givenBack.has(id)) return { retry: true, delaySeconds: 0, givenBack: true };
    if (this.acks.has(id)) return { retry: false };
    if (this.retries.has(id)) return { retry: true, delaySeconds: this.retries.get(id) ?? this.retryAllDelay };
    if (failed || this.retryAll) return { retry: true, delaySeconds: this.retryAllDelay };
    return { retry: false };
  }
}

/** workerd converts `delaySeconds` as an integer (a fraction truncated, NaN as 0). */
function delayOption(options: QueueRetryOptions | undefined): number | undefined {
  if (options === undefined || options === null) return undefined;
  const d = (options as QueueRetryOptions).delaySeconds;
  return d === undefined ? undefined : toInteger(d);
}

export function toInteger(v: unknown): number {
  const n = Math.trunc(Number(v));
  return Number.isFinite(n) ? n : Number.isNaN(n) ? 0 : n;
}

const states = new WeakMap<object, BatchState>();

/** The batch's state (for `getQueueResult` and the queue's delivery). */
export const batchState = (batch: object): BatchState | undefined => states.get(batch);

/**
 * What a message is made of: the queue's held message (lib/queue/store.ts `Held`, read in place,
 * so a delivery copies nothing of it) or a hand-built one (`createMessageBatch`, no held body).
 */
export interface MessageSource {
  readonly id: string;
  /** When it was sent (epoch ms). */
  readonly timestamp: number;
  /** The body as held, decoded on first read; undefined when the body is given as a value. */
  readonly body: HeldBody | undefined;
}

/** One message as the consumer sees it. Its fields are read-only accessors, as workerd's. */
export class Message<Body = unknown> {
  readonly #state: BatchState;
  readonly #source: MessageSource;
  readonly #attempts: number;
  /** Made when first read, then the same one each read. */
  #timestamp: Date | undefined;
  /** The body once decoded (or as given); `#decoded` says whether it is. */
  #body: Body | undefined;
  #decoded: boolean;

  /**
   * @internal Built by the queue (the body decoded on first read) or `createMessageBatch` (`body`
   * given). No closure and no copy a message: a delivery of 10,000 messages makes these and
   * nothing else per message (bench/queue.ts).
   */
  constructor(state: BatchState, source: MessageSource, attempts: number, body?: Body) {
    this.#state = state;
    this.#source = source;
    this.#attempts = attempts;
    this.#body = body;
    this.#decoded = source.body === undefined;
  }

  get id(): string {
    return this.#source.id;
  }

  get timestamp(): Date {
    return (this.#timestamp ??= new Date(this.#source.timestamp));
  }

  get body(): Body {
    if (!this.#decoded) {
      this.#body = decodeBody(this.#source.body!) as Body;
      this.#decoded = true;
    }
    return this.#body as Body;
  }

  get attempts(): number {
    return this.#attempts;
  }

  /** Acknowledges the message: it will not be delivered again, whatever the batch does. */
  ack(): void {
    this.#state.ack(this.#source.id);
  }

  /** Asks for the message again (after `delaySeconds`); counts toward `max_retries`. */
  retry(options?: QueueRetryOptions): void {
    this.#state.retry(this.#source.id, options);
  }
}

/** Queue backlog figures a batch carries (workers-types `MessageBatchMetadata`). */
export interface MessageBatchMetadata {
  metrics: { backlogCount: number; backlogBytes: number; oldestMessageTimestamp?: Date };
}

/** A batch as the consumer's `queue(batch, env, ctx)` receives it. */
export class MessageBatch<Body = unknown> {
  readonly #state: BatchState;
  readonly queue: string;
  readonly messages: readonly Message<Body>[];
  readonly metadata: MessageBatchMetadata;

  /** @internal */
  constructor(state: BatchState, queue: string, messages: readonly Message<Body>[], metadata: MessageBatchMetadata) {
    this.#state = state;
    this.queue = queue;
    this.messages = Object.freeze(messages);
    this.metadata = metadata;
    states.set(this, state);
  }

  /** Acknowledges every message of the batch. */
  ackAll(): void {
    this.#state.doAckAll();
  }

  /** Asks for every message of the batch again (after `delaySeconds`). */
  retryAll(options?: QueueRetryOptions): void {
    this.#state.doRetryAll(options);
  }
}
