/**
 * The S3 view through the AWS SDK (issue 11): PutObject and GetObject of 1 KiB, and a full
 * ListObjectsV2 walk over 100,000 keys (100 pages of 1,000, reported per page), on
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
 *   services' own. Every target stays up until the end and they are replayed in turn, round after
 *   round (medians), so a change of load on a shared machine touches them all alike.
 *
 * The 100,000 keys are written through each target's binding (Miniflare's from inside its own
 * worker, in batches), not timed: only the listing is.
 *
 * The run ends with the targets ("Real clients, round three"), judged on this run's figures:
 * through the SDK, the in-process double within 10% of the SDK-alone ceiling (the two timed in
 * alternating rounds, medians, so a change of load touches both); through `api.fetch` with the same
 * signed requests, ≥ 40× Miniflare's endpoint for PutObject and GetObject, ≥ 20× for a page.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Miniflare } from 'miniflare';
import { Bucket } from '../lib/bucket.js';
import { startS3Server } from '../lib/node/index.js';
import { S3Api, type S3Fetch } from '../lib/s3.js';
import { r2Client } from '../spec/s3/client.js';
import { canned, recording, replay, wireFetch, type Exchange, type Fetch } from './recorded-fetch.js';
import { gc, KiB, median, opsPerSec, timeMs, timeSequential } from './stats.js';
import { fmtRatio, printSummary, type TargetResult } from './table.js';

const credentials = {
  accessKeyId: '0123456789abcdef0123456789abcdef',
  secretAccessKey: 'f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687',
};
const LIST_KEYS = 100_000;
const PAGE_KEYS = 1000;
const PAGES = LIST_KEYS / PAGE_KEYS;
/** Alternating rounds (medians compared): the in-process double and the SDK alone; the replays on every target. */
const ROUNDS = 3;
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
  return {
    label: 'double, in process',
    client: client(endpoint, api.fetch),
    endpoint,
    fetch: api.fetch,
    seed: () => seedBucket(bucket),
    n: 5000,
    close: async () => {},
  };
}

async function overHttp(): Promise<Target> {
  const bucket = new Bucket();
  const server = await startS3Server({ buckets: { bench: bucket }, credentials: [credentials] });
  return {
    label: 'double, over HTTP',
    client: client(server.endpoint),
    endpoint: server.endpoint,
    fetch: wireFetch,
    seed: () => seedBucket(bucket),
    n: 2000,
    close: () => server.close(),
  };
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
  /** ms for one 1,000-key ListObjectsV2 page (a walk over all keys, divided by its pages). */
  pageMs: number;
}

const putOne = (c: S3Client, i: number) =>
  c.send(new PutObjectCommand({ Bucket: 'bench', Key: `obj/${i}`, Body: BODY }));
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
  return { target: label, put: opsPerSec(n, putMs), get: opsPerSec(n, getMs), pageMs: listWalkMs / PAGES };
}

interface Measured {
  target: Target;
  sdk: Row;
  /** What the SDK sent and got, by command. */
  recorded: { puts: Exchange[]; gets: Exchange[]; list: Exchange[] };
}

/** Times the SDK through `t`, then records what it sends (signed for this target) for the replays. */
async function measure(t: Target): Promise<Measured> {
  const { client: c, n } = t;
  // Warm-up: the SDK's middleware stack and the target's paths.
  for (let i = 0; i < 50; i++) {
    await putOne(c, i);
    await getOne(c, i);
  }
  await t.seed();
  const sdk = await timeThrough(c, n, t.label);

  const rec = recording(t.fetch);
  const recorder = client(t.endpoint, rec.fetch);
  for (let i = 0; i < n; i++) await putOne(recorder, i);
  const puts = rec.exchanges.splice(0);
  for (let i = 0; i < n; i++) await getOne(recorder, i);
  const gets = rec.exchanges.splice(0);
  await walk(recorder, t.label);
  const list = rec.exchanges.splice(0);
  if (list.length !== PAGES) throw new Error(`${t.label}: the walk took ${list.length} pages, expected ${PAGES}`);
  await replay(list, t.fetch); // warm
  return { target: t, sdk, recorded: { puts, gets, list } };
}

/** One replay of each recorded command through `fetch` alone: the service's own rates. */
async function replayRound(m: Measured): Promise<Row> {
  const { puts, gets, list } = m.recorded;
  gc();
  const putMs = await timeMs(() => replay(puts, m.target.fetch));
  const getMs = await timeMs(() => replay(gets, m.target.fetch));
  gc();
  const listWalkMs = await timeMs(() => replay(list, m.target.fetch));
  return {
    target: m.target.label,
    put: opsPerSec(puts.length, putMs),
    get: opsPerSec(gets.length, getMs),
    pageMs: listWalkMs / PAGES,
  };
}

/**
 * The replays, every target in turn, round after round, medians kept: the machine's load moves over
 * a run, and the ratios are only fair if each target's rounds see the same stretch of it.
 */
async function serviceRounds(all: readonly Measured[]): Promise<Row[]> {
  const rounds = all.map((): Row[] => []);
  for (let r = 0; r < ROUNDS; r++) for (const [i, m] of all.entries()) rounds[i]!.push(await replayRound(m));
  return rounds.map((rows, i) => medianRow(`${all[i]!.target.label} (median of ${ROUNDS})`, rows));
}

function table(rows: readonly Row[], base: Row): void {
  console.table(
    rows.map((r) => ({
      target: r.target,
      'PutObject ops/s': Math.round(r.put),
      'GetObject ops/s': Math.round(r.get),
      'ListObjectsV2 page ms': r.pageMs.toFixed(2),
      'put × Miniflare': (r.put / base.put).toFixed(1),
      'get × Miniflare': (r.get / base.get).toFixed(1),
      'list × Miniflare': (base.pageMs / r.pageMs).toFixed(1),
    })),
  );
}

/** The medians of several rows (each figure on its own). */
const medianRow = (target: string, rows: readonly Row[]): Row => ({
  target,
  put: median(rows.map((r) => r.put)),
  get: median(rows.map((r) => r.get)),
  pageMs: median(rows.map((r) => r.pageMs)),
});

/**
 * The in-process double through the SDK and the SDK alone (answering from the double's recorded
 * answers), timed in alternating rounds: the ceiling comparison is only fair if both see the same load.
 */
async function ceilingRounds(m: Measured): Promise<{ double: Row; alone: Row }> {
  const t = m.target;
  const answers = canned([...m.recorded.puts, ...m.recorded.gets, ...m.recorded.list]);
  const alone = client(t.endpoint, answers);
  const doubles: Row[] = [];
  const alones: Row[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    doubles.push(await timeThrough(t.client, t.n, t.label));
    alones.push(await timeThrough(alone, t.n, 'AWS SDK alone (recorded answers)'));
  }
  return {
    double: medianRow(`${t.label} (median of ${ROUNDS})`, doubles),
    alone: medianRow(`AWS SDK alone (recorded answers, median of ${ROUNDS})`, alones),
  };
}

function judgeTargets(ceiling: { double: Row; alone: Row }, service: Row, mf: Row): TargetResult[] {
  const results: TargetResult[] = [];
  const add = (target: string, ratio: number, min: number, measured = fmtRatio(ratio)) =>
    results.push({ case: 's3', target, measured, pass: ratio >= min });
  // "Within 10% of the ceiling": at least 0.9 of the SDK-alone rate (for a page: of its speed).
  const within = (x: number) => `${x.toFixed(3)} of its rate`;
  const put = ceiling.double.put / ceiling.alone.put;
  const get = ceiling.double.get / ceiling.alone.get;
  const page = ceiling.alone.pageMs / ceiling.double.pageMs;
  add('SDK PutObject within 10% of SDK alone', put, 0.9, within(put));
  add('SDK GetObject within 10% of SDK alone', get, 0.9, within(get));
  add('SDK 1,000-key page within 10% of SDK alone', page, 0.9, within(page));
  add('api.fetch PutObject ≥ 40× Miniflare', service.put / mf.put, 40);
  add('api.fetch GetObject ≥ 40× Miniflare', service.get / mf.get, 40);
  add('api.fetch 1,000-key page ≥ 20× Miniflare', mf.pageMs / service.pageMs, 20);
  return results;
}

export async function benchS3(): Promise<void> {
  console.log(
    `\nS3 view through the AWS SDK: PutObject / GetObject 1 KiB, ListObjectsV2 walk over ${LIST_KEYS.toLocaleString('en')} keys in ${PAGES} pages`,
  );
  const measured: Measured[] = [];
  try {
    for (const make of [inProcess, overHttp, miniflare]) {
      const t = await make();
      try {
        measured.push(await measure(t));
      } catch (e) {
        await t.close();
        throw e;
      }
      gc();
    }
    const ceiling = await ceilingRounds(measured[0]!);
    const services = await serviceRounds(measured);
    const mf = measured[measured.length - 1]!.sdk;
    table([...measured.map((r) => r.sdk), ceiling.double, ceiling.alone], mf);
    console.log(
      "\nThe same signed requests, without the SDK (fetch alone: api.fetch in process, Node's fetch over HTTP)",
    );
    const mfService = services[services.length - 1]!;
    table(services, mfService);
    printSummary(judgeTargets(ceiling, services[0]!, mfService));
  } finally {
    for (const m of measured) await m.target.close();
  }
}
