/**
 * The S3 view through the AWS SDK (issue 11): PutObject and GetObject of 1 KiB, and a full
 * ListObjectsV2 walk over 100,000 keys (100 pages of 1,000), on
 * - the double in process (`S3Api.fetch` as the SDK's fetch),
 * - the double over HTTP (`startS3Server`, the SDK's default Node handler),
 * - Miniflare 4's local S3 endpoint for R2 (workerd; the SDK's default Node handler),
 * all in this same run, with the ratios to Miniflare. `npm run bench -- s3` runs only this case.
 *
 * Two more views take the SDK and the service apart (bench/recorded-fetch.ts):
 * - "AWS SDK alone": the same commands answered at once from recorded answers, so the row is what
 *   the SDK costs by itself; no target can be faster through the SDK than that row.
 * - "the same signed requests, without the SDK": each target's recorded requests sent again with
 *   `fetch` (the double's `api.fetch` in process; Node's fetch over HTTP), so the ratios are the
 *   services' own.
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
import { canned, recording, replay, wireFetch, type Exchange, type Fetch } from './recorded-fetch.js';
import { gc, KiB, opsPerSec, timeMs, timeSequential } from './stats.js';

const credentials = { accessKeyId: '0123456789abcdef0123456789abcdef', secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687' };
const LIST_KEYS = 100_000;
const BODY = new Uint8Array(KiB).fill(97);

interface Target {
  label: string;
  client: S3Client;
  endpoint: string;
  /** What sends a request to the target without the SDK. */
  fetch: Fetch;
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
  const endpoint = 'https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com';
  return { label: 'double, in process', client: client(endpoint, api.fetch), endpoint, fetch: api.fetch, seed: () => seedBucket(bucket), n: 5000, close: async () => {} };
}

async function overHttp(): Promise<Target> {
  const bucket = new Bucket();
  const server = await startS3Server({ buckets: { bench: bucket }, credentials: [credentials] });
  return { label: 'double, over HTTP', client: client(server.endpoint), endpoint: server.endpoint, fetch: wireFetch, seed: () => seedBucket(bucket), n: 2000, close: () => server.close() };
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
  const endpoint = `${origin}/cdn-cgi/local/r2/s3`;
  return {
    label: 'Miniflare 4 local S3',
    client: client(endpoint),
    endpoint,
    fetch: wireFetch,
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

const putOne = (c: S3Client, i: number) => c.send(new PutObjectCommand({ Bucket: 'bench', Key: `obj/${i}`, Body: BODY }));
const getOne = async (c: S3Client, i: number) => {
  const r = await c.send(new GetObjectCommand({ Bucket: 'bench', Key: `obj/${i}` }));
  await r.Body!.transformToByteArray();
};
/** One ListObjectsV2 walk over every seeded key, page by page. */
async function walk(c: S3Client, label: string): Promise<void> {
  let token: string | undefined;
  let count = 0;
  do {
    const page = await c.send(new ListObjectsV2Command({ Bucket: 'bench', Prefix: 'list/', ContinuationToken: token }));
    count += page.KeyCount ?? 0;
    token = page.NextContinuationToken;
  } while (token);
  if (count !== LIST_KEYS) throw new Error(`${label}: listed ${count} keys, expected ${LIST_KEYS}`);
}

/** Times n puts, n gets and one walk through `c` (the keys must be seeded already). */
async function timeThrough(c: S3Client, n: number, label: string): Promise<Row> {
  gc();
  const putMs = await timeSequential(n, (i) => putOne(c, i));
  const getMs = await timeSequential(n, (i) => getOne(c, i));
  await walk(c, label); // warm
  gc();
  const listWalkMs = await timeMs(() => walk(c, label));
  return { target: label, put: opsPerSec(n, putMs), get: opsPerSec(n, getMs), listWalkMs };
}

interface Measured {
  sdk: Row;
  /** The same requests sent again without the SDK. */
  service: Row;
  /** What the SDK sent and got, by command. */
  recorded: { puts: Exchange[]; gets: Exchange[]; list: Exchange[] };
}

async function measure(t: Target): Promise<Measured> {
  const { client: c, n } = t;
  // Warm-up: the SDK's middleware stack and the target's paths.
  for (let i = 0; i < 50; i++) {
    await putOne(c, i);
    await getOne(c, i);
  }
  await t.seed();
  const sdk = await timeThrough(c, n, t.label);

  // Record what the SDK sends (signed for this target), then send it again with fetch alone.
  const rec = recording(t.fetch);
  const recorder = client(t.endpoint, rec.fetch);
  for (let i = 0; i < n; i++) await putOne(recorder, i);
  const puts = rec.exchanges.splice(0);
  for (let i = 0; i < n; i++) await getOne(recorder, i);
  const gets = rec.exchanges.splice(0);
  await walk(recorder, t.label);
  const list = rec.exchanges.splice(0);
  await replay(list, t.fetch); // warm
  gc();
  const putMs = await timeMs(() => replay(puts, t.fetch));
  const getMs = await timeMs(() => replay(gets, t.fetch));
  gc();
  const listWalkMs = await timeMs(() => replay(list, t.fetch));
  return { sdk, service: { target: t.label, put: opsPerSec(n, putMs), get: opsPerSec(n, getMs), listWalkMs }, recorded: { puts, gets, list } };
}

function table(rows: readonly Row[], base: Row): void {
  console.table(
    rows.map((r) => ({
      target: r.target,
      'PutObject ops/s': Math.round(r.put),
      'GetObject ops/s': Math.round(r.get),
      'ListObjectsV2 walk ms': Math.round(r.listWalkMs),
      'put × Miniflare': (r.put / base.put).toFixed(1),
      'get × Miniflare': (r.get / base.get).toFixed(1),
      'list × Miniflare': (base.listWalkMs / r.listWalkMs).toFixed(1),
    })),
  );
}

export async function benchS3(): Promise<void> {
  console.log(`\nS3 view through the AWS SDK: PutObject / GetObject 1 KiB, ListObjectsV2 walk over ${LIST_KEYS.toLocaleString('en')} keys`);
  const results: Measured[] = [];
  for (const make of [inProcess, overHttp, miniflare]) {
    const t = await make();
    try {
      results.push(await measure(t));
    } finally {
      await t.close();
    }
    gc();
  }
  // The SDK alone: the in-process target's recorded answers, given back at once.
  const first = results[0]!;
  const answers = canned([...first.recorded.puts, ...first.recorded.gets, ...first.recorded.list]);
  const alone = await timeThrough(client('https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com', answers), 5000, 'AWS SDK alone (recorded answers)');
  const mf = results[results.length - 1]!;
  table([...results.map((r) => r.sdk), alone], mf.sdk);
  console.log('\nThe same signed requests, without the SDK (fetch alone: api.fetch in process, Node\'s fetch over HTTP)');
  table(results.map((r) => r.service), mf.service);
}
