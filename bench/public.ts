/**
 * A public GET (lib/r2-public: `api.public.fetch` at the bucket's r2.dev host) against an S3
 * GetObject of the same 1 KiB object through the S3 view's `api.fetch` (the same signed request
 * sent again), both in process over one account (issue 18's target: the public GET at most 1.5×
 * the S3 GetObject). Timed in alternating rounds, medians compared, so a change of load on a
 * shared machine touches both alike. `npm run bench -- public` runs only this case.
 */
import { AwsClient } from 'aws4fetch';
import { CloudflareApi } from '../lib/cloudflare-api/cloudflare-api.js';
import { Bucket } from '../lib/bucket.js';
import { S3Api } from '../lib/s3.js';
import { gc, KiB, median, timeSequential } from './stats.js';

const credentials = {
  accessKeyId: '0123456789abcdef0123456789abcdef',
  secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687',
};
const N = 10_000;
const ROUNDS = 5;
const TARGET = 1.5;

export async function benchPublic(): Promise<void> {
  const api = new CloudflareApi();
  const bucket = api.account.addBucket('bench', new Bucket());
  await bucket.put('object', new Uint8Array(KiB).fill(97), {
    httpMetadata: { contentType: 'application/octet-stream' },
  });
  const enabled = await api.fetch(
    `https://api.cloudflare.com/client/v4/accounts/${api.account.id}/r2/buckets/bench/domains/managed`,
    {
      method: 'PUT',
      headers: { authorization: 'Bearer bench-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true }),
    },
  );
  if (!enabled.ok) throw new Error(`enabling r2.dev failed: ${enabled.status}`);
  const s3 = new S3Api({ account: api.account, credentials: [credentials] });
  const signed = await new AwsClient({ ...credentials, service: 's3', region: 'auto' }).sign(
    'https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com/bench/object',
  );
  const url = signed.url;
  const headers = Object.fromEntries(signed.headers);
  const publicUrl = `https://${api.public.managedDomain('bench')}/object`;

  const s3Get = async () => {
    const res = await s3.fetch(url, { headers });
    if (res.status !== 200) throw new Error(`GetObject: ${res.status}`);
    await res.arrayBuffer();
  };
  const publicGet = async () => {
    const res = await api.public.fetch(publicUrl);
    if (res.status !== 200) throw new Error(`public GET: ${res.status}`);
    await res.arrayBuffer();
  };
  // Warm-up: both paths compiled before the first timed round.
  await timeSequential(2000, s3Get);
  await timeSequential(2000, publicGet);

  const s3Times: number[] = [];
  const publicTimes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    gc();
    s3Times.push(await timeSequential(N, s3Get));
    gc();
    publicTimes.push(await timeSequential(N, publicGet));
  }
  const us = (ms: number) => ((ms * 1000) / N).toFixed(2);
  const s3Ms = median(s3Times);
  const publicMs = median(publicTimes);
  const ratio = publicMs / s3Ms;
  console.log(`\n## public GET vs S3 GetObject (1 KiB, in process, ${N} each, median of ${ROUNDS} alternating rounds)`);
  console.log(`S3 GetObject through S3Api.fetch : ${us(s3Ms)} µs/op`);
  console.log(`public GET through api.public.fetch: ${us(publicMs)} µs/op`);
  console.log(`ratio public / S3: ${ratio.toFixed(2)}× (target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'MISSED'})`);
}
