import { Bucket } from '../../lib/bucket.js';
import { S3Api } from '../../lib/s3.js';
import { s3Conformance } from '../s3/index.js';

// The S3 view in process: requests go to api.fetch, addressed to an R2-looking endpoint they never reach.
const credentials = {
  accessKeyId: '0123456789abcdef0123456789abcdef',
  secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687',
};
const api = new S3Api({ buckets: { conformance: new Bucket() }, credentials: [credentials] });

s3Conformance({ name: 's3-double', fetch: (r) => api.fetch(r), credentials, bucket: 'conformance' });
