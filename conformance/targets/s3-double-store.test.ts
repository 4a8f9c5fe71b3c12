import { Bucket } from '../../lib/bucket.js';
import { StoreStorage } from '../../lib/bucket/store-storage.js';
import { S3Api } from '../../lib/s3.js';
import { MemoryStore } from '../../lib/support/store.js';
import { s3Conformance } from '../s3/index.js';

// The S3 view over a bucket kept by StoreStorage (what `r2 serve --persist` answers from, there over
// SQLite), here over the in-memory Store: every S3 operation one Store commit.
const credentials = {
  accessKeyId: '0123456789abcdef0123456789abcdef',
  secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687',
};
const storage = new StoreStorage({ store: new MemoryStore(), name: 's3-conformance' });
const api = new S3Api({ buckets: { conformance: new Bucket({ storage }) }, credentials: [credentials] });

s3Conformance({ name: 's3-double-store', fetch: (r) => api.fetch(r), credentials, bucket: 'conformance' });
