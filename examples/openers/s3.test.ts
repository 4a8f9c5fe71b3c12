/** docs/s3.md's opening example: the AWS SDK against the S3 view of a Bucket, in process. */
import { expect, it } from 'vitest';
// README: s3
import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
import { FetchHttpHandler } from '@smithy/fetch-http-handler'; // comes with @aws-sdk/client-s3
import { Bucket } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3'; // or from 'edge-doubles'

const photos = new Bucket(); // the Worker's env.PHOTOS
const credentials = { accessKeyId: 'test-key-id', secretAccessKey: 'test-secret' };
const api = new S3Api({ buckets: { photos }, credentials: [credentials] }); // also: clock, account

// The client as R2's docs configure it; the endpoint is only signed, nothing leaves the process.
const s3 = new S3Client({
  region: 'auto',
  endpoint: 'https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com', // your account id
  forcePathStyle: true,
  credentials,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  requestHandler: new FetchHttpHandler({ customFetch: api.fetch }),
});
const { ETag } = await s3.send(new PutObjectCommand({ Bucket: 'photos', Key: 'a.txt', Body: 'hi' }));
const same = (await photos.get('a.txt'))?.httpEtag === ETag; // true: one object, seen through both views
// README: end

it('writes through S3 what the binding reads', () => {
  expect(same).toBe(true);
});
