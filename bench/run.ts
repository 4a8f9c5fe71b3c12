/**
 * `npm run bench`: the bucket benchmarks (issues 2 and 3), each printing ops/s and ratios against
 * `@miniflare/r2` v2 and Miniflare's workerd R2 measured in this same run, then the DNS benchmarks
 * if bench/dns.ts (another engineer's) exists and exports `benchDns`.
 *
 * Speed is measured here and never asserted in tests; this is not part of `npm test`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hashImplementation } from '../lib/hash.js';
import { benchLargePut } from './large-put.js';
import { benchListing } from './listing.js';
import { benchMultipart } from './multipart.js';
import { benchSmallOps } from './small-ops.js';
import { gc } from './stats.js';
import { printSummary, type TargetResult } from './table.js';

const started = performance.now();
console.log(`# edge-doubles bucket bench — node ${process.version}, ${process.platform}/${process.arch}, hashing: ${hashImplementation}`);

const results: TargetResult[] = [];
for (const bench of [benchSmallOps, benchListing, benchLargePut, benchMultipart]) {
  gc();
  await bench(results);
}
printSummary(results);
console.log(`\nbucket benches took ${((performance.now() - started) / 1000).toFixed(1)} s`);

// bench/dns.ts belongs to the DNS double's engineer: run it when it exists, never require it.
const dnsFile = fileURLToPath(new URL('./dns.ts', import.meta.url));
if (!existsSync(dnsFile)) {
  console.log('\n(bench/dns.ts not present: DNS benchmarks skipped)');
} else {
  const mod = (await import(new URL('./dns.ts', import.meta.url).href)) as { benchDns?: () => unknown };
  if (typeof mod.benchDns === 'function') await mod.benchDns();
  else console.log('\n(bench/dns.ts does not export benchDns: DNS benchmarks skipped)');
}
