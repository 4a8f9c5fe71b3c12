/**
 * Profiling entry point for the double alone (not run by `npm run bench`):
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts <put|get|head|head-hashed|put64>
 *
 * then open the .cpuprofile in Chrome DevTools (or summarise self time per function). It loops one
 * operation long enough for the sampler to see where the time goes. `head-hashed` heads objects
 * whose etag was read once (so results carry it as a value): the difference from `head` is what the
 * lazy etag's getters cost a result.
 */
import { randomFillSync } from 'node:crypto';
import { Bucket } from '../lib/bucket.js';
import { KiB, MiB } from './stats.js';

const op = process.argv[2] ?? 'put';
const bucket = new Bucket();
const small = new Uint8Array(KiB).fill(0x61);
const keys = Array.from({ length: 20_000 }, (_, i) => `small/${String(i).padStart(6, '0')}`);
for (const k of keys) {
  const put = await bucket.put(k, small);
  if (op === 'head-hashed') void put.etag;
}

const t0 = performance.now();
if (op === 'put64') {
  const big = randomFillSync(new Uint8Array(64 * MiB));
  for (let r = 0; r < 20; r++) await bucket.put('big', big);
} else {
  for (let r = 0; r < 25; r++) {
    for (const k of keys) {
      if (op === 'put') await bucket.put(k, small);
      else if (op === 'get') await (await bucket.get(k))!.arrayBuffer();
      else await bucket.head(k); // head, head-hashed
    }
  }
}
console.log(`${op}: ${(performance.now() - t0).toFixed(0)} ms`);
