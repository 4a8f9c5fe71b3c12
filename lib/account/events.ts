/**
 * Events between products, made with the account and owned by it: today one flow, an object change
 * in a bucket reaching a Worker's `queue` handler through R2's event notifications, step by step in
 * ARCHITECTURE.md ("An event to a queue"). Neither product imports the other: the bucket side
 * declares the topic (`OBJECT_CHANGED`, lib/bucket/notifications.ts) and the account listens to it
 * here, on its host (lib/support/backend.ts).
 *
 * `bucketJoined` (the account's listener of the R2 backend's `BUCKET_JOINED`, account.ts) gives a
 * bucket put in the account under a name the notifier its layer calls after a change, which emits
 * the change on the account while the bucket is still there under that name (a deleted bucket, or
 * a name reused, notifies nothing). The listener matches the bucket's rules (`queuesFor`), makes R2's message once (`messageJson`), finds
 * each rule's queue by its API id in the Queues backend (lib/queue/backend.ts) and puts the message
 * on it as the service does (lib/queue/service.ts), not through a producer binding.
 *
 * Whether a delete of a key that held nothing notifies is the account's choice
 * (`notifyMissingKeyDeletes`): production's answer is not documented
 * (docs/sources/r2-api.md#event-notifications); by default it sends nothing, since nothing changed.
 * A rule whose queue is gone sends nothing.
 */
// Types only for the bucket: an account with none (the DNS entry point) loads nothing of its model.
import type { Bucket } from '../bucket/bucket.js';
import { bucketLayer } from '../bucket/internal.js';
import {
  messageJson,
  OBJECT_CHANGED,
  queuesFor,
  type MessageJson,
  type ObjectChanged,
} from '../bucket/notifications.js';
import { QUEUES } from '../queue/backend.js';
import { sendAsService } from '../queue/service.js';
import type { AccountState } from './state.js';

export class AccountEvents {
  readonly #state: AccountState;

  /** Step 3's listener is attached here, when the account is made (account.ts). */
  constructor(state: AccountState) {
    this.#state = state;
    state.on(OBJECT_CHANGED, (changed) => this.#objectChanged(changed));
  }

  /** Step 2: bucket `bucket` is in the account under `name` (in `map`, its jurisdiction's): its changes notify from now on. */
  bucketJoined(map: ReadonlyMap<string, Bucket>, name: string, bucket: Bucket): void {
    const layer = bucketLayer(bucket);
    if (!layer) return;
    const state = this.#state;
    layer.notifier = (event) => {
      if (map.get(name) === bucket)
        state.emit(OBJECT_CHANGED, { bucket: name, rules: layer.config.notifications, event });
    };
  }

  /** Step 3: sends the messages a change causes under the bucket's rules to the account's queues. */
  #objectChanged({ bucket, rules, event }: ObjectChanged): void {
    const state = this.#state;
    if (event.action === 'DeleteObject' && event.existed === false && !state.notifyMissingKeyDeletes) return;
    // Made, not making: an account whose queues were never used has no queue a rule could name.
    const queues = state.made(QUEUES);
    if (!queues) return;
    let message: MessageJson | undefined;
    for (const queueId of queuesFor(rules, event.action, event.key)) {
      const q = queues.byId(queueId);
      if (q) sendAsService(q.state, (message ??= messageJson(state.id, bucket, event)));
    }
  }
}
