import { afterAll, beforeAll } from 'vitest';
import { Miniflare } from 'miniflare';
import { s3Conformance, type S3DifferenceId } from '../s3/index.js';

// Miniflare 4.20260730.0's local S3 endpoint for R2 (workerd behind it), enabled per bucket by the
// `s3Credentials` option of r2Buckets; it serves path-style at <origin>/cdn-cgi/local/r2/s3/<bucket id>/<key>.
const credentials = {
  accessKeyId: '0123456789abcdef0123456789abcdef',
  secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687',
};

/** Where the local endpoint differs from production (evidence in conformance/s3/differences.ts). */
export const miniflareS3Differences: readonly S3DifferenceId[] = [
  'miniflare-checksums-ignored',
  'miniflare-standard-ia',
  'miniflare-no-merge',
  'miniflare-random-part-etags',
  'miniflare-parts-unsorted',
  'miniflare-unequal-parts-404',
  'miniflare-no-upload-listing',
  'miniflare-lenient-xml',
  'miniflare-no-bucket-region',
  'miniflare-no-creation-date',
  'miniflare-ssec-writes',
  'miniflare-region-unchecked',
  'miniflare-bucket-before-auth',
];

let mf: Miniflare | undefined;
let origin: string | undefined;
beforeAll(async () => {
  mf = new Miniflare({
    modules: true,
    script: 'export default { fetch() { return new Response("worker") } }',
    compatibilityDate: '2025-01-01',
    r2Buckets: { BUCKET: { id: 'conformance', s3Credentials: credentials } },
  });
  origin = (await mf.ready).origin;
});
afterAll(async () => {
  await mf?.dispose();
});

s3Conformance({
  name: 's3-miniflare',
  endpoint: () => `${origin}/cdn-cgi/local/r2/s3`,
  credentials,
  bucket: 'conformance',
  differences: miniflareS3Differences,
  timeout: 60_000,
});
