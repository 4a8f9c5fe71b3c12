/**
 * One queue's state: the messages it holds, the consumer it delivers them to and the delivery
 * itself (batching, ack, retry and dead letters on the queue's clock), its fault rules and call log.
 * The producer binding (queue.ts, `Queue`) wraps one and converts a Worker's arguments into it; an
 * account's Queues backend (backend.ts) holds one per queue, and the API's routes, metrics and peeks
 * and `--persist` (lib/node/persist) are given it there. So every surface of a queue reads and
 * changes the same messages, and none reaches into another's private fields.
 *
 * When batches go out: a batch leaves as soon as `maxBatchSize` messages are visible, or
 * `maxBatchTimeout` seconds after the first message of a partial batch became visible (Miniflare's
 * broker counts the same way). The queue wakes itself for those moments through the clock: a
 * `ManualClock`'s `sleep` (so `clock.advance()` delivers), else the global `setTimeout` looked up
 * when needed (so Vitest's fake timers deliver, and real time does without either; the timer is
 * unref'd where the platform can, so a pending delay never keeps Node alive).
 *
 * One batch is delivered at a time (production runs up to `max_concurrency` consumers at once;
 * one at a time keeps tests deterministic and is a behaviour production can show). Messages sent
 * while no consumer is attached wait for one (production keeps them for the retention period;
 * Miniflare drops them).
 */
import { timeSource, type Clock, type TimeSource } from '../clock.js';
import { randomHex, seeded } from '../random.js';
import { actionOf, QueueSupport, type LoggedMessage, type MessageOutcome } from '../support/queue-support.js';
import { createExecutionContext, waitOnExecutionContext } from '../execution-context.js';
import { keepRequestAlive } from '../wait-until.js';
import { BatchState, Message, MessageBatch, type MessageBatchMetadata } from './batch.js';
import { deferredJson, type HeldBody } from './content.js';
import type { ConsumerSettings, ResolvedConsumerSettings } from './limits.js';
import type { ServiceMessage } from './service.js';
import { MessageStore, type Batching, type Held, type StoreSnapshot } from './store.js';
import type { ExecutionContextLike, Queue, QueueHandler, QueueMetrics } from './queue.js';

/** Where a queue finds another by name: its dead-letter queue, made when missing (Queues creates it). */
export interface QueueDirectory {
  deadLetter(name: string, from: QueueState): QueueState;
  /** Told after the messages a queue holds changed, in a request or not (a delivery settled): `--persist` commits then. */
  changed?(queue: QueueState): void;
}

/** What a queue's state is made with: what the producer binding does not decide alone. */
export interface QueueStateOptions {
  readonly name: string;
  /** The `clock` option (undefined: `Date.now()`), kept as given: createEnv compares it. */
  readonly clock: Clock | undefined;
  readonly consumerDefaults: Readonly<Required<Omit<ConsumerSettings, 'deadLetterQueue'>>>;
  readonly log: boolean;
  readonly directory: QueueDirectory;
}

/** The consumer attached: a Worker's `queue` handler, its `env`, its settings in force. */
export interface Consumer {
  readonly handler: QueueHandler<never, unknown>;
  readonly env: unknown;
  readonly settings: ResolvedConsumerSettings;
}

interface QueueSnapshot {
  readonly owner: QueueState;
  readonly store: StoreSnapshot;
  /** The batch being delivered then (not in the store): held again on restore, as not yet delivered. */
  readonly inFlight: readonly Held[];
}

export class QueueState {
  readonly name: string;
  readonly clock: Clock | undefined;
  readonly time: TimeSource;
  readonly defaults: Readonly<Required<Omit<ConsumerSettings, 'deadLetterQueue'>>>;
  readonly support: QueueSupport;
  readonly directory: QueueDirectory;
  /** The producer binding over this state (set once, by that `Queue`'s constructor). */
  queue!: Queue;

  readonly #manual: { sleep(ms: number): Promise<void> } | undefined;
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
  /** Rises whenever the messages held (store and batch in flight) change: `changes`. */
  #changes = 0;

  constructor(options: QueueStateOptions) {
    this.name = options.name;
    this.clock = options.clock;
    this.time = timeSource(options.clock);
    const clock = options.clock;
    this.#manual =
      typeof clock === 'object' && clock !== null && typeof clock.sleep === 'function'
        ? (clock as { sleep(ms: number): Promise<void> })
        : undefined;
    this.defaults = options.consumerDefaults;
    this.support = new QueueSupport(options.log);
    this.directory = options.directory;
  }

  // ---- what the surfaces read and change ----------------------------------------------------

  /** The consumer attached, if any. */
  get consumer(): Consumer | undefined {
    return this.#consumer;
  }

  /** Attaches `consumer` (replacing any), and delivers what is due to it. */
  attach(consumer: Consumer): void {
    this.#consumer = consumer;
    this.wake();
  }

  /**
   * Detaches the consumer when it is `handler` (the API's HTTP pull consumer, removed or restored
   * away); a consumer attached in code stays. The messages stay held.
   */
  detach(handler: (...args: never[]) => unknown): void {
    if (this.#consumer?.handler !== handler) return;
    this.#consumer = undefined;
    this.#wakeAt = Infinity;
  }

  /** Held now, oldest visible first (delayed ones after), a batch in delivery excluded; what fell due is delivered first. */
  held(): Held[] {
    this.wake();
    return this.#store.all();
  }

  /** The batch being delivered (to a Worker, or held by the API's pull consumer). */
  get inFlight(): readonly Held[] {
    return this.#inFlight;
  }

  /** Takes the messages with these ids out of what the queue holds (the API's delete by ref); returns the ids taken. */
  remove(ids: ReadonlySet<string>): Set<string> {
    const taken = this.#store.remove(ids);
    if (taken.length) this.#changed();
    return new Set(taken.map((h) => h.id));
  }

  /**
   * How many times the messages held changed (a send, a delivery settled, a dead letter taken, a
   * restore or purge): `--persist` rewrites a queue's messages only when this moved.
   */
  get changes(): number {
    return this.#changes;
  }

  #changed(): void {
    this.#changes++;
    this.directory.changed?.(this);
  }

  /** Every message held, a batch in delivery included (as a snapshot holds it): what `--persist` writes. */
  image(): Held[] {
    return [...this.#inFlight, ...this.#store.all()];
  }

  /** Holds persisted messages again (through `restore`, so delivery is scheduled). */
  load(held: readonly Held[]): void {
    this.restore(
      Object.freeze({
        owner: this,
        store: { waiting: [], ready: [], openedAt: 0 },
        inFlight: held,
      } satisfies QueueSnapshot),
    );
  }

  /** The backlog: messages held and not in a batch being delivered. */
  metrics(): QueueMetrics {
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
  fromService(message: ServiceMessage): void {
    const json = deferredJson(message);
    // One message, so no arrays: this runs on every notified write (bench/notifications.ts).
    const held = this.hold(json, 0, this.time.now());
    this.wake();
    if (this.support.log.recording) {
      const body = JSON.parse(json.value) as unknown;
      const entry = this.support.entry('send', this.name, this.time.now(), [
        { id: held.id, body, contentType: 'json', delaySeconds: 0 },
      ]);
      if (entry) this.support.log.done(entry);
    }
  }

  /** Puts one message on the queue (the caller schedules delivery with `wake`). */
  hold(body: HeldBody, delay: number, now: number): Held {
    const h: Held = {
      id: this.#newId(),
      timestamp: now,
      body,
      failures: 0,
      visibleAt: now + delay * 1000,
      seq: this.#store.nextSeq(),
    };
    this.#store.add(h);
    this.#changed();
    return h;
  }

  /** The queue's dead-letter queue (made when missing), when the consumer names one. */
  deadLetterQueue(): QueueState | undefined {
    const name = this.#consumer?.settings.deadLetterQueue;
    return name === undefined ? undefined : this.directory.deadLetter(name, this);
  }

  /** Delivers what is visible now (`force`: whole batches or not), until the consumer is done with it. */
  async drain(force: boolean): Promise<void> {
    for (;;) {
      if (this.#running) {
        await this.#running;
        continue;
      }
      if (!this.#consumer || !this.#due(this.time.now(), force)) return;
      await this.#run(force);
    }
  }

  /** The messages held now, a batch being delivered included (O(messages held)). */
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
    this.#changed();
    this.#store.restore(s.store);
    this.#inFlight = [];
    for (const h of s.inFlight) this.#store.add(h);
    this.support.clear();
    this.#wakeAt = Infinity;
    this.#schedule();
  }

  /** Empties the queue; clears fault rules and the call log (the consumer stays attached). */
  reset(): void {
    this.purge();
    this.support.clear();
  }

  /** Drops every message held (a delivery in flight is forgotten); fault rules and the log stay (the API's purge). */
  purge(): void {
    this.#epoch++;
    this.#changed();
    this.#store.clear();
    this.#inFlight = [];
    this.#wakeAt = Infinity;
  }

  // ---- delivery ------------------------------------------------------------------------------

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
      const next = batching && this.#store.take(this.time.now(), batching, force);
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
  wake(): void {
    // A ManualClock's sleep is never lost: its `advance` releases it, synchronously.
    if (this.#wakeAt !== Infinity && !this.#running && this.#manual === undefined) {
      const now = this.time.now();
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
    const at = this.#store.nextEvent(this.time.now(), batching);
    if (at === Infinity || at >= this.#wakeAt) return;
    this.#wakeAt = at;
    const wake = () => {
      if (this.#wakeAt === at) this.#wakeAt = Infinity;
      if (this.#running) void this.#running.then(() => this.#schedule());
      else if (this.#due(this.time.now(), false)) void this.#run(false).catch(() => {});
      else this.#schedule();
    };
    const ms = Math.max(0, at - this.time.now());
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
    const support = this.support;
    const fault = support.faults.active ? support.faults.take('deliver') : undefined;
    const action = fault && actionOf(fault.rule);
    if (fault?.rule.delay) await this.time.sleep(fault.rule.delay);
    if (action === 'reorder') held = shuffled(held, fault!.rule.seed ?? fault!.id);
    const state = new BatchState();
    const messages: Message<never>[] = [];
    for (const h of held) messages.push(new Message<never>(state, h, h.failures + 1));
    const batch = new MessageBatch(state, this.name, messages, { metrics: metricsOf(this.metrics()) });
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
    this.#changed(); // settled: acked messages are gone, retried ones held again
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
    if (dead.length) this.directory.deadLetter(settings.deadLetterQueue!, this).#acceptDead(dead);
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
    const now = this.time.now();
    for (const h of dead) this.#store.add({ ...h, failures: 0, visibleAt: now, seq: this.#store.nextSeq() });
    this.#changed();
    this.#schedule();
  }
}

/**
 * How long a workerd request that armed a wake-up is kept at most after the wake-up's moment
 * (lib/wait-until.ts): longer than a test waits for a delivery. A wake-up on fake timers, which the
 * test runs from its own context, holds the request that long when the test does not advance them.
 */
const KEEP_AFTER_WAKE_MS = 60_000;

/** Two hex digits for each byte value, for message ids. */
const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function metricsOf(m: QueueMetrics): MessageBatchMetadata['metrics'] {
  return m;
}

export function errorText(e: unknown): string {
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
