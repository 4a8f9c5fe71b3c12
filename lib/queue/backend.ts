/**
 * The Queues backend: an account's queues, owned here alone (lib/support/backend.ts), one per
 * account, made on first use by `host.backend(QUEUES)`. Each queue is one entry by name, whoever
 * made it (`createEnv`, the API, a dead-letter queue made on demand, `--persist` bringing it back),
 * holding:
 *   - its state (queue-state.ts: the messages held, the consumer, the delivery), made here;
 *   - its producer binding over that state (`Queue`, what a Worker's binding of that queue sends to);
 *   - the API's record of it (an id, 32 hex as the Queues API's, when it was made and changed, its
 *     queue-level settings and the API's consumer: account-queues.ts is the API's view of it);
 *   - the delivery an HTTP pull consumer holds (pull-consumer.ts), which no snapshot keeps.
 *
 * The API's routes, metrics and peeks, R2's event notifications (found by the record's id) and
 * `--persist` are given an entry here and read its state; nothing reaches into a binding.
 */
import { BackendKind, EventTopic, type Backend, type BackendHost } from '../support/backend.js';
import type { Clock } from '../clock.js';
import { PRODUCTION_CONSUMER_DEFAULTS, type ConsumerSettings } from './limits.js';
import {
  copyConsumer,
  dropHeld,
  syncConsumer,
  type PullHome,
  type PullState,
  type QueueConsumer,
} from './pull-consumer.js';
import { queueOver, type ProducerOptions, type Queue } from './queue.js';
import { QueueState, type QueueDirectory } from './queue-state.js';

/** Queue-level settings (SDK `Queue.Settings`). */
export interface QueueSettings {
  delivery_delay?: number;
  delivery_paused?: boolean;
  message_retention_period?: number;
}

/**
 * What the API shows of a queue beside the queue itself. A value: never changed in place, replaced
 * whole (account-queues.ts), so whoever keeps one (a snapshot, `--persist`'s image) knows it
 * changed by identity alone, and a field added here is kept with the rest.
 */
export interface QueueRecord {
  readonly id: string;
  readonly created: number;
  readonly modified: number;
  readonly settings: Readonly<QueueSettings>;
  /** The consumer the API gave the queue (worker or HTTP pull; pull-consumer.ts makes the queue follow it). */
  readonly consumer?: Readonly<QueueConsumer> | undefined;
  /** When the API last purged the queue (epoch ms; consumers.ts answers it as the purge status). */
  readonly purged?: number | undefined;
}

/** A record sharing nothing mutable with `r`. */
export const copyRecord = (r: QueueRecord): QueueRecord => ({
  ...r,
  settings: { ...r.settings },
  consumer: r.consumer && copyConsumer(r.consumer),
});

/** One queue of the account (see above). */
export class QueueEntry implements PullHome {
  /** The API's record; undefined until the API first sees the queue (account-queues.ts). */
  record: QueueRecord | undefined;
  pull: PullState | undefined;

  constructor(
    readonly state: QueueState,
    readonly queue: Queue,
    record: QueueRecord | undefined,
  ) {
    this.record = record;
  }

  get name(): string {
    return this.state.name;
  }
}

/** How a queue is made in the account: its state's clock and consumer defaults, and its binding's producer options. */
interface QueueMaking extends ProducerOptions {
  clock?: Clock | undefined;
  log?: boolean | undefined;
  consumerDefaults?: Readonly<Required<Omit<ConsumerSettings, 'deadLetterQueue'>>>;
}

/** The account's queues at one moment: which exist by name, the messages each holds, and each one's API record. */
interface QueuesSnapshot {
  readonly owner: QueuesBackend;
  readonly queues: readonly (readonly [QueueEntry, object, QueueRecord | undefined])[];
}

/**
 * The messages one of the account's queues holds changed (a send, a delivery settled, a dead letter
 * taken, a purge, a restore), in a request or not: a `--persist` server commits on it rather than
 * polling (lib/node/persist/persistence.ts).
 */
export const QUEUE_CHANGED = new EventTopic<QueueState>('queue changed');

class QueuesBackend implements Backend, QueueDirectory {
  readonly #host: BackendHost;
  /** By name, in the order made. */
  readonly #queues = new Map<string, QueueEntry>();

  constructor(host: BackendHost) {
    this.#host = host;
  }

  /** The binding of the queue named `name`. */
  get(name: string): Queue | undefined {
    return this.#queues.get(name)?.queue;
  }

  entry(name: string): QueueEntry | undefined {
    return this.#queues.get(name);
  }

  /** The queues, in the order made. */
  entries(): IterableIterator<QueueEntry> {
    return this.#queues.values();
  }

  names(): string[] {
    return [...this.#queues.keys()];
  }

  /** The queue the API knows by `id`, making no record: a queue the API never saw has no id anyone could name. */
  byId(id: string): QueueEntry | undefined {
    for (const e of this.#queues.values()) if (e.record?.id === id) return e;
    return undefined;
  }

  /**
   * Makes the queue `name` in the account (the caller checked the name is free) as `making` says
   * (createEnv's options; by default, on the account's clock), with `record` as its API record
   * (none: made when the API first sees it).
   */
  add(name: string, making: QueueMaking = { clock: this.#host.clock }, record?: QueueRecord): QueueEntry {
    const { clock, log = false, consumerDefaults = PRODUCTION_CONSUMER_DEFAULTS, ...producer } = making;
    const state = new QueueState({ name, clock, consumerDefaults, log, directory: this });
    const entry = new QueueEntry(state, queueOver(state, producer), record);
    this.#queues.set(name, entry);
    return entry;
  }

  delete(name: string): boolean {
    return this.#queues.delete(name);
  }

  changed(queue: QueueState): void {
    this.#host.emit(QUEUE_CHANGED, queue);
  }

  /** A dead-letter queue: the account's of that name, made like `from` when missing, as Queues makes it. */
  deadLetter(name: string, from: QueueState): QueueState {
    const found = this.#queues.get(name);
    if (found) return found.state;
    return this.add(name, { clock: from.clock, consumerDefaults: from.defaults, log: from.support.log.recording })
      .state;
  }

  /** Takes the account's queues (O(queues); each queue's messages by its own snapshot). */
  snapshot(): object {
    const queues = [...this.#queues.values()].map(
      // Settings are replaced whole by the API (routes.ts), but copied anyway: a record is mutable.
      (e) => [e, e.state.snapshot(), e.record && copyRecord(e.record)] as const,
    );
    return Object.freeze({ owner: this, queues } satisfies QueuesSnapshot);
  }

  /**
   * Brings back a snapshot's moment: queues made since are gone, deleted ones back, settings,
   * consumers and messages as they were (a pulled batch held now is forgotten with its delivery).
   */
  restore(snapshot: object): void {
    const taken = snapshot as QueuesSnapshot;
    if (taken?.owner !== this) throw new TypeError('restore: not a snapshot of these queues');
    this.#queues.clear();
    for (const [entry, held, record] of taken.queues) {
      this.#queues.set(entry.name, entry);
      entry.state.restore(held);
      syncConsumer(entry, entry.record?.consumer, record?.consumer);
      entry.record = record && copyRecord(record);
    }
  }

  /** Empties the account's queues (their settings and consumers stay: configuration); a pulled batch held is forgotten. */
  reset(): void {
    for (const entry of this.#queues.values()) {
      entry.state.reset();
      dropHeld(entry);
    }
  }
}

/** The account's Queues backend. */
export const QUEUES = new BackendKind('queues', (host) => new QueuesBackend(host));
