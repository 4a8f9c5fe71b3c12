import { StoreStorage } from '../../lib/bucket/store-storage.js';
import { MemoryStore } from '../../lib/support/store.js';
import { doubleDifferences } from '../bucket/index.js';
import { registerDoubleTargets } from './double-targets.js';

// The double on StoreStorage, the storage `--persist` keeps buckets in, over the in-memory Store
// (the same contract as SQLite's: values cloned in and out): a fresh Store for every test.
registerDoubleTargets(
  'double-store',
  doubleDifferences,
  () => new StoreStorage({ store: new MemoryStore(), name: 'conformance' }),
);
