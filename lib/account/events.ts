/**
 * Events between products, made with the account and owned by it: today one flow, an object change
 * in a bucket reaching a Worker's `queue` handler through R2's event notifications. Top to bottom:
 *
 * 1. A write through any surface (binding, S3 view, public host, lifecycle expiry) changes the
 *    object in the bucket layer (lib/bucket/layer.ts); once it has happened, and only while the
 *    bucket has notification rules (a setting of the bucket, lib/bucket/notifications.ts), the
 *    layer calls its `notifier` with an `ObjectEvent`.
 * 2. That notifier is `bucketJoined`'s below, set when the bucket was put in the account under a
 *    name (lib/account/state.ts `addAccountBucket`): it passes the change on while the bucket is
 *    still there under that name (a deleted bucket, or a name reused, notifies nothing).
 * 3. `objectChanged` matches the bucket's rules (`queuesFor`), makes R2's message once
 *    (`messageJson`), finds each rule's queue by its API id among the account's queues, and puts
 *    the message on it as the service does, not through a producer binding (lib/queue/service.ts).
 * 4. The queue holds it and wakes itself at the batch's moment (lib/queue/queue.ts `#schedule`,
 *    `#wake`), then calls its consumer: the Worker's `queue(batch, env, ctx)` handler that
 *    `createEnv(config, { worker })` attached (lib/env/create-env.ts), or one given to `consume`.
 *
 * Whether a delete of a key that held nothing notifies is the account's choice
 * (`notifyMissingKeyDeletes`): production's answer is not documented (r2-bucket-config.md §1.2,
 * "Gaps"); by default it sends nothing, since nothing changed. A rule whose queue is gone sends
 * nothing.
 */
// Types only for the bucket and the queue: an account with neither (the DNS entry point) loads
// nothing of their models.
import type { Bucket } from '../bucket/bucket.js';
import { bucketLayer } from '../bucket/internal.js';
import { messageJson, queuesFor, type MessageJson, type ObjectEvent } from '../bucket/notifications.js';
import type { Queue } from '../queue/queue.js';
import { sendAsService } from '../queue/service.js';
import type { AccountState } from './state.js';

export class AccountEvents {
  readonly #state: AccountState;

  constructor(state: AccountState) {
    this.#state = state;
  }

  /** Step 2: bucket `bucket` is in the account under `name` (in `map`, its jurisdiction's): its changes notify from now on. */
  bucketJoined(map: ReadonlyMap<string, Bucket>, name: string, bucket: Bucket): void {
    const layer = bucketLayer(bucket);
    if (!layer) return;
    layer.notifier = (event) => {
      if (map.get(name) === bucket) this.objectChanged(name, layer.config.notifications, event);
    };
  }

  /** Step 3: sends the messages `event` in bucket `bucket` causes under the bucket's `rules`. */
  objectChanged(bucket: string, rules: Parameters<typeof queuesFor>[0], event: ObjectEvent): void {
    const state = this.#state;
    if (event.action === 'DeleteObject' && event.existed === false && !state.notifyMissingKeyDeletes) return;
    let message: MessageJson | undefined;
    for (const queueId of queuesFor(rules, event.action, event.key)) {
      const q = this.queueWithId(queueId);
      if (q) sendAsService(q, (message ??= messageJson(state.id, bucket, event)));
    }
  }

  /**
   * The account's queue with API id `id`, building nothing: a queue no API record was made for has
   * no id anyone could name (bench/notifications.ts).
   */
  queueWithId(id: string): Queue | undefined {
    const state = this.#state;
    for (const q of state.queues.values()) if (state.queueRecords.get(q)?.id === id) return q;
    return undefined;
  }
}
