import { afterAll } from 'vitest';
import { IndexedDbStorage } from '../../lib/bucket/index.js';
import { TempLmdb } from '../../spec/helpers/lmdb.js';
import { doubleDifferences } from '../bucket/index.js';
import { registerDoubleTargets } from './double-targets.js';

// The double on IndexedDbStorage over LmdbIndexedDb (lib/node/persist): what `--persist` keeps a
// bucket in (exclusive, as the servers open it: the cache is the truth once loaded), a real LMDB
// environment in a temporary directory, a fresh database name per test.
const env = new TempLmdb();
const indexedDB = env.indexedDB();
let n = 0;
afterAll(() => env.remove());
registerDoubleTargets(
  'double-lmdb',
  doubleDifferences,
  () => new IndexedDbStorage({ name: `conformance-${++n}`, indexedDB, exclusive: true }),
);
