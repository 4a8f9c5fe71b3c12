/**
 * `npm run bench -- indexeddb`: the small-ops cases (put / get / head of 1 KiB, sequential awaits)
 * on IndexedDbStorage beside the default memory storage. No target: the figures say what
 * persistence costs. In Node the database is fake-indexeddb (an in-memory IndexedDB written in JS),
 * so these are not a browser's figures; each operation is one IndexedDB transaction there.
 *
 * The memory and IndexedDB runs alternate, as in small-ops.ts, so a burst of load elsewhere on the
 * machine hits both alike. IndexedDB does fewer operations (it manages thousands a second, not
 * hundreds of thousands).
 */
import { IDBFactory } from 'fake-indexeddb';
import { Bucket, IndexedDbStorage } from '../lib/bucket/index.js';
import { KiB, median, opsPerSec, timeSequential } from './stats.js';
import { fmtMs, fmtRate, fmtRatio, printTable, type TargetResult } from './table.js';

const OPS = ['put', 'get', 'head'] as const;
type Op = (typeof OPS)[number];
type StorageId = 'memory' | 'indexeddb';

const PLAN: Record<StorageId, { n: number; warmup: number; runs: number }> = {
  memory: { n: 10_000, warmup: 10_000, runs: 9 },
  indexeddb: { n: 1_000, warmup: 500, runs: 5 },
};
const LABELS: Record<StorageId, string> = {
  memory: 'MemoryStorage (default)',
  indexeddb: 'IndexedDbStorage (fake-indexeddb)',
};

const VALUE = new Uint8Array(KiB).fill(0x61);

async function runOnce(bucket: Bucket, keys: readonly string[], n: number): Promise<Record<Op, number>> {
  const put = await timeSequential(n, (i) => bucket.put(keys[i]!, VALUE));
  const get = await timeSequential(n, async (i) => {
    const o = await bucket.get(keys[i]!);
    if (!o || (await o.arrayBuffer()).byteLength !== KiB) throw new Error(`get ${keys[i]} returned the wrong body`);
  });
  const head = await timeSequential(n, (i) => bucket.head(keys[i]!));
  return { put, get, head };
}

export async function benchIndexedDb(_results: TargetResult[]): Promise<void> {
  const buckets: Record<StorageId, Bucket> = {
    memory: new Bucket(),
    indexeddb: new Bucket({ storage: new IndexedDbStorage({ name: 'bench', indexedDB: new IDBFactory() }) }),
  };
  const ids: StorageId[] = ['memory', 'indexeddb'];
  const keys = (id: StorageId) => Array.from({ length: PLAN[id].n }, (_, i) => `small/${String(i).padStart(6, '0')}`);
  const timings: Record<StorageId, Record<Op, number>[]> = { memory: [], indexeddb: [] };
  for (const id of ids) await runOnce(buckets[id], keys(id), PLAN[id].warmup);
  const rounds = Math.max(...ids.map((id) => PLAN[id].runs));
  for (let r = 0; r < rounds; r++) {
    for (const id of ids) if (r < PLAN[id].runs) timings[id].push(await runOnce(buckets[id], keys(id), PLAN[id].n));
  }
  for (const op of OPS) {
    const m = Object.fromEntries(ids.map((id) => {
      const ms = median(timings[id].map((t) => t[op]));
      return [id, { ms, ops: opsPerSec(PLAN[id].n, ms) }];
    })) as Record<StorageId, { ms: number; ops: number }>;
    const rows = ids.map((id) => [
      LABELS[id],
      String(PLAN[id].n),
      fmtMs(m[id].ms),
      fmtRate(m[id].ops, 'ops/s'),
      id === 'memory' ? '' : fmtRatio(m.memory.ops / m[id].ops),
    ]);
    printTable(`${op} of 1 KiB objects by storage (sequential awaits, median of runs)`, ['storage', 'n', 'time', 'rate', 'memory/this'], rows, [
      `memory does ${PLAN.memory.n} per run, IndexedDB ${PLAN.indexeddb.n}; median of ${PLAN.memory.runs}/${PLAN.indexeddb.runs} runs after a warm-up, alternating.`,
    ]);
  }
}
