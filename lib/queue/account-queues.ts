/**
 * An account's queues as the API and R2's event notifications see them. The queues themselves are
 * the account's `queues` map (by name: the `Queue` doubles a Worker's producer binding sends to and
 * its consumer reads, whoever made them: `createEnv`, the API, a dead-letter queue made on demand);
 * this adds what the API shows of each: an id (32 hex, as the Queues API's), when it was made and
 * changed, and the queue-level settings.
 *
 * R2 writes notification messages to a queue directly, with no producer binding (cloudflare-docs
 * PR #17269): through the queue's service entry (`sendAsService`), not a Worker's `send`.
 */
import type { AccountState } from '../account/state.js';
import { bucketLayer } from '../bucket/internal.js';
import { messageJson, queuesFor, type MessageJson, type ObjectEvent, type QueueRules } from '../bucket/notifications.js';
import { randomHex } from '../random.js';
import { Queue, sendAsService } from './queue.js';

/** Queue-level settings (SDK `Queue.Settings`). */
export interface QueueSettings {
  delivery_delay?: number;
  delivery_paused?: boolean;
  message_retention_period?: number;
}

/** What the API shows of a queue beside the queue itself. */
interface QueueRecord {
  readonly id: string;
  readonly created: number;
  modified: number;
  settings: QueueSettings;
}

/** An account queue with its API record. */
export interface AccountQueue extends QueueRecord {
  readonly name: string;
  readonly queue: Queue;
}

const records = new WeakMap<Queue, QueueRecord>();

/** The API's record of a queue: made when the API first sees it (a queue `createEnv` made included). */
function recordOf(state: AccountState, queue: Queue): QueueRecord {
  let r = records.get(queue);
  if (!r) {
    const now = state.now();
    records.set(queue, (r = { id: randomHex(16), created: now, modified: now, settings: {} }));
  }
  return r;
}

const view = (state: AccountState, queue: Queue): AccountQueue => {
  const r = recordOf(state, queue);
  return {
    name: queue.name,
    queue,
    id: r.id,
    created: r.created,
    get modified() {
      return r.modified;
    },
    set modified(v) {
      r.modified = v;
    },
    get settings() {
      return r.settings;
    },
    set settings(v) {
      r.settings = v;
    },
  };
};

/** The account's queues, in the order made. */
export function accountQueues(state: AccountState): AccountQueue[] {
  deliverNotifications(state);
  return [...state.queues.values()].map((q) => view(state, q));
}

export function queueById(state: AccountState, id: string): AccountQueue | undefined {
  deliverNotifications(state);
  const q = queueWithId(state, id);
  return q && view(state, q);
}

/**
 * The account's queue with API id `id`, building nothing: each notification looks its queue up
 * here (bench/notifications.ts). A queue no record was made for has no id anyone could name.
 */
function queueWithId(state: AccountState, id: string): Queue | undefined {
  for (const q of state.queues.values()) if (records.get(q)?.id === id) return q;
  return undefined;
}

export function queueByName(state: AccountState, name: string): AccountQueue | undefined {
  const q = state.queues.get(name);
  return q && view(state, q);
}

/** Makes a queue in the account (the API's create), on the account's clock. */
export function createAccountQueue(state: AccountState, name: string, settings: QueueSettings): AccountQueue {
  deliverNotifications(state);
  const queue = new Queue({ name, queues: state.queues, ...(state.clock !== undefined ? { clock: state.clock } : {}) });
  state.queues.set(name, queue);
  const q = view(state, queue);
  q.settings = settings;
  return q;
}

export function deleteAccountQueue(state: AccountState, id: string): boolean {
  const q = queueById(state, id);
  return q !== undefined && state.queues.delete(q.name);
}

/**
 * Lets the account's buckets notify its queues (lib/account/state.ts `onObjectEvent`): installed
 * by whatever sets rules or serves queues (the API, this module's functions), so an account that
 * never does loads nothing of them.
 */
export function deliverNotifications(state: AccountState): void {
  state.onObjectEvent ??= (name, bucket, event) => {
    const layer = bucketLayer(bucket);
    if (layer) deliverEvent(state, name, layer.config.notifications, event);
  };
}

/**
 * Sends the messages `event` in bucket `bucket` causes under the bucket's `rules`. Whether a
 * delete of a key that held nothing notifies is the account's choice (`notifyMissingKeyDeletes`):
 * production's answer is not documented (r2-bucket-config.md §1.2, "Gaps"); by default it sends
 * nothing, since nothing changed. A rule whose queue is gone sends nothing.
 */
export function deliverEvent(state: AccountState, bucket: string, rules: readonly QueueRules[], event: ObjectEvent): void {
  if (event.action === 'DeleteObject' && event.existed === false && !state.notifyMissingKeyDeletes) return;
  let message: MessageJson | undefined;
  for (const queueId of queuesFor(rules, event.action, event.key)) {
    const q = queueWithId(state, queueId);
    if (q) sendAsService(q, (message ??= messageJson(state.id, bucket, event)));
  }
}
