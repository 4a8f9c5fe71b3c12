/**
 * Profiling entry point for the S3 view through `api.fetch` (not run by `npm run bench`):
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-s3.ts <put|get|list>
 *
 * It records what the AWS SDK sends (PutObject / GetObject of 1 KiB, one 1,000-key ListObjectsV2
 * page), then replays those signed requests without the SDK long enough for the sampler to see
 * where the service's own time goes (the same requests bench/s3.ts replays).
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { Bucket } from '../lib/bucket.js';
import { S3Api } from '../lib/s3.js';
import { r2Client } from '../spec/s3/client.js';
import { recording, replay } from './recorded-fetch.js';
import { KiB } from './stats.js';

const op = process.argv[2] ?? 'list';
const credentials = {
  accessKeyId: '0123456789abcdef0123456789abcdef',
  secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687',
};
const endpoint = 'https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com';
const bucket = new Bucket();
const api = new S3Api({ buckets: { bench: bucket }, credentials: [credentials] });
for (let i = 0; i < 1000; i++) await bucket.put(`list/${String(i).padStart(6, '0')}`, 'x');

const rec = recording(api.fetch);
const client = r2Client(endpoint, credentials, rec.fetch);
const body = new Uint8Array(KiB).fill(97);
const n = op === 'list' ? 1 : 1000;
for (let i = 0; i < n; i++) {
  if (op === 'put') await client.send(new PutObjectCommand({ Bucket: 'bench', Key: `obj/${i}`, Body: body }));
  else if (op === 'get') {
    await bucket.put(`obj/${i}`, body);
    await (await client.send(new GetObjectCommand({ Bucket: 'bench', Key: `obj/${i}` }))).Body!.transformToByteArray();
  } else await client.send(new ListObjectsV2Command({ Bucket: 'bench', Prefix: 'list/' }));
}
const exchanges = rec.exchanges.splice(0);

const rounds = op === 'list' ? 2000 : 50;
const t0 = performance.now();
for (let r = 0; r < rounds; r++) await replay(exchanges, api.fetch);
const ms = performance.now() - t0;
console.log(
  `${op}: ${((rounds * exchanges.length * 1000) / ms).toFixed(0)} requests/s (${(ms / (rounds * exchanges.length)).toFixed(3)} ms each)`,
);
