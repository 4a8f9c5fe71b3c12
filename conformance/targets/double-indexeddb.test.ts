import { IDBFactory } from 'fake-indexeddb';
import { IndexedDbStorage } from '../../lib/bucket.js';
import { doubleDifferences } from '../bucket/index.js';
import { registerDoubleTargets } from './double-targets.js';

// The double on IndexedDbStorage, in Node with fake-indexeddb: a fresh database (a new IDBFactory,
// so nothing is shared) for every test.
registerDoubleTargets(
  'double-indexeddb',
  doubleDifferences,
  () => new IndexedDbStorage({ name: 'conformance', indexedDB: new IDBFactory() }),
);
