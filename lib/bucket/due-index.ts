/**
 * The bucket's objects in the order their next lifecycle action falls due (DESIGN.md, "Speed is
 * structural": rules that act on the clock are kept in time order). The layer (layer.ts `#tick`)
 * takes from the front what the clock has passed, so a call while rules fall due costs O(log n)
 * plus the objects that fell due, never a walk of every object the rules cover.
 *
 * One entry per key, at the time its object's next action (deletion, transition, a lock's end)
 * falls due. Entries are hints, not the truth: the layer looks the object up again when an entry
 * is taken (it may have been deleted or replaced since), so a stale entry costs one look-up.
 */
import { sortedTree, type SortedTree } from '../persistent-map.js';

/**
 * Epoch ms as a fixed-width string whose plain order is the numbers' order (0 ≤ t < 36^11): an
 * entry's rounded up, the clock's down, so an entry is taken only once its time has come.
 */
const stamp = (t: number, round: (x: number) => number) => round(Math.max(0, t)).toString(36).padStart(11, '0');
const STAMP = 11;

export class DueIndex {
  #byTime: SortedTree<string> = sortedTree<string>();
  /** Each key's entry in #byTime. */
  #entry = new Map<string, string>();

  get size(): number {
    return this.#entry.size;
  }

  /** Files `key` at `at` (epoch ms), replacing its entry; Infinity removes it. */
  set(key: string, at: number): void {
    const old = this.#entry.get(key);
    if (old !== undefined) this.#byTime.delete(old);
    if (at === Infinity) {
      if (old !== undefined) this.#entry.delete(key);
      return;
    }
    const entry = stamp(at, Math.ceil) + key;
    this.#byTime.set(entry, key);
    this.#entry.set(key, entry);
  }

  /** When the first entry falls due (Infinity: none). */
  next(): number {
    const first = this.#byTime.entries().next();
    return first.done ? Infinity : parseInt(first.value[0].slice(0, STAMP), 36);
  }

  /**
   * Takes the keys due at or before `now`, earliest first, removing their entries: at most `limit`
   * of them. Undefined (and nothing taken) when more than `limit` are due: a pass over the objects
   * the rules cover then costs less than taking them one by one.
   */
  take(now: number, limit: number): string[] | undefined {
    const bound = stamp(now, Math.floor);
    const due: string[] = [];
    const entries: string[] = [];
    for (const [entry, key] of this.#byTime.entries()) {
      if (entry.slice(0, STAMP) > bound) break;
      if (due.length === limit) return undefined;
      entries.push(entry);
      due.push(key);
    }
    for (let i = 0; i < due.length; i++) {
      this.#byTime.delete(entries[i]!);
      this.#entry.delete(due[i]!);
    }
    return due;
  }

  clear(): void {
    this.#byTime = sortedTree<string>();
    this.#entry.clear();
  }
}
