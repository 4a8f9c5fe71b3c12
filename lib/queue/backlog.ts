/**
 * The backlog figures a send answers with and a batch carries (count, bytes, oldest timestamp),
 * kept as messages come and go so that reading them costs O(1): the bench delivers 10,000
 * messages with a figure read per send and per batch, and a scan each time made delivery quadratic.
 *
 * The oldest timestamp is the first key of a sorted list of (timestamp, count): sends append (the
 * clock rarely goes back), so adding and removing are O(1) in the common case and O(log n) otherwise.
 */
export class Backlog {
  count = 0;
  bytes = 0;
  #times: number[] = [];
  #counts: number[] = [];
  #head = 0;

  add(timestamp: number, bytes: number): void {
    this.count++;
    this.bytes += bytes;
    const t = this.#times;
    const last = t.length - 1;
    if (last >= this.#head && t[last] === timestamp) this.#counts[last]!++;
    else if (last < this.#head || t[last]! < timestamp) {
      t.push(timestamp);
      this.#counts.push(1);
    } else {
      const i = this.#find(timestamp);
      if (t[i] === timestamp) this.#counts[i]!++;
      else {
        t.splice(i, 0, timestamp);
        this.#counts.splice(i, 0, 1);
      }
    }
  }

  remove(timestamp: number, bytes: number): void {
    this.count--;
    this.bytes -= bytes;
    const i = this.#find(timestamp);
    if (this.#times[i] !== timestamp) return;
    if (--this.#counts[i]! > 0) return;
    if (i === this.#head) {
      this.#head++;
      while (this.#head < this.#times.length && this.#counts[this.#head] === 0) this.#head++;
      if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
        this.#times = this.#times.slice(this.#head);
        this.#counts = this.#counts.slice(this.#head);
        this.#head = 0;
      }
    } else {
      this.#times.splice(i, 1);
      this.#counts.splice(i, 1);
    }
  }

  /** The oldest timestamp held, or undefined when nothing is. */
  get oldest(): number | undefined {
    return this.#head < this.#times.length ? this.#times[this.#head] : undefined;
  }

  clear(): void {
    this.count = 0;
    this.bytes = 0;
    this.#times = [];
    this.#counts = [];
    this.#head = 0;
  }

  /** The first index (from the head) whose timestamp is not below `t`. */
  #find(t: number): number {
    let lo = this.#head;
    let hi = this.#times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#times[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
