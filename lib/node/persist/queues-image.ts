/**
 * The account's queues in the persisted image (`--persist`): each queue of the account's Queues
 * backend (lib/queue/backend.ts) by name (dead-letter queues made on demand included), its API record (id, times, queue-level settings, the consumer the API
 * gave it), and the messages it holds, each one key, with their ids,
 * timestamps, failed attempts, visibility (delays and retry delays) and order. A batch being
 * delivered when the write happens is held as not delivered yet (as a snapshot holds it): after a
 * restart it is delivered again, with the attempts it had (at least once, as Queues promises). An
 * HTTP pull consumer's leases are that delivery, so they are not kept: a lease taken before a
 * restart is unknown after it, and its messages are pulled again.
 *
 * Keys: `queue/<name>` (the queue and its record), `msg/<name>/<message id>` (one per message held),
 * `queues` (the names in the order made). Names are URI-encoded in keys.
 *
 * Cost: a write that finds nothing changed costs O(queues) compares (the queue, its change count,
 * its record by identity). A queue whose messages changed is compared message by message against what
 * was last written, by identity (a held message is never changed in place): O(messages it holds),
 * writing only the messages that are new or changed and removing those gone.
 */
import { deserialize, serialize } from 'node:v8';
import type { AccountState } from '../../account/state.js';
import { copyRecord, QUEUES, type QueueEntry, type QueueRecord } from '../../queue/backend.js';
import type { HeldBody } from '../../queue/content.js';
import { syncConsumer } from '../../queue/pull-consumer.js';
import type { Held } from '../../queue/store.js';
import { segment, valuesUnder, type ImagePart, type ImageStore } from './image-store.js';

/** A queue as persisted (its messages are keys of their own). */
interface QueueImage {
  name: string;
  /** Its API record; null while the API has not seen it (a dead-letter queue made on demand). */
  record: QueueRecord | null;
}

/** A held message as persisted: a `v8` body (structured clone) as the bytes of `v8.serialize`. */
type HeldImage = Omit<Held, 'body'> & { body: { type: HeldBody['type']; value: unknown; bytes: number } };

interface Written {
  queue: QueueEntry;
  changes: number;
  /** The record written (a value, replaced whole when it changes: lib/queue/backend.ts). */
  record: QueueRecord | undefined;
  /** The messages last written, in the queue's order (batch in flight, visible, waiting). */
  held: readonly Held[];
}

function heldImage(h: Held): HeldImage {
  const b = h.body;
  return {
    ...h,
    body: { type: b.type, bytes: b.bytes, value: b.type === 'v8' ? new Uint8Array(serialize(b.value)) : b.value },
  };
}

function heldFrom(image: HeldImage): Held {
  const b = image.body;
  // Bytes as a plain Uint8Array: a store may give a Buffer back, which a consumer must not see.
  const value =
    b.type === 'v8'
      ? deserialize(b.value as Uint8Array)
      : b.type === 'bytes'
        ? new Uint8Array(b.value as Uint8Array)
        : b.value;
  return { ...image, body: { type: b.type, bytes: b.bytes, value } as HeldBody };
}

const queueKey = (name: string) => `queue/${segment(name)}`;
const messagePrefix = (name: string) => `msg/${segment(name)}/`;

export class QueuesPart implements ImagePart {
  readonly #state: AccountState;
  #written = new Map<string, Written>();
  #order: QueueEntry[] = [];

  constructor(state: AccountState) {
    this.#state = state;
  }

  write(store: ImageStore): boolean {
    // Made, not making: an account whose queues were never used has none to write.
    const queues = this.#state.made(QUEUES);
    let wrote = false;
    let i = 0;
    let sameSet = true;
    for (const queue of queues?.entries() ?? []) {
      if (this.#order[i++] !== queue) sameSet = false;
      const name = queue.name;
      let w = this.#written.get(name);
      const r = queue.record;
      if (w === undefined || w.queue !== queue || w.record !== r) {
        // Whole, as it is: a field the API adds to the record is kept without anyone listing it here.
        const image: QueueImage = { name, record: r ?? null };
        store.put(queueKey(name), image);
        if (w === undefined || w.queue !== queue) {
          w = { queue, changes: -1, record: undefined, held: w?.held ?? [] };
          this.#written.set(name, w);
        }
        w.record = r;
        wrote = true;
      }
      const changes = queue.state.changes;
      if (w.changes === changes) continue;
      w.changes = changes;
      const now = queue.state.image();
      writeMessages(store, messagePrefix(name), w.held, now);
      w.held = now;
      wrote = true;
    }
    if (sameSet && i === this.#order.length) return wrote;
    for (const name of this.#written.keys()) {
      if (queues?.entry(name)) continue;
      this.#written.delete(name);
      store.remove(queueKey(name));
      for (const k of store.keys(messagePrefix(name))) store.remove(k);
    }
    this.#order = [...(queues?.entries() ?? [])];
    store.put('queues', queues?.names() ?? []);
    return true;
  }
}

/**
 * Writes the messages of `now` that `before` (what was last written) lacks, and removes those gone.
 * Sends append to the queue's order, so the common case compares position by position and writes
 * the tail: O(messages held) pointer compares. Otherwise (a batch settled, a retry, a delay that
 * sorts earlier), one Map of `before`: still O(messages held), writing only what changed.
 */
function writeMessages(store: ImageStore, prefix: string, before: readonly Held[], now: readonly Held[]): void {
  let i = 0;
  while (i < before.length && i < now.length && before[i] === now[i]) i++;
  if (i === before.length) {
    for (; i < now.length; i++) store.put(prefix + now[i]!.id, heldImage(now[i]!));
    return;
  }
  const was = new Map<string, Held>();
  for (const h of before) was.set(h.id, h);
  for (const h of now) {
    if (was.get(h.id) !== h) store.put(prefix + h.id, heldImage(h));
    was.delete(h.id);
  }
  for (const id of was.keys()) store.remove(prefix + id);
}

/** Messages in the order the queue holds them: when visible, then their order among those. */
const queueOrder = (a: Held, b: Held) => a.visibleAt - b.visibleAt || a.seq - b.seq;

/**
 * Puts the persisted queues back in the account, in the order made: each with its record, its
 * messages held again through the queue's restore (so delivery is scheduled on the account's clock)
 * and its API consumer attached as a restore attaches it. A name the account already has is kept.
 */
export function loadQueues(store: ImageStore, state: AccountState): void {
  const order = (store.get('queues') as string[] | undefined) ?? [];
  if (order.length === 0) return;
  const queues = state.backend(QUEUES);
  for (const name of order) {
    const image = store.get(queueKey(name)) as QueueImage | undefined;
    if (!image || queues.entry(name)) continue;
    const record = image.record ? copyRecord(image.record) : undefined;
    const queue = queues.add(name, undefined, record);
    const held = valuesUnder(store, messagePrefix(name)).map((v) => heldFrom(v as HeldImage));
    queue.state.load(held.sort(queueOrder));
    syncConsumer(queue, undefined, record?.consumer);
  }
}
