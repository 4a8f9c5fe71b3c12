/** Timing helpers: warm-up, medians, units. Kept tiny so every case times the same way. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const KiB = 1024;
export const MiB = 1024 * 1024;

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Milliseconds taken by `fn`. */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Runs `op(i)` for i in [0, n) one after another (as a test would await them) and returns ms. */
export function timeSequential(n: number, op: (i: number) => Promise<unknown>): Promise<number> {
  return timeMs(async () => {
    for (let i = 0; i < n; i++) await op(i);
  });
}

// `npm run bench` is plain `tsx bench/run.ts` (no node flags), so expose gc at run time: a fresh
// context created after the flag is set gets the `gc` global.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** A full collection, between cases and before memory readings, so one case's garbage is not another's. */
export function gc(): void {
  collect();
}

export const opsPerSec = (n: number, ms: number) => (n * 1000) / ms;
export const mbPerSec = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);
