/** What the crash test's child writes: the i-th key and its bytes (0 to 700 KiB: up to three chunk records), which the parent recomputes. */
export const crashKey = (i: number): string => `obj/${String(i).padStart(6, '0')}`;

export function crashBody(i: number): Uint8Array {
  const size = (i * 7919 * 97) % (700 * 1024);
  const out = new Uint8Array(size);
  let x = i + 1;
  for (let j = 0; j < size; j++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[j] = x >>> 24;
  }
  return out;
}
