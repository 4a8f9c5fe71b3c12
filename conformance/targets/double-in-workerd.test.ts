import { Bucket } from '../../lib/bucket/index.js';
import { bucketConformance, doubleInWorkerdDifferences } from '../bucket/index.js';

// The double running inside workerd: proves lib/ runs on the edge runtime, not only in Node.
bucketConformance({
  name: 'double in workerd',
  create: () => new Bucket(),
  differences: doubleInWorkerdDifferences,
});

bucketConformance({
  name: 'double in workerd (compatibility date 2022-01-01)',
  create: () => new Bucket({ compatibilityDate: '2022-01-01' }),
  compatibilityDate: '2022-01-01',
  groups: ['list include'],
});
