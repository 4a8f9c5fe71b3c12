/**
 * An account's queues as the API sees them. The queues themselves are the account's `queues` map
 * (by name: the `Queue` doubles a Worker's producer binding sends to and its consumer reads,
 * whoever made them: `createEnv`, the API, a dead-letter queue made on demand); this adds what the
 * API shows of each: an id (32 hex, as the Queues API's), when it was made and changed, and the
 * queue-level settings, kept in the account's `queueRecords` so the account's snapshot holds them.
 *
 * R2's event notifications reach these queues through the account's events (lib/account/events.ts),
 * which find a rule's queue by the id recorded here.
 */
import type { AccountState } from '../account/state.js';
import { randomHex } from '../random.js';
import { copyConsumer, dropHeld, syncConsumer, type QueueConsumer } from './pull-consumer.js';
import { Queue } from './queue.js';

/** Queue-level settings (SDK `Queue.Settings`). */
export interface QueueSettings {
  delivery_delay?: number;
  delivery_paused?: boolean;
  message_retention_period?: number;
}

/**
 * What the API shows of a queue beside the queue itself. A value: never changed in place, replaced
 * whole through the account queue's setters, so whoever keeps one (a snapshot, `--persist`'s image)
 * knows it changed by identity alone, and a field added here is kept with the rest.
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

/** An account queue: its record's fields, which its setters replace (a new record each time). */
type Changeable = { -readonly [K in Exclude<keyof QueueRecord, 'id' | 'created'>]: QueueRecord[K] };

/** An account queue with its API record. */
export interface AccountQueue extends Changeable {
  readonly id: string;
  readonly created: number;
  readonly name: string;
  readonly queue: Queue;
}

/** The API's record of a queue: made when the API first sees it (a queue `createEnv` made included). */
function recordOf(state: AccountState, queue: Queue): QueueRecord {
  let r = state.queueRecords.get(queue);
  if (!r) {
    const now = state.now();
    state.queueRecords.set(queue, (r = { id: randomHex(16), created: now, modified: now, settings: {} }));
  }
  return r;
}

const view = (state: AccountState, queue: Queue): AccountQueue => {
  const r = recordOf(state, queue);
  const change = (field: Partial<Changeable>) => state.queueRecords.set(queue, { ...recordOf(state, queue), ...field });
  return {
    name: queue.name,
    queue,
    id: r.id,
    created: r.created,
    get modified() {
      return recordOf(state, queue).modified;
    },
    set modified(modified) {
      change({ modified });
    },
    get settings() {
      return recordOf(state, queue).settings;
    },
    set settings(settings) {
      change({ settings });
    },
    get consumer() {
      return recordOf(state, queue).consumer;
    },
    set consumer(consumer) {
      change({ consumer });
    },
    get purged() {
      return recordOf(state, queue).purged;
    },
    set purged(purged) {
      change({ purged });
    },
  };
};

/** The account's queues, in the order made. */
export function accountQueues(state: AccountState): AccountQueue[] {
  return [...state.queues.values()].map((q) => view(state, q));
}

export function queueById(state: AccountState, id: string): AccountQueue | undefined {
  const q = state.events.queueWithId(id);
  return q && view(state, q);
}

export function queueByName(state: AccountState, name: string): AccountQueue | undefined {
  const q = state.queues.get(name);
  return q && view(state, q);
}

/**
 * Puts a queue named `name` in the account, on the account's clock, with `record` as its API record
 * (none: made when the API first sees it, as for a dead-letter queue made on demand). The API's
 * create, and `--persist` bringing a queue back (lib/node/persist).
 */
export function addAccountQueue(state: AccountState, name: string, record?: QueueRecord): Queue {
  const queue = new Queue({ name, queues: state.queues, ...(state.clock !== undefined ? { clock: state.clock } : {}) });
  state.queues.set(name, queue);
  if (record) state.queueRecords.set(queue, record);
  return queue;
}

/** Makes a queue in the account (the API's create), on the account's clock. */
export function createAccountQueue(state: AccountState, name: string, settings: QueueSettings): AccountQueue {
  const q = view(state, addAccountQueue(state, name));
  q.settings = settings;
  return q;
}

export function deleteAccountQueue(state: AccountState, id: string): boolean {
  const q = queueById(state, id);
  return q !== undefined && state.queues.delete(q.name);
}

/** The account's queues at one moment: which exist by name, the messages each holds, and each one's API record. */
export interface QueuesSnapshot {
  readonly queues: readonly (readonly [string, Queue, object])[];
  readonly records: ReadonlyMap<Queue, QueueRecord>;
}

/** Takes the account's queues (O(queues); each queue's messages by its own snapshot). */
export function snapshotQueues(state: AccountState): QueuesSnapshot {
  const records = new Map<Queue, QueueRecord>();
  const queues = [...state.queues].map(([name, q]): [string, Queue, object] => {
    const r = state.queueRecords.get(q);
    // Settings are replaced whole by the API (routes.ts), but copied anyway: a record is mutable.
    if (r) records.set(q, copyRecord(r));
    return [name, q, q.snapshot()];
  });
  return { queues, records };
}

/** A record sharing nothing mutable with `r`. */
export const copyRecord = (r: QueueRecord): QueueRecord => ({
  ...r,
  settings: { ...r.settings },
  consumer: r.consumer && copyConsumer(r.consumer),
});

/**
 * Brings back `snapshotQueues`' moment: queues made since are gone, deleted ones back, settings,
 * consumers and messages as they were (a pulled batch held now is forgotten with its delivery).
 */
export function restoreQueues(state: AccountState, taken: QueuesSnapshot): void {
  state.queues.clear();
  for (const [name, queue, held] of taken.queues) {
    state.queues.set(name, queue);
    queue.restore(held);
    const r = taken.records.get(queue);
    syncConsumer(queue, state.queueRecords.get(queue)?.consumer, r?.consumer);
    if (r) state.queueRecords.set(queue, copyRecord(r));
    else state.queueRecords.delete(queue);
  }
}

/** Empties the account's queues (their settings and consumers stay: configuration); a pulled batch held is forgotten. */
export function resetQueues(state: AccountState): void {
  for (const queue of state.queues.values()) {
    queue.reset();
    dropHeld(queue);
  }
}
