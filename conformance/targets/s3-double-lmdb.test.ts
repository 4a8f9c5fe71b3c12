import { afterAll } from 'vitest';
import { Bucket, IndexedDbStorage } from '../../lib/bucket/index.js';
import { S3Api } from '../../lib/s3/index.js';
import { TempLmdb } from '../../spec/helpers/lmdb.js';
import { s3Conformance } from '../s3/index.js';

// The S3 view over a bucket kept by IndexedDbStorage over LMDB (lib/node/persist): what
// `r2 serve --persist` answers from, every S3 operation an LMDB transaction.
const credentials = {
  accessKeyId: '0123456789abcdef0123456789abcdef',
  secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687',
};
const env = new TempLmdb();
afterAll(() => env.remove());
const storage = new IndexedDbStorage({ name: 's3-conformance', indexedDB: env.indexedDB(), exclusive: true });
const api = new S3Api({ buckets: { conformance: new Bucket({ storage }) }, credentials: [credentials] });

s3Conformance({ name: 's3-double-lmdb', fetch: (r) => api.fetch(r), credentials, bucket: 'conformance' });
