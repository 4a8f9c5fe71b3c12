/**
 * What the crash test's child writes: the i-th key and its bytes, which the parent recomputes. Every
 * other body is under 4 KiB (most of those kept with their object's record), the others up to 700 KiB
 * (up to three chunk records).
 */
export const crashKey = (i: number): string => `obj/${String(i).padStart(6, '0')}`;

export function crashBody(i: number): Uint8Array {
  const size = i % 2 === 1 ? (i * 7919) % 4096 : (i * 7919 * 97) % (700 * 1024);
  const out = new Uint8Array(size);
  let x = i + 1;
  for (let j = 0; j < size; j++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[j] = x >>> 24;
  }
  return out;
}
