/**
 * `npm run bench -- indexeddb`: the small-ops cases (put / get / head of 1 KiB, sequential awaits)
 * on the persistent storages beside the default memory storage. No target: the figures say what
 * persistence costs. IndexedDbStorage runs on fake-indexeddb (an in-memory IndexedDB written in JS,
 * so these are not a browser's figures); StoreStorage (what `--persist` keeps buckets in) on the
 * SQLite Store in a temporary directory, opened twice: `synchronous=NORMAL` (the default: a killed
 * process loses nothing, a machine that goes down may lose the last commits) and `FULL` (every commit
 * waits for the disk: `--persist-sync`). SQLite needs node:sqlite (Node 22.13 and later): on an older
 * Node those rows say so. On StoreStorage a put is one SQLite commit.
 *
 * The runs of the storages alternate, as in small-ops.ts, so a burst of load elsewhere on the
 * machine hits them alike. The persistent storages do fewer operations (thousands a second, not
 * hundreds of thousands).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { Bucket, IndexedDbStorage } from '../lib/bucket.js';
import { StoreStorage } from '../lib/bucket/store-storage.js';
import { SqliteStore } from '../lib/node/store/sqlite-store.js';
import { KiB, median, opsPerSec, timeSequential } from './stats.js';
import { fmtMs, fmtRate, fmtRatio, printTable, type TargetResult } from './table.js';

const OPS = ['put', 'get', 'head'] as const;
type Op = (typeof OPS)[number];
type StorageId = 'memory' | 'indexeddb' | 'sqlite' | 'sqlite-full';

const PLAN: Record<StorageId, { n: number; warmup: number; runs: number }> = {
  memory: { n: 10_000, warmup: 10_000, runs: 9 },
  indexeddb: { n: 1_000, warmup: 500, runs: 5 },
  sqlite: { n: 1_000, warmup: 500, runs: 5 },
  'sqlite-full': { n: 1_000, warmup: 500, runs: 5 },
};
const LABELS: Record<StorageId, string> = {
  memory: 'MemoryStorage (default)',
  indexeddb: 'IndexedDbStorage (fake-indexeddb)',
  sqlite: 'StoreStorage (SQLite, --persist)',
  'sqlite-full': 'StoreStorage (SQLite, --persist-sync)',
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

/** A SQLite Store in a temporary directory (on the machine's disk, so a FULL commit is a real fsync). */
function tempStore(sync: 'normal' | 'full'): { store: SqliteStore; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-bench-store-'));
  const store = SqliteStore.open(dir, { sync });
  return { store, remove: () => (store.close(), rmSync(dir, { recursive: true, force: true })) };
}

const hasSqlite = process.getBuiltinModule?.('node:sqlite') !== undefined;

export async function benchIndexedDb(_results: TargetResult[]): Promise<void> {
  if (!hasSqlite) console.log(`(the SQLite rows need node:sqlite, Node 22.13 or later; this is ${process.version})`);
  const normal = hasSqlite ? tempStore('normal') : undefined;
  const full = hasSqlite ? tempStore('full') : undefined;
  try {
    await compare(normal?.store, full?.store);
  } finally {
    normal?.remove();
    full?.remove();
  }
}

async function compare(normal: SqliteStore | undefined, full: SqliteStore | undefined): Promise<void> {
  const buckets: Partial<Record<StorageId, Bucket>> = {
    memory: new Bucket(),
    indexeddb: new Bucket({ storage: new IndexedDbStorage({ name: 'bench', indexedDB: new IDBFactory() }) }),
    ...(normal && { sqlite: new Bucket({ storage: new StoreStorage({ store: normal, name: 'bench' }) }) }),
    ...(full && { 'sqlite-full': new Bucket({ storage: new StoreStorage({ store: full, name: 'bench' }) }) }),
  };
  const ids = (['memory', 'indexeddb', 'sqlite', 'sqlite-full'] as const).filter((id) => buckets[id]);
  const keys = (id: StorageId) => Array.from({ length: PLAN[id].n }, (_, i) => `small/${String(i).padStart(6, '0')}`);
  const timings: Record<StorageId, Record<Op, number>[]> = { memory: [], indexeddb: [], sqlite: [], 'sqlite-full': [] };
  for (const id of ids) await runOnce(buckets[id]!, keys(id), PLAN[id].warmup);
  const rounds = Math.max(...ids.map((id) => PLAN[id].runs));
  for (let r = 0; r < rounds; r++) {
    for (const id of ids) if (r < PLAN[id].runs) timings[id].push(await runOnce(buckets[id]!, keys(id), PLAN[id].n));
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
