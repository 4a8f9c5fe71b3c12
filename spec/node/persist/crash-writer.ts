/**
 * The child of the crash test (lmdb-crash.test.ts): puts objects in a loop through a Bucket on
 * IndexedDbStorage over LmdbIndexedDb in the LMDB environment at argv[2], printing each key once
 * its put has resolved, until it is killed. argv[3] = 'nosync' opens the environment with noSync.
 */
import { open } from 'lmdb';
import { Bucket, IndexedDbStorage } from '../../../lib/bucket/index.js';
import { LmdbIndexedDb } from '../../../lib/node/persist/lmdb-indexeddb.js';
import { crashBody, crashKey } from './crash-bodies.js';

const root = open({ path: process.argv[2]!, maxDbs: 4, noSync: process.argv[3] === 'nosync' });
const bucket = new Bucket({ storage: new IndexedDbStorage({ name: 'crash', indexedDB: new LmdbIndexedDb(root) }) });
for (let i = 0; ; i++) {
  await bucket.put(crashKey(i), crashBody(i));
  process.stdout.write(`${crashKey(i)}\n`);
}
