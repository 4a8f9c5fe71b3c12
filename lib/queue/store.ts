/**
 * The messages a queue holds, and when they leave in batches: the broker's part of the Queues
 * double, as plain data and time arithmetic (no clock, no consumer, no promises; queue.ts drives it).
 *
 * A message is waiting (not visible yet: delayed, or retried with a delay) or ready (visible, not
 * yet in a batch). A batch leaves as soon as `size` messages are ready, or `timeout` ms after the
 * first message of a partial batch became ready; Miniflare's broker counts the same way. Events are
 * walked in time order, so a call made late (after the clock jumped) forms the batches production
 * would have formed meanwhile, each with the moment it left.
 *
 * Both lists are arrays read from a head index (never `shift()`: delivering n messages stays O(n)),
 * compacted when the head passes half.
 */
import { Backlog } from './backlog.js';
import type { HeldBody } from './content.js';

/** A message as the queue holds it. Never changed in place (a snapshot shares them). */
export interface Held {
  readonly id: string;
  /** When it was sent (epoch ms). */
  readonly timestamp: number;
  /** The body and its size in bytes. */
  readonly body: HeldBody;
  /** Failed deliveries so far (the consumer sees `attempts` = this + 1). */
  readonly failures: number;
  /** When it becomes (became) visible. */
  readonly visibleAt: number;
  /** Order among messages visible at the same moment. */
  readonly seq: number;
}

/** How batches are formed: the consumer's `max_batch_size` and `max_batch_timeout` (in ms). */
export interface Batching {
  readonly size: number;
  readonly timeoutMs: number;
}

export interface StoreSnapshot {
  readonly waiting: readonly Held[];
  readonly ready: readonly Held[];
  readonly openedAt: number;
}

const COMPACT_AFTER = 1024;

export class MessageStore {
  /** Not yet visible, in (visibleAt, seq) order, from #wHead. */
  #waiting: Held[] = [];
  #wHead = 0;
  /** Visible, waiting for a batch, oldest first, from #rHead. */
  #ready: Held[] = [];
  #rHead = 0;
  /** When the partial batch in #ready began (its first message became visible). */
  #openedAt = 0;
  #seq = 0;
  /** Count, bytes and oldest timestamp of every message held. */
  readonly backlog = new Backlog();

  /** The next position among messages visible at one moment. */
  nextSeq(): number {
    return ++this.#seq;
  }

  /** Holds a message until it is visible (appending is the common case; else a binary search). */
  add(h: Held): void {
    // A message held again from a snapshot or from disk keeps its place: later ones come after it.
    if (h.seq > this.#seq) this.#seq = h.seq;
    this.backlog.add(h.timestamp, h.body.bytes);
    const w = this.#waiting;
    const last = w.length > this.#wHead ? w[w.length - 1] : undefined;
    if (!last || before(last, h)) {
      w.push(h);
      return;
    }
    let lo = this.#wHead;
    let hi = w.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(w[mid]!, h)) lo = mid + 1;
      else hi = mid;
    }
    w.splice(lo, 0, h);
  }

  get #readyCount(): number {
    return this.#ready.length - this.#rHead;
  }

  /**
   * Takes the next batch due by `now` and says when it left; undefined when none is due. `force`:
   * a partial batch leaves now instead of waiting for its timeout (`drain()`).
   */
  take(now: number, batching: Batching, force: boolean): { at: number; messages: Held[] } | undefined {
    const { size, timeoutMs } = batching;
    const full = this.#fullFromWaiting(now, size, timeoutMs);
    if (full) return full;
    let at: number | undefined;
    for (;;) {
      const next = this.#waiting[this.#wHead];
      const deadline = this.#readyCount > 0 ? this.#openedAt + timeoutMs : Infinity;
      // A full batch leaves when its last message became visible.
      if (this.#readyCount >= size) {
        at = Math.max(this.#openedAt, this.#ready[this.#rHead + size - 1]!.visibleAt);
        break;
      }
      // A message visible at the batch's deadline still joins it (Miniflare's timers fire in that order too).
      if (next && next.visibleAt <= now && next.visibleAt <= deadline) {
        if (this.#readyCount === 0) this.#openedAt = next.visibleAt;
        this.#ready.push(next);
        if (++this.#wHead > COMPACT_AFTER && this.#wHead * 2 > this.#waiting.length) {
          this.#waiting = this.#waiting.slice(this.#wHead);
          this.#wHead = 0;
        }
        continue;
      }
      if (deadline <= now) at = deadline;
      else if (force && this.#readyCount > 0) at = now;
      break;
    }
    if (at === undefined) return undefined;
    const messages = this.#ready.slice(this.#rHead, this.#rHead + Math.min(size, this.#readyCount));
    this.#rHead += messages.length;
    if (this.#rHead > COMPACT_AFTER && this.#rHead * 2 > this.#ready.length) {
      this.#ready = this.#ready.slice(this.#rHead);
      this.#rHead = 0;
    }
    for (const h of messages) this.backlog.remove(h.timestamp, h.body.bytes);
    // What is left of the ready messages starts a new window then.
    if (this.#readyCount > 0) this.#openedAt = at;
    return { at, messages };
  }

  /**
   * The common case of `take`, without moving messages one by one: nothing is ready and the next
   * `size` waiting messages are all visible by `now` within one batch window. The general loop
   * forms the same batch (it leaves when its last message became visible), one push at a time.
   */
  #fullFromWaiting(now: number, size: number, timeoutMs: number): { at: number; messages: Held[] } | undefined {
    if (this.#rHead !== this.#ready.length) return undefined;
    const w = this.#waiting;
    const head = this.#wHead;
    const last = w[head + size - 1];
    if (last === undefined || last.visibleAt > now || last.visibleAt > w[head]!.visibleAt + timeoutMs) return undefined;
    const messages = w.slice(head, head + size);
    this.#wHead = head + size;
    if (this.#wHead > COMPACT_AFTER && this.#wHead * 2 > w.length) {
      this.#waiting = w.slice(this.#wHead);
      this.#wHead = 0;
    }
    const backlog = this.backlog;
    for (let i = 0; i < size; i++) {
      const h = messages[i]!;
      backlog.remove(h.timestamp, h.body.bytes);
    }
    return { at: last.visibleAt, messages };
  }

  /** Whether a batch is due by `now` (`force`: any visible message makes one). */
  due(now: number, batching: Batching, force: boolean): boolean {
    const n = this.#readyCount;
    if (n > 0 && (force || n >= batching.size || this.#openedAt + batching.timeoutMs <= now)) return true;
    const next = this.#waiting[this.#wHead];
    return next !== undefined && next.visibleAt <= now;
  }

  /** The next moment something becomes due (Infinity: nothing held). */
  nextEvent(now: number, batching: Batching): number {
    let at = Infinity;
    const n = this.#readyCount;
    if (n > 0) at = n >= batching.size ? now : this.#openedAt + batching.timeoutMs;
    const next = this.#waiting[this.#wHead];
    if (next && next.visibleAt < at) at = next.visibleAt;
    return at;
  }

  /**
   * Takes the messages whose ids `ids` holds out of the queue, wherever they wait (the API's delete
   * of peeked messages): O(messages held). Returns those taken.
   */
  remove(ids: ReadonlySet<string>): Held[] {
    const taken: Held[] = [];
    const keep = (list: Held[], head: number): Held[] =>
      list.slice(head).filter((h) => {
        if (!ids.has(h.id)) return true;
        taken.push(h);
        this.backlog.remove(h.timestamp, h.body.bytes);
        return false;
      });
    this.#ready = keep(this.#ready, this.#rHead);
    this.#rHead = 0;
    this.#waiting = keep(this.#waiting, this.#wHead);
    this.#wHead = 0;
    return taken;
  }

  /** Every message held, visible ones first. */
  all(): Held[] {
    return [...this.#ready.slice(this.#rHead), ...this.#waiting.slice(this.#wHead)];
  }

  snapshot(): StoreSnapshot {
    return {
      waiting: this.#waiting.slice(this.#wHead),
      ready: this.#ready.slice(this.#rHead),
      openedAt: this.#openedAt,
    };
  }

  restore(s: StoreSnapshot): void {
    this.clear();
    this.#waiting = s.waiting.slice();
    this.#ready = s.ready.slice();
    this.#openedAt = s.openedAt;
    for (const h of this.#ready) this.backlog.add(h.timestamp, h.body.bytes);
    for (const h of this.#waiting) this.backlog.add(h.timestamp, h.body.bytes);
  }

  clear(): void {
    this.#waiting = [];
    this.#wHead = 0;
    this.#ready = [];
    this.#rHead = 0;
    this.backlog.clear();
  }
}

const before = (a: Held, b: Held) => a.visibleAt < b.visibleAt || (a.visibleAt === b.visibleAt && a.seq < b.seq);
