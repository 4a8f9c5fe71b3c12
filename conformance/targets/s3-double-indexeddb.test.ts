import { IDBFactory } from 'fake-indexeddb';
import { Bucket, IndexedDbStorage } from '../../lib/bucket.js';
import { S3Api } from '../../lib/s3.js';
import { s3Conformance } from '../s3/index.js';

// The S3 view over a bucket kept in IndexedDB (fake-indexeddb in Node): every S3 operation then runs
// as a storage transaction, and bodies are read back from the database, not from memory.
const credentials = {
  accessKeyId: '0123456789abcdef0123456789abcdef',
  secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687',
};
const storage = new IndexedDbStorage({ name: 's3-conformance', indexedDB: new IDBFactory() });
const api = new S3Api({ buckets: { conformance: new Bucket({ storage }) }, credentials: [credentials] });

s3Conformance({ name: 's3-double-indexeddb', fetch: (r) => api.fetch(r), credentials, bucket: 'conformance' });
