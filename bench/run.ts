/**
 * `npm run bench`: the bucket benchmarks (issues 2 and 3), each printing ops/s and ratios against
 * `@miniflare/r2` v2 and Miniflare's workerd R2 measured in this same run, then the DNS benchmarks
 * (issue 4: requests per second through `api.fetch`).
 *
 * Speed is measured here and never asserted in tests; this is not part of `npm test`.
 *
 * `npm run bench -- small list` runs only the named cases (small, list, large, multipart, snapshot,
 * indexeddb, lifecycle, notifications, persist: `r2 serve --persist` against in memory, bench/persist.ts; imports: each
 * entry's cold import, bench/imports.ts; suites: the same, then a whole `vitest run` on the doubles against Miniflare,
 * bench/suites.ts); the DNS benchmarks then run only if `dns` is named too, the S3 view's
 * (bench/s3.ts) if `s3` is, the public-GET comparison (bench/public.ts) if `public` is, the Queues
 * double's (bench/queue.ts) if `queue` is, boto3's puts against `r2 serve` with and without the
 * interim 100 Continue (bench/boto3-continue.ts) if `boto3` is, the browser bundle sizes if `size` is, and the
 * account image behind --persist (bench/account-image.ts) if `image` is. No names: everything.
 */
import { cpus, loadavg } from 'node:os';
import { hashImplementation } from '../lib/hash.js';
import { benchAccountImage } from './account-image.js';
import { benchBoto3Continue } from './boto3-continue.js';
import { benchBundleSize } from './bundle-size.js';
import { benchDns } from './dns.js';
import { benchDnsWire } from './dns-wire.js';
import { benchS3 } from './s3.js';
import { benchPublic } from './public.js';
import { benchQueue } from './queue.js';
import { benchImports } from './imports.js';
import { benchIndexedDb } from './indexeddb.js';
import { benchLargePut } from './large-put.js';
import { benchLifecycle } from './lifecycle.js';
import { benchListing } from './listing.js';
import { benchMultipart } from './multipart.js';
import { benchNotifications } from './notifications.js';
import { benchPersist } from './persist.js';
import { benchSmallOps } from './small-ops.js';
import { benchSnapshot } from './snapshot.js';
import { benchSuites } from './suites.js';
import { gc } from './stats.js';
import { printSummary, type TargetResult } from './table.js';

const started = performance.now();
const named = process.argv.slice(2);
// The load average is printed because absolute numbers mean little on a busy machine (ratios,
// measured with the contenders' runs alternating, hold up better).
const load = () => loadavg()[0]!.toFixed(2);
console.log(
  `# edge-doubles bench — node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} cpus, ` +
    `hashing: ${hashImplementation()}, load average ${load()}`,
);

const CASES = {
  small: benchSmallOps,
  list: benchListing,
  large: benchLargePut,
  multipart: benchMultipart,
  snapshot: benchSnapshot,
  indexeddb: benchIndexedDb,
  lifecycle: benchLifecycle,
  notifications: benchNotifications,
  persist: benchPersist,
  // Each entry's cold import (issue 37), alone.
  imports: benchImports,
  // The same, then a whole `vitest run` on the doubles against Miniflare (issue 37); the imports once
  // when both cases run.
  suites: (results: TargetResult[]) => benchSuites(results, named.length > 0 && !named.includes('imports')),
} as const;
const unknown = named.filter(
  (n) =>
    n !== 'dns' &&
    n !== 'dns-wire' &&
    n !== 'boto3' &&
    n !== 's3' &&
    n !== 'public' &&
    n !== 'queue' &&
    n !== 'size' &&
    n !== 'image' &&
    !(n in CASES),
);
if (unknown.length) {
  console.error(
    `unknown case(s) ${unknown.join(', ')}; known: ${Object.keys(CASES).join(', ')}, dns, dns-wire, boto3, s3, public, queue, size, image`,
  );
  process.exit(2);
}
const wanted = (name: string) => named.length === 0 || named.includes(name);

const results: TargetResult[] = [];
for (const [name, bench] of Object.entries(CASES)) {
  if (!wanted(name)) continue;
  gc();
  await bench(results);
}
if (results.length > 0) {
  printSummary(results);
  console.log(
    `\nbucket benches took ${((performance.now() - started) / 1000).toFixed(1)} s (load average now ${load()})`,
  );
}
if (wanted('dns')) await benchDns();
if (wanted('dns-wire')) await benchDnsWire(); // the DNS server over UDP (bench/dns-wire.ts), when `dns-wire` is named
if (wanted('s3')) await benchS3();
if (wanted('public')) await benchPublic();
if (wanted('queue')) await benchQueue();
if (wanted('size')) await benchBundleSize();
if (wanted('image')) await benchAccountImage(); // the account image behind --persist (bench/account-image.ts)
if (wanted('boto3')) await benchBoto3Continue(); // 100 boto3 put_object against r2 serve, 100 Continue sent or not (bench/boto3-continue.ts)
