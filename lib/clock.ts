/**
 * The doubles' notion of "now", and of waiting (injected delays).
 *
 * The default reads `Date.now()` at each operation (never caches it) and waits with the global
 * `setTimeout` looked up when the wait starts (never captured at import), so Vitest's
 * `vi.useFakeTimers()` / `vi.setSystemTime()` and node:test's `mock.timers` move the doubles' time
 * and release their delays with no option at all.
 *
 * A `clock` option takes a function returning epoch ms, or an object with `now()` (a `ManualClock`,
 * say); one clock given to several buckets and a DnsApi makes them share one time.
 */
export type Clock =
  | (() => number)
  | {
      /** Epoch ms. */
      now(): number;
      /** Resolves once `ms` have passed on this clock (injected delays wait on it). */
      sleep?(ms: number): Promise<void>;
    };

/** What the doubles use inside: now, and a wait that follows the same time. */
export interface TimeSource {
  /** Epoch ms. */
  now(): number;
  /** Resolves once `ms` have passed on this clock. */
  sleep(ms: number): Promise<void>;
}

export const systemClock = (): number => Date.now();

const resolved = Promise.resolve();

/** Waits on the global timers as they are when called (fake timers included); 0 ms makes no timer. */
function timerSleep(ms: number): Promise<void> {
  if (!(ms > 0)) return resolved;
  return new Promise((done) => {
    globalThis.setTimeout(done, ms);
  });
}

/** The time source for a `clock` option. */
export function timeSource(clock: Clock | undefined): TimeSource {
  if (clock === undefined) return { now: systemClock, sleep: timerSleep };
  if (typeof clock === 'function') return { now: clock, sleep: timerSleep };
  const sleep = clock.sleep;
  return { now: () => clock.now(), sleep: sleep ? (ms) => sleep.call(clock, ms) : timerSleep };
}

/**
 * A clock that moves only when told: `advance(ms)` and `set(time)`. Delays injected on doubles that
 * share it resolve when it is advanced past their end, in order.
 */
export class ManualClock {
  #now: number;
  #waiting: { at: number; done: () => void }[] = [];

  constructor(start: number | Date = 0) {
    this.#now = +start;
  }

  /** The clock's time, epoch ms. */
  now(): number {
    return this.#now;
  }

  /** Moves time forward by `ms` and releases the delays that end by then. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`ManualClock.advance: ms must be a non-negative number, got ${ms}`);
    this.set(this.#now + ms);
  }

  /** Sets the time (epoch ms or a Date); delays ending by then are released. */
  set(time: number | Date): void {
    this.#now = +time;
    const due = this.#waiting.filter((w) => w.at <= this.#now).sort((a, b) => a.at - b.at);
    if (!due.length) return;
    this.#waiting = this.#waiting.filter((w) => w.at > this.#now);
    for (const w of due) w.done();
  }

  /** Resolves when the clock has been moved `ms` past now (injected delays wait on it). */
  sleep(ms: number): Promise<void> {
    if (!(ms > 0)) return resolved;
    return new Promise((done) => this.#waiting.push({ at: this.#now + ms, done }));
  }

  /** How many delays are waiting for time to move. */
  get pending(): number {
    return this.#waiting.length;
  }
}
