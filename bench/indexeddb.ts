/**
 * `npm run bench -- indexeddb`: the small-ops cases (put / get / head of 1 KiB, sequential awaits)
 * on IndexedDbStorage beside the default memory storage. No target: the figures say what
 * persistence costs. IndexedDbStorage runs on fake-indexeddb (an in-memory IndexedDB written in JS,
 * so these are not a browser's figures) and on LmdbIndexedDb (lib/node/persist: what `--persist`
 * keeps buckets in), an LMDB environment in a temporary directory, opened twice: with lmdb's
 * default (every commit synced to disk before the operation resolves) and with `noSync` (the commit
 * left to the OS: a killed process loses nothing, a machine that goes down may lose the last
 * commits). Each operation is one IndexedDB transaction, and on LMDB a put is one LMDB commit.
 *
 * The runs of the storages alternate, as in small-ops.ts, so a burst of load elsewhere on the
 * machine hits them alike. The persistent storages do fewer operations (thousands a second, not
 * hundreds of thousands).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { open, type RootDatabase } from 'lmdb';
import { Bucket, IndexedDbStorage } from '../lib/bucket/index.js';
import { LmdbIndexedDb } from '../lib/node/persist/lmdb-indexeddb.js';
import { KiB, median, opsPerSec, timeSequential } from './stats.js';
import { fmtMs, fmtRate, fmtRatio, printTable, type TargetResult } from './table.js';

const OPS = ['put', 'get', 'head'] as const;
type Op = (typeof OPS)[number];
type StorageId = 'memory' | 'indexeddb' | 'lmdb' | 'lmdb-nosync';

const PLAN: Record<StorageId, { n: number; warmup: number; runs: number }> = {
  memory: { n: 10_000, warmup: 10_000, runs: 9 },
  indexeddb: { n: 1_000, warmup: 500, runs: 5 },
  lmdb: { n: 1_000, warmup: 500, runs: 5 },
  'lmdb-nosync': { n: 1_000, warmup: 500, runs: 5 },
};
const LABELS: Record<StorageId, string> = {
  memory: 'MemoryStorage (default)',
  indexeddb: 'IndexedDbStorage (fake-indexeddb)',
  lmdb: 'IndexedDbStorage (LMDB, synced commits)',
  'lmdb-nosync': 'IndexedDbStorage (LMDB, noSync)',
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

/** An LMDB environment in a temporary directory (on the machine's disk, so a synced commit is a real fsync). */
function tempLmdb(noSync: boolean): { root: RootDatabase; remove(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-bench-lmdb-'));
  const root = open({ path: dir, maxDbs: 4, noSync });
  return { root, remove: async () => (await root.close(), rmSync(dir, { recursive: true, force: true })) };
}

export async function benchIndexedDb(_results: TargetResult[]): Promise<void> {
  const synced = tempLmdb(false);
  const unsynced = tempLmdb(true);
  try {
    await compare(synced.root, unsynced.root);
  } finally {
    await synced.remove();
    await unsynced.remove();
  }
}

async function compare(synced: RootDatabase, unsynced: RootDatabase): Promise<void> {
  const buckets: Record<StorageId, Bucket> = {
    memory: new Bucket(),
    indexeddb: new Bucket({ storage: new IndexedDbStorage({ name: 'bench', indexedDB: new IDBFactory() }) }),
    lmdb: new Bucket({ storage: new IndexedDbStorage({ name: 'bench', indexedDB: new LmdbIndexedDb(synced) }) }),
    'lmdb-nosync': new Bucket({
      storage: new IndexedDbStorage({ name: 'bench', indexedDB: new LmdbIndexedDb(unsynced) }),
    }),
  };
  const ids: StorageId[] = ['memory', 'indexeddb', 'lmdb', 'lmdb-nosync'];
  const keys = (id: StorageId) => Array.from({ length: PLAN[id].n }, (_, i) => `small/${String(i).padStart(6, '0')}`);
  const timings: Record<StorageId, Record<Op, number>[]> = { memory: [], indexeddb: [], lmdb: [], 'lmdb-nosync': [] };
  for (const id of ids) await runOnce(buckets[id], keys(id), PLAN[id].warmup);
  const rounds = Math.max(...ids.map((id) => PLAN[id].runs));
  for (let r = 0; r < rounds; r++) {
    for (const id of ids) if (r < PLAN[id].runs) timings[id].push(await runOnce(buckets[id], keys(id), PLAN[id].n));
  }
  for (const op of OPS) {
    const m = Object.fromEntries(
      ids.map((id) => {
        const ms = median(timings[id].map((t) => t[op]));
        return [id, { ms, ops: opsPerSec(PLAN[id].n, ms) }];
      }),
    ) as Record<StorageId, { ms: number; ops: number }>;
    const rows = ids.map((id) => [
      LABELS[id],
      String(PLAN[id].n),
      fmtMs(m[id].ms),
      fmtRate(m[id].ops, 'ops/s'),
      id === 'memory' ? '' : fmtRatio(m.memory.ops / m[id].ops),
    ]);
    printTable(
      `${op} of 1 KiB objects by storage (sequential awaits, median of runs)`,
      ['storage', 'n', 'time', 'rate', 'memory/this'],
      rows,
      [
        `memory does ${PLAN.memory.n} per run, the others ${PLAN.indexeddb.n}; median of ${PLAN.memory.runs}/${PLAN.indexeddb.runs} runs after a warm-up, alternating.`,
      ],
    );
  }
}
