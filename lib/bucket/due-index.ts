/**
 * The bucket's objects in the order their next lifecycle action falls due (ARCHITECTURE.md, "The
 * joints": rules that act on the clock are kept in time order). The layer (layer.ts `#pass`)
 * takes from the front what the clock has passed, so a call while rules fall due costs O(log n)
 * plus the objects that fell due, never a walk of every object the rules cover.
 *
 * One entry per key, at the time (epoch ms, rounded up) its object's next action (deletion,
 * transition, a lock's end) falls due; keys due at the same moment share one tree entry (a bulk
 * load written in one millisecond is one entry, not a tree of them). Entries are hints, not the
 * truth: the layer looks the object up again when an entry is taken (it may have been deleted or
 * replaced since), so a stale entry costs one look-up.
 */
import { numberTree, type NumberTree } from '../persistent-map.js';

export class DueIndex {
  #byTime: NumberTree<Set<string>> = numberTree();
  /** Each key's time in #byTime. */
  #at = new Map<string, number>();

  get size(): number {
    return this.#at.size;
  }

  /** Files `key` at `at` (epoch ms), replacing its entry; Infinity removes it. */
  set(key: string, at: number): void {
    const time = Math.ceil(at);
    const old = this.#at.get(key);
    if (old === time) return;
    if (old !== undefined) {
      const keys = this.#byTime.get(old)!;
      keys.delete(key);
      if (keys.size === 0) this.#byTime.delete(old);
    }
    if (time === Infinity) {
      if (old !== undefined) this.#at.delete(key);
      return;
    }
    let keys = this.#byTime.get(time);
    if (!keys) this.#byTime.set(time, (keys = new Set()));
    keys.add(key);
    this.#at.set(key, time);
  }

  /** When the first entry falls due (Infinity: none). */
  next(): number {
    return this.#byTime.minKey() ?? Infinity;
  }

  /**
   * Takes the keys due at or before `now`, earliest first, removing their entries: at most `limit`
   * of them. Undefined (and nothing taken) when more than `limit` are due: a walk of the objects
   * the rules cover then costs less than taking them one by one.
   */
  take(now: number, limit: number): string[] | undefined {
    const times: number[] = [];
    let count = 0;
    for (const [time, keys] of this.#byTime.entries()) {
      if (time > now) break;
      count += keys.size;
      if (count > limit) return undefined;
      times.push(time);
    }
    const due: string[] = [];
    for (const time of times) {
      for (const key of this.#byTime.get(time)!) {
        due.push(key);
        this.#at.delete(key);
      }
      this.#byTime.delete(time);
    }
    return due;
  }

  clear(): void {
    this.#byTime = numberTree();
    this.#at.clear();
  }
}
