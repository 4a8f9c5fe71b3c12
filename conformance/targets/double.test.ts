import { afterEach, vi } from 'vitest';
import { Bucket } from '../../lib/bucket/index.js';
import { bucketConformance } from '../bucket/index.js';

// The double in Node. Its clock is Date.now(), so Vitest's fake timers move it.
bucketConformance({
  name: 'double',
  create: () => new Bucket(),
  advanceClock: (ms) => {
    vi.setSystemTime(Date.now() + ms);
  },
});
// advanceClock mocks Date (frozen at the new time); give it back after each test so time does not leak.
afterEach(() => {
  vi.useRealTimers();
});

// The same double at a compatibility date before 2022-08-04, for the `include` rules.
bucketConformance({
  name: 'double (compatibility date 2022-01-01)',
  create: () => new Bucket({ compatibilityDate: '2022-01-01' }),
  compatibilityDate: '2022-01-01',
  groups: ['list include'],
});
