/**
 * An account's queues as the API and R2's event notifications see them: an id (32 hex, as the
 * Queues API's), a name, when made and changed, the queue-level settings, and where a message goes.
 * Kept beside the account's state (lib/account/state.ts), keyed by id; names are unique.
 *
 * R2 writes notification messages to a queue directly, with no producer binding (cloudflare-docs
 * PR #17269), so delivery here is the queue's own `deliver`, not a Worker's `send`.
 */
import type { AccountState } from '../account/state.js';
import type { NotificationRule, ObjectEvent, QueueRules } from '../bucket/notifications.js';
import { messageBody, queuesFor } from '../bucket/notifications.js';
import { bucketLayer } from '../bucket/internal.js';
import { randomHex } from '../random.js';

/** Queue-level settings (SDK `Queue.Settings`). */
export interface QueueSettings {
  delivery_delay?: number;
  delivery_paused?: boolean;
  message_retention_period?: number;
}

export interface AccountQueue {
  readonly id: string;
  readonly name: string;
  readonly created: number;
  modified: number;
  settings: QueueSettings;
  /** Puts one message on the queue as R2 does (JSON body); never throws into the writer. */
  deliver(body: unknown): void;
}

const registries = new WeakMap<AccountState, Map<string, AccountQueue>>();

/** The account's queues by id, in the order made. */
export function accountQueues(state: AccountState): Map<string, AccountQueue> {
  let m = registries.get(state);
  if (!m) {
    registries.set(state, (m = new Map()));
    // A bucket no longer in the account under that name (deleted, or the name reused) notifies nothing.
    state.onObjectEvent = (name, bucket, event) => {
      const layer = state.buckets.get(name) === bucket ? bucketLayer(bucket) : undefined;
      if (layer) deliverEvent(state, name, layer.config.notifications, event);
    };
  }
  return m;
}

export const queueById = (state: AccountState, id: string): AccountQueue | undefined => accountQueues(state).get(id);

export function queueByName(state: AccountState, name: string): AccountQueue | undefined {
  for (const q of accountQueues(state).values()) if (q.name === name) return q;
  return undefined;
}

/** Queue ids: 32 hex, as the Queues API's (random: ids are not names). */
const newQueueId = (): string => randomHex(16);

/**
 * Makes a queue in the account. MERGE-PENDING: delivery is connected to the Queues double
 * (lib/queue/queue.ts) when the two branches meet; until then messages are only counted.
 */
export function createAccountQueue(state: AccountState, name: string, settings: QueueSettings): AccountQueue {
  const now = state.now();
  const held: unknown[] = [];
  const q: AccountQueue = { id: newQueueId(), name, created: now, modified: now, settings, deliver: (b) => void held.push(b) };
  accountQueues(state).set(q.id, q);
  return q;
}

export function deleteAccountQueue(state: AccountState, id: string): boolean {
  return accountQueues(state).delete(id);
}

/**
 * Sends the messages `event` in bucket `bucket` causes under the bucket's `rules`. Whether a
 * delete of a key that held nothing notifies is the account's choice (`notifyMissingKeyDeletes`):
 * production's answer is not documented (r2-bucket-config.md §1.2, "Gaps"); by default it sends
 * nothing, since nothing changed.
 */
export function deliverEvent(state: AccountState, bucket: string, rules: readonly QueueRules[], event: ObjectEvent): void {
  if (event.action === 'DeleteObject' && event.existed === false && !state.notifyMissingKeyDeletes) return;
  for (const queueId of queuesFor(rules, event.action, event.key)) {
    queueById(state, queueId)?.deliver(messageBody(state.id, bucket, event));
  }
}

export type { NotificationRule };
