import { it } from 'vitest';
import { s3Conformance } from '../s3/index.js';

// Real R2 through its S3 endpoint, when a bucket's S3 credentials are in the environment. Every test
// works under its own random prefix and deletes what it wrote.
const env = process.env;
const vars = ['R2_S3_ENDPOINT', 'R2_ACCESS_KEY_ID', 'R2_SECRET_ACCESS_KEY', 'EDGE_DOUBLES_R2_BUCKET'] as const;
const missing = vars.filter((v) => !env[v]);

if (missing.length === 0) {
  s3Conformance({
    name: 's3-r2 (production)',
    endpoint: env.R2_S3_ENDPOINT!,
    credentials: { accessKeyId: env.R2_ACCESS_KEY_ID!, secretAccessKey: env.R2_SECRET_ACCESS_KEY! },
    bucket: env.EDGE_DOUBLES_R2_BUCKET!,
    timeout: 120_000,
  });
} else {
  it.skip(`s3 conformance on real R2: skipped, because ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set`, () => {});
}
