/**
 * Events between products, made with the account and owned by it: today one flow, an object change
 * in a bucket reaching a Worker's `queue` handler through R2's event notifications, step by step in
 * ARCHITECTURE.md ("An event to a queue"). Here: `bucketJoined` gives a bucket put in the account
 * under a name (lib/account/state.ts) the notifier its layer calls after a change, which passes the
 * change on while the bucket is still there under that name (a deleted bucket, or a name reused,
 * notifies nothing); `objectChanged` matches the bucket's rules (`queuesFor`), makes R2's message
 * once (`messageJson`), finds each rule's queue by its API id in the Queues backend and puts
 * the message on it as the service does (lib/queue/service.ts), not through a producer binding.
 *
 * Whether a delete of a key that held nothing notifies is the account's choice
 * (`notifyMissingKeyDeletes`): production's answer is not documented
 * (docs/sources/r2-api.md#event-notifications); by default it sends nothing, since nothing changed.
 * A rule whose queue is gone sends nothing.
 */
// Types only for the bucket and the queue: an account with neither (the DNS entry point) loads
// nothing of their models.
import type { Bucket } from '../bucket/bucket.js';
import { bucketLayer } from '../bucket/internal.js';
import { messageJson, queuesFor, type MessageJson, type ObjectEvent } from '../bucket/notifications.js';
import { QUEUES } from '../queue/backend.js';
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
      const q = state.made(QUEUES)?.byId(queueId);
      if (q) sendAsService(q.state, (message ??= messageJson(state.id, bucket, event)));
    }
  }
}
