import { afterEach, vi } from 'vitest';
import { Bucket, type BucketStorage } from '../../lib/bucket.js';
import { bucketConformance, runtimeDifferences, type BucketDifferenceId } from '../bucket/index.js';

/**
 * The double as conformance targets, wherever it runs: today's behaviour with a clock the suite can
 * move (its clock is Date.now(), which Vitest's clock mocking moves), and the same double at
 * compatibility date 2022-01-01 for the `include` rules and the other date boundaries. `storage`
 * gives each test's bucket a fresh storage (default: memory). The runtime's own differences
 * (runtimeDifferences: Bun's and Deno's bodies) are added to the ones given.
 */
export function registerDoubleTargets(
  name: string,
  differences: readonly BucketDifferenceId[] = [],
  storage?: () => BucketStorage,
): void {
  differences = [...differences, ...runtimeDifferences()];
  bucketConformance({
    name,
    create: () => new Bucket({ storage: storage?.() }),
    differences,
    advanceClock: (ms) => {
      vi.setSystemTime(Date.now() + ms);
    },
  });
  // advanceClock mocks Date (frozen at the new time); give it back after each test so time does not leak.
  afterEach(() => {
    vi.useRealTimers();
  });

  bucketConformance({
    name: `${name} (compatibility date 2022-01-01)`,
    create: () => new Bucket({ compatibilityDate: '2022-01-01', storage: storage?.() }),
    differences,
    compatibilityDate: '2022-01-01',
    groups: ['list include', 'compatibility dates'],
  });
}
