/**
 * The doubles' notion of "now": a function returning epoch milliseconds.
 *
 * The default reads `Date.now()` at each operation (never caches it, never starts a timer), so
 * Vitest's `vi.useFakeTimers()` / `vi.setSystemTime()` move the doubles' time with no option at all.
 */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
