/**
 * The API's queue consumers as they act on the queue (issue 28 point 3; the routes are consumers.ts).
 * The consumer itself is data in the queue's API record (`QueueRecord.consumer`, backend.ts),
 * so the account's snapshot holds it; this makes the queue's delivery follow that record: a worker
 * consumer presets the queue's consumer settings, an HTTP pull consumer attaches a handler that
 * holds each delivered batch for pulls. `syncConsumer` is how a restore brings the queue back to
 * the record it restored.
 *
 * An HTTP pull consumer's handler holds each batch the queue delivers until every message in it has
 * been acked, retried, or left past its visibility timeout (retried then, on the double's clock). So
 * pulled messages have the attempts, retry delays and dead-lettering of the Worker consumer's
 * delivery (queue.ts), not a copy of them. The held batch and its leases are the delivery in flight,
 * not state a snapshot keeps: a restore or reset forgets the delivery (the queue's epoch), so they
 * are dropped with it (`dropHeld`).
 */
import { batchState, type Message, type MessageBatch } from './batch.js';
import type { ConsumerSettings } from './limits.js';
import { presetConsumerSettings, type Queue } from './queue.js';
import type { QueueState } from './queue-state.js';

/** A consumer as the API shows it (SDK `Consumer`: worker or http_pull), kept in the queue's record. */
export interface QueueConsumer {
  consumer_id: string;
  type: 'worker' | 'http_pull';
  script?: string;
  created_on: string;
  dead_letter_queue?: string;
  settings: Record<string, number>;
}

/** A copy that shares nothing mutable with `c` (settings are changed in place by an update). */
export const copyConsumer = (c: QueueConsumer): QueueConsumer => ({ ...c, settings: { ...c.settings } });

/** A leased message of an http_pull consumer's held batch. */
export interface Lease {
  readonly message: Message;
  readonly expires: number;
}

/** The batch an http_pull consumer holds: messages not leased yet, the leases, and the release. */
interface HeldBatch {
  readonly batch: MessageBatch;
  available: Message[];
  readonly leases: Map<string, Lease>;
  left: number;
  readonly release: () => void;
}

/** The pull handler attached to a queue, and the batch it holds. */
export interface PullState {
  readonly handler: (batch: MessageBatch) => Promise<void>;
  held: HeldBatch | undefined;
}

/**
 * A queue an API consumer acts on: its binding and state, and the pull consumer's handler and held
 * batch (the delivery in flight: not snapshot state, see above). The account's entry for the queue
 * (backend.ts).
 */
export interface PullHome {
  readonly queue: Queue;
  readonly state: QueueState;
  pull: PullState | undefined;
}

/** The queue's consumer settings (lib/queue/limits.ts) an API consumer stands for. */
function queueSettings(c: QueueConsumer): ConsumerSettings {
  const s = c.settings;
  return {
    ...(s.batch_size !== undefined ? { maxBatchSize: s.batch_size } : {}),
    ...(s.max_retries !== undefined ? { maxRetries: s.max_retries } : {}),
    ...(s.retry_delay !== undefined ? { retryDelay: s.retry_delay } : {}),
    ...(s.max_wait_time_ms !== undefined ? { maxBatchTimeout: Math.round(s.max_wait_time_ms / 1000) } : {}),
    ...(c.dead_letter_queue ? { deadLetterQueue: c.dead_letter_queue } : {}),
  };
}

/** Makes the queue's consumer what `c` says: a worker's settings preset, or the pull consumer attached. */
export function attachConsumer(home: PullHome, c: QueueConsumer): void {
  if (c.type === 'worker') {
    presetConsumerSettings(home.queue, queueSettings(c));
    return;
  }
  let state = home.pull;
  if (!state) {
    const made: PullState = { handler: (batch) => holdBatch(made, batch), held: undefined };
    home.pull = state = made;
  }
  // Batches of up to 100 (a pull's most), delivered when a pull asks (consumers.ts `pull`) or after
  // the longest batch timeout: the pull decides how many of them it takes.
  home.queue.consume(state.handler, { ...queueSettings(c), maxBatchSize: 100, maxBatchTimeout: 60 });
}

/**
 * The API's consumer `c` is gone (removed, or restored away): a pull consumer's handler is detached
 * and its held batch given back, its messages visible again with no attempt spent (production keeps
 * unacked messages on the queue for the next consumer). A worker consumer's settings preset stays
 * (it only names settings for a Worker attached later).
 */
export function detachApiConsumer(home: PullHome, c: QueueConsumer): void {
  if (c.type !== 'http_pull') return;
  const state = home.pull;
  if (!state) return;
  home.state.detach(state.handler);
  home.pull = undefined;
  const held = state.held;
  if (!held) return;
  const given = batchState(held.batch)!;
  for (const m of held.available) given.givenBack.add(m.id);
  for (const l of held.leases.values()) given.givenBack.add(l.message.id);
  state.held = undefined;
  held.release();
}

/** Makes the queue follow a restored record: the consumer it had (`now`) goes, the restored one (`then`) comes back. */
export function syncConsumer(home: PullHome, now: QueueConsumer | undefined, then: QueueConsumer | undefined): void {
  dropHeld(home);
  if (now && now.consumer_id !== then?.consumer_id) detachApiConsumer(home, now);
  if (then) attachConsumer(home, then);
}

/** Forgets the held batch (its delivery was forgotten by a restore, reset or purge), releasing the queue's delivery loop. */
export function dropHeld(home: PullHome): void {
  const state = home.pull;
  const held = state?.held;
  if (!held) return;
  state.held = undefined;
  held.release();
}

function holdBatch(state: PullState, batch: MessageBatch): Promise<void> {
  return new Promise((release) => {
    state.held = { batch, available: [...batch.messages], leases: new Map(), left: batch.messages.length, release };
    if (batch.messages.length === 0) settle(state);
  });
}

/** Counts one message of the held batch settled; the batch is released when none is left. */
export function settle(state: PullState): void {
  const held = state.held!;
  if (--held.left > 0) return;
  state.held = undefined;
  held.release();
}

/** Leases past their visibility timeout are retried (an attempt spent), as an unacked message is. */
export function expire(state: PullState, now: number): void {
  const held = state.held;
  if (!held) return;
  for (const [id, lease] of held.leases) {
    if (lease.expires > now) continue;
    held.leases.delete(id);
    lease.message.retry();
    settle(state);
    if (state.held !== held) return;
  }
}
