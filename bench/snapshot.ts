/**
 * Issue 10: snapshot and restore take O(1) time whatever the state size, and the call log costs
 * under 20% of a small put.
 *
 * - A bucket of 100,000 objects and a DNS zone of 10,000 records: the median time of `snapshot()`
 *   and of `restore()`, next to the same on a state 100 times smaller (O(1): the two should match),
 *   and the cost of the first write after a snapshot against a steady write (copy-on-write copies
 *   the path it touches, not the state).
 * - A 1 KiB put with the call log off and on (the log cleared between runs).
 *
 * Targets (issue 10; the target column of docs/benchmarks.md): snapshot and restore medians ≤ 10 µs;
 * the log < 20% of a put.
 */
import { Bucket } from '../lib/bucket.js';
import { DnsApi } from '../lib/dns.js';
import { gc, KiB, median, timeSequential } from './stats.js';
import { fmtRate, printTable, type TargetResult } from './table.js';

const BIG_BUCKET = 100_000;
const BIG_ZONE = 10_000;
const VALUE = new Uint8Array(KiB).fill(0x61);

/** Median µs of `fn` over `runs` calls, each timed on its own. */
function medianUs(runs: number, fn: (i: number) => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn(i);
    times.push((performance.now() - t0) * 1000);
  }
  return median(times);
}

async function filledBucket(n: number): Promise<Bucket> {
  const bucket = new Bucket();
  for (let i = 0; i < n; i++) await bucket.put(`objects/${String(i).padStart(6, '0')}`, VALUE);
  return bucket;
}

function filledZone(n: number): DnsApi {
  const api = new DnsApi({ zones: [{ name: 'bench.example', plan: 'enterprise' }], credentials: [{ token: 'bench' }] });
  const records = Array.from({ length: n }, (_, i) => ({
    type: i % 2 ? 'TXT' : 'A',
    name: `host-${i >> 1}`,
    content: i % 2 ? `"v=${i}"` : `10.0.${(i >> 8) & 255}.${i & 255}`,
    ttl: 300,
  }));
  api.seed('bench.example', records);
  return api;
}

interface Row {
  state: string;
  snapshot: number;
  restore: number;
  firstWrite: number;
  steadyWrite: number;
}

async function bucketRow(n: number): Promise<Row> {
  const bucket = await filledBucket(n);
  const snaps: ReturnType<Bucket['snapshot']>[] = [];
  const snapshot = medianUs(2_000, () => snaps.push(bucket.snapshot()));
  const s = snaps[0]!;
  snaps.length = 0;
  const restore = medianUs(2_000, () => bucket.restore(s));
  // First write after a restore (copies one path of the tree) against a steady overwrite.
  const first: number[] = [];
  const steady: number[] = [];
  for (let i = 0; i < 500; i++) {
    bucket.restore(s);
    const key = `objects/${String((i * 7919) % n).padStart(6, '0')}`;
    let t0 = performance.now();
    await bucket.put(key, VALUE);
    first.push((performance.now() - t0) * 1000);
    t0 = performance.now();
    await bucket.put(key, VALUE);
    steady.push((performance.now() - t0) * 1000);
  }
  return {
    state: `bucket, ${n.toLocaleString('en')} objects`,
    snapshot,
    restore,
    firstWrite: median(first),
    steadyWrite: median(steady),
  };
}

async function zoneRow(n: number): Promise<Row> {
  const api = filledZone(n);
  const zoneId = api.zones[0]!.id;
  const url = `https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records`;
  const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' };
  // A listing first, so the sorted listing cache exists and the snapshot shares it.
  await (await api.fetch(`${url}?per_page=10`, { headers })).json();
  const snaps: ReturnType<DnsApi['snapshot']>[] = [];
  const snapshot = medianUs(2_000, () => snaps.push(api.snapshot()));
  const s = snaps[0]!;
  snaps.length = 0;
  const restore = medianUs(2_000, () => api.restore(s));
  const post = async (i: number) => {
    const t0 = performance.now();
    const r = await api.fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'A', name: `new-${i}`, content: '198.51.100.1' }),
    });
    if (r.status !== 200) throw new Error(`bench: ${r.status} ${await r.text()}`);
    await r.json();
    return (performance.now() - t0) * 1000;
  };
  const first: number[] = [];
  const steady: number[] = [];
  for (let i = 0; i < 300; i++) {
    api.restore(s);
    first.push(await post(2 * i));
    steady.push(await post(2 * i + 1));
  }
  return {
    state: `DNS zone, ${n.toLocaleString('en')} records`,
    snapshot,
    restore,
    firstWrite: median(first),
    steadyWrite: median(steady),
  };
}

/**
 * The call log's cost on a 1 KiB put, measured two ways: buckets made once and warmed up, their log
 * cleared before each run (as `reset()` or `restore()` clear it between tests), and a new pair of
 * buckets for every run (the log's columns then grow from nothing). `rounds` rounds of `n` puts
 * with the log off and on, the order alternating and a full collection before every run. Each round
 * gives a ratio of its two runs and the cost is the median ratio: a drift in the machine's speed
 * (frequent on a shared machine) moves both runs of a round alike, where medians of separate blocks
 * of runs moved by ±25% between runs of this bench.
 */
async function logCost(rounds: number, n: number, fresh: boolean): Promise<{ off: number; on: number; cost: number }> {
  const keys = Array.from({ length: n }, (_, i) => `k${i}`);
  const kept = { off: new Bucket(), on: new Bucket({ log: true }) };
  const run = async (log: boolean) => {
    const bucket = fresh ? new Bucket({ log }) : log ? kept.on : kept.off;
    bucket.log.clear();
    gc();
    return timeSequential(n, (i) => bucket.put(keys[i]!, VALUE));
  };
  for (let w = 0; w < 3; w++) {
    await run(false);
    await run(true);
  }
  const offMs: number[] = [];
  const onMs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const first = await run(r % 2 === 1);
    const second = await run(r % 2 === 0);
    const [offT, onT] = r % 2 === 0 ? [first, second] : [second, first];
    offMs.push(offT);
    onMs.push(onT);
    ratios.push(onT / offT);
  }
  return { off: (n * 1000) / median(offMs), on: (n * 1000) / median(onMs), cost: median(ratios) - 1 };
}

const us = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} µs`;

export async function benchSnapshot(results: TargetResult[]): Promise<void> {
  const rows = [
    await bucketRow(BIG_BUCKET / 100),
    await bucketRow(BIG_BUCKET),
    await zoneRow(BIG_ZONE / 100),
    await zoneRow(BIG_ZONE),
  ];
  printTable(
    'snapshot and restore (median of 2,000 each; first write after a restore vs a steady write, median of 300–500)',
    ['state', 'snapshot()', 'restore()', 'first write', 'steady write'],
    rows.map((r) => [r.state, us(r.snapshot), us(r.restore), us(r.firstWrite), us(r.steadyWrite)]),
  );
  for (const r of [rows[1]!, rows[3]!]) {
    for (const [what, v] of [
      ['snapshot()', r.snapshot],
      ['restore()', r.restore],
    ] as const) {
      results.push({ case: `${what} on a ${r.state}`, target: '≤ 10 µs median', measured: us(v), pass: v <= 10 });
    }
  }

  const ROUNDS = 31;
  const N = 10_000;
  const ways = [
    ['log cleared before each run', await logCost(ROUNDS, N, false)],
    ['a new bucket for each run', await logCost(ROUNDS, N, true)],
  ] as const;
  printTable(
    `put of 1 KiB objects with the call log off and on (${N.toLocaleString('en')} sequential puts a run; ${ROUNDS} rounds, order alternating; cost = median of the rounds' ratios)`,
    ['buckets', 'log off', 'log on', 'cost per put'],
    ways.map(([how, m]) => [how, fmtRate(m.off, 'ops/s'), fmtRate(m.on, 'ops/s'), `${(m.cost * 100).toFixed(1)}%`]),
  );
  for (const [how, m] of ways) {
    results.push({
      case: `call log on a 1 KiB put (${how})`,
      target: '< 20% per put',
      measured: `${(m.cost * 100).toFixed(1)}%`,
      pass: m.cost < 0.2,
    });
  }
}
