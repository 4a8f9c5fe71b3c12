/**
 * The doubles in real Chromium, imported from the built package (vitest.config.ts points the
 * `edge-doubles/*` names at the ESM that conformance/browser/build-package.ts builds), as a user's
 * bundler would load them: proves the published code runs in a browser, not only the sources in Node.
 */
import { afterEach, expect, it, vi } from 'vitest';
import * as edgeDoubles from 'edge-doubles';
import { Bucket } from 'edge-doubles/bucket';
import { DnsApi } from 'edge-doubles/dns';
import {
  bucketConformance,
  dnsConformance,
  documentModeDifferences,
  doubleDifferences,
  type BucketTarget,
} from 'edge-doubles/conformance';
import { registerDnsDoubleTargets } from './dns-double-targets.js';

const advanceClock = (ms: number) => {
  vi.setSystemTime(Date.now() + ms);
};

// Every bucket target of the browser run: a storage the bucket can sit on joins with one entry here,
// its constructor taken from the package's main entry (IndexedDB: the browser's own, a database per
// test, so each starts empty).
const bucketTargets: BucketTarget[] = [
  { name: 'double in chromium', create: () => new Bucket(), differences: doubleDifferences, advanceClock },
  {
    name: 'double on IndexedDB in chromium',
    create: () => new Bucket({ storage: new edgeDoubles.IndexedDbStorage({ name: crypto.randomUUID() }) }),
    differences: doubleDifferences,
    advanceClock,
  },
  {
    name: 'double in chromium (compatibility date 2022-01-01)',
    create: () => new Bucket({ compatibilityDate: '2022-01-01' }),
    differences: doubleDifferences,
    compatibilityDate: '2022-01-01',
    groups: ['list include', 'compatibility dates'],
  },
];

for (const target of bucketTargets) bucketConformance(target);
// advanceClock mocks Date (frozen at the new time); give it back after each test so time does not leak.
afterEach(() => {
  vi.useRealTimers();
});

registerDnsDoubleTargets('dns-double in chromium', { DnsApi, dnsConformance, documentModeDifferences });

// The main entry is the one most users import: it must load in the browser too.
it('edge-doubles (the main entry) loads in the browser and exports the doubles', () => {
  expect(new edgeDoubles.Bucket()).toBeInstanceOf(edgeDoubles.Bucket);
  expect(typeof edgeDoubles.DnsApi).toBe('function');
});
