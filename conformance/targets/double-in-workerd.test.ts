import { afterEach, vi } from 'vitest';
import { Bucket } from '../../lib/bucket/index.js';
import { bucketConformance, doubleInWorkerdDifferences } from '../bucket/index.js';

// The double running inside workerd: proves lib/ runs on the edge runtime, not only in Node.
// Its clock is Date.now(), which Vitest's clock mocking moves here too.
bucketConformance({
  name: 'double in workerd',
  create: () => new Bucket(),
  differences: doubleInWorkerdDifferences,
  advanceClock: (ms) => {
    vi.setSystemTime(Date.now() + ms);
  },
});
// advanceClock mocks Date (frozen at the new time); give it back after each test so time does not leak.
afterEach(() => {
  vi.useRealTimers();
});

bucketConformance({
  name: 'double in workerd (compatibility date 2022-01-01)',
  create: () => new Bucket({ compatibilityDate: '2022-01-01' }),
  compatibilityDate: '2022-01-01',
  groups: ['list include'],
});
