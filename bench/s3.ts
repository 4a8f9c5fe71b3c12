/**
 * The S3 view through the AWS SDK (issue 11): PutObject and GetObject of 1 KiB, and a full
 * ListObjectsV2 walk over 100,000 keys (100 pages of 1,000), on
 * - the double in process (`S3Api.fetch` as the SDK's fetch),
 * - the double over HTTP (`startS3Server`, the SDK's default Node handler),
 * - Miniflare 4's local S3 endpoint for R2 (workerd; the SDK's default Node handler),
 * all in this same run, with the ratios to Miniflare. `npm run bench -- s3` runs only this case.
 *
 * The 100,000 keys are written through each target's binding (Miniflare's from inside its own
 * worker, in batches), not timed: only the listing is.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Miniflare } from 'miniflare';
import { Bucket } from '../lib/bucket/index.js';
import { startS3Server } from '../lib/node/index.js';
import { S3Api, type S3Fetch } from '../lib/s3/index.js';
import { r2Client } from '../spec/s3/client.js';
import { gc, KiB, opsPerSec, timeSequential } from './stats.js';

const credentials = { accessKeyId: '0123456789abcdef0123456789abcdef', secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687' };
const LIST_KEYS = 100_000;
const BODY = new Uint8Array(KiB).fill(97);

interface Target {
  label: string;
  client: S3Client;
  /** Writes LIST_KEYS keys under `list/` (untimed). */
  seed(): Promise<void>;
  /** How many puts and gets to time (the slow target gets fewer). */
  n: number;
  close(): Promise<void>;
}

const client = (endpoint: string, fetch?: S3Fetch): S3Client => r2Client(endpoint, credentials, fetch);

const listKey = (i: number) => `list/${String(i).padStart(6, '0')}`;

async function seedBucket(bucket: Bucket): Promise<void> {
  for (let i = 0; i < LIST_KEYS; i++) await bucket.put(listKey(i), 'x');
}

async function inProcess(): Promise<Target> {
  const bucket = new Bucket();
  const api = new S3Api({ buckets: { bench: bucket }, credentials: [credentials] });
  return { label: 'double, in process', client: client('https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com', api.fetch), seed: () => seedBucket(bucket), n: 5000, close: async () => {} };
}

async function overHttp(): Promise<Target> {
  const bucket = new Bucket();
  const server = await startS3Server({ buckets: { bench: bucket }, credentials: [credentials] });
  return { label: 'double, over HTTP', client: client(server.endpoint), seed: () => seedBucket(bucket), n: 2000, close: () => server.close() };
}

// Seeds inside workerd: one request writes a batch through the binding, so seeding is not 100,000 round trips.
const SEEDER = `export default {
  async fetch(request, env) {
    const u = new URL(request.url);
    const from = Number(u.searchParams.get('from')), to = Number(u.searchParams.get('to'));
    const puts = [];
    for (let i = from; i < to; i++) puts.push(env.BUCKET.put('list/' + String(i).padStart(6, '0'), 'x'));
    await Promise.all(puts);
    return new Response('ok');
  }
}`;

async function miniflare(): Promise<Target> {
  const mf = new Miniflare({
    modules: true,
    script: SEEDER,
    compatibilityDate: '2025-01-01',
    r2Buckets: { BUCKET: { id: 'bench', s3Credentials: credentials } },
  });
  const origin = (await mf.ready).origin;
  return {
    label: 'Miniflare 4 local S3',
    client: client(`${origin}/cdn-cgi/local/r2/s3`),
    seed: async () => {
      for (let from = 0; from < LIST_KEYS; from += 1000) {
        const res = await mf.dispatchFetch(`http://localhost/seed?from=${from}&to=${from + 1000}`);
        await res.text();
      }
    },
    n: 300,
    close: () => mf.dispose(),
  };
}

interface Row {
  target: string;
  put: number;
  get: number;
  /** ms for one ListObjectsV2 walk over all keys. */
  listWalkMs: number;
}

async function measure(t: Target): Promise<Row> {
  const { client: c, n } = t;
  // Warm-up: the SDK's middleware stack and the target's paths.
  for (let i = 0; i < 50; i++) {
    await c.send(new PutObjectCommand({ Bucket: 'bench', Key: `warm/${i}`, Body: BODY }));
    await (await c.send(new GetObjectCommand({ Bucket: 'bench', Key: `warm/${i}` }))).Body!.transformToByteArray();
  }
  gc();
  const putMs = await timeSequential(n, (i) => c.send(new PutObjectCommand({ Bucket: 'bench', Key: `obj/${i}`, Body: BODY })));
  const getMs = await timeSequential(n, async (i) => {
    const r = await c.send(new GetObjectCommand({ Bucket: 'bench', Key: `obj/${i}` }));
    await r.Body!.transformToByteArray();
  });
  await t.seed();
  gc();
  const walk = async () => {
    let token: string | undefined;
    let count = 0;
    do {
      const page = await c.send(new ListObjectsV2Command({ Bucket: 'bench', Prefix: 'list/', ContinuationToken: token }));
      count += page.KeyCount ?? 0;
      token = page.NextContinuationToken;
    } while (token);
    if (count !== LIST_KEYS) throw new Error(`${t.label}: listed ${count} keys, expected ${LIST_KEYS}`);
  };
  await walk(); // warm
  const t0 = performance.now();
  await walk();
  const listWalkMs = performance.now() - t0;
  return { target: t.label, put: opsPerSec(n, putMs), get: opsPerSec(n, getMs), listWalkMs };
}

export async function benchS3(): Promise<void> {
  console.log(`\nS3 view through the AWS SDK: PutObject / GetObject 1 KiB, ListObjectsV2 walk over ${LIST_KEYS.toLocaleString('en')} keys`);
  const rows: Row[] = [];
  for (const make of [inProcess, overHttp, miniflare]) {
    const t = await make();
    try {
      rows.push(await measure(t));
    } finally {
      await t.close();
    }
    gc();
  }
  const mf = rows[rows.length - 1]!;
  console.table(
    rows.map((r) => ({
      target: r.target,
      'PutObject ops/s': Math.round(r.put),
      'GetObject ops/s': Math.round(r.get),
      'ListObjectsV2 walk ms': Math.round(r.listWalkMs),
      'put × Miniflare': (r.put / mf.put).toFixed(1),
      'get × Miniflare': (r.get / mf.get).toFixed(1),
      'list × Miniflare': (mf.listWalkMs / r.listWalkMs).toFixed(1),
    })),
  );
}
