/**
 * An account's queues as the API sees them: each queue of the Queues backend (backend.ts) with the
 * API's record of it (an id, when it was made and changed, the queue-level settings, the consumer),
 * made when the API first sees the queue, and replaced whole through the setters here so a snapshot
 * or `--persist` sees a change by identity.
 *
 * R2's event notifications reach these queues through the account's listener (lib/account/events.ts),
 * which finds a rule's queue by the id recorded here.
 */
import type { BackendHost } from '../support/backend.js';
import { randomHex } from '../random.js';
import { QUEUES, type QueueEntry, type QueueRecord, type QueueSettings } from './backend.js';
import type { Queue } from './queue.js';

export type { QueueSettings } from './backend.js';

/** An account queue: its record's fields, which its setters replace (a new record each time). */
type Changeable = { -readonly [K in Exclude<keyof QueueRecord, 'id' | 'created'>]: QueueRecord[K] };

/** An account queue with its API record. */
export interface AccountQueue extends Changeable {
  readonly id: string;
  readonly created: number;
  readonly name: string;
  readonly queue: Queue;
  /** The backend's entry: the queue's state, and an HTTP pull consumer's delivery. */
  readonly entry: QueueEntry;
}

/** The API's record of a queue: made when the API first sees it (a queue `createEnv` made included). */
function recordOf(host: BackendHost, entry: QueueEntry): QueueRecord {
  let r = entry.record;
  if (!r) {
    const now = host.now();
    entry.record = r = { id: randomHex(16), created: now, modified: now, settings: {} };
  }
  return r;
}

const view = (host: BackendHost, entry: QueueEntry): AccountQueue => {
  const r = recordOf(host, entry);
  const change = (field: Partial<Changeable>) => (entry.record = { ...recordOf(host, entry), ...field });
  return {
    name: entry.name,
    queue: entry.queue,
    entry,
    id: r.id,
    created: r.created,
    get modified() {
      return recordOf(host, entry).modified;
    },
    set modified(modified) {
      change({ modified });
    },
    get settings() {
      return recordOf(host, entry).settings;
    },
    set settings(settings) {
      change({ settings });
    },
    get consumer() {
      return recordOf(host, entry).consumer;
    },
    set consumer(consumer) {
      change({ consumer });
    },
    get purged() {
      return recordOf(host, entry).purged;
    },
    set purged(purged) {
      change({ purged });
    },
  };
};

/** The account's queues, in the order made. */
export function accountQueues(host: BackendHost): AccountQueue[] {
  return [...host.backend(QUEUES).entries()].map((e) => view(host, e));
}

export function queueById(host: BackendHost, id: string): AccountQueue | undefined {
  const e = host.made(QUEUES)?.byId(id);
  return e && view(host, e);
}

export function queueByName(host: BackendHost, name: string): AccountQueue | undefined {
  const e = host.made(QUEUES)?.entry(name);
  return e && view(host, e);
}

/** Makes a queue in the account (the API's create), on the account's clock. */
export function createAccountQueue(host: BackendHost, name: string, settings: QueueSettings): AccountQueue {
  const q = view(host, host.backend(QUEUES).add(name));
  q.settings = settings;
  return q;
}

export function deleteAccountQueue(host: BackendHost, id: string): boolean {
  const q = queueById(host, id);
  return q !== undefined && host.backend(QUEUES).delete(q.name);
}
