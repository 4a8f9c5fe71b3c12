/**
 * Image stores for the persistence tests: one over a Map (values cloned on the way in and out, as a
 * store that serialises them would give them back) and one over the SQLite Store in a temporary
 * directory, a commit's writes stored as one Store commit as the engine does (where this Node has
 * node:sqlite: 22.13 and later).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../../lib/node/store/sqlite-store.js';
import type { StoreWrite } from '../../../lib/support/store.js';
import type { ImageStore } from '../../../lib/node/persist/account-image.js';

export interface TestStore extends ImageStore {
  /** Runs `fn` as one write transaction. */
  commit<T>(fn: () => T): T;
  /** Every key. */
  all(): string[];
  close(): Promise<void>;
}

function mapStore(): TestStore {
  const m = new Map<string, unknown>();
  return {
    get: (k) => (m.has(k) ? structuredClone(m.get(k)) : undefined),
    put: (k, v) => void m.set(k, structuredClone(v)),
    remove: (k) => void m.delete(k),
    keys: (prefix) => [...m.keys()].filter((k) => k.startsWith(prefix)).sort(),
    commit: (fn) => fn(),
    all: () => [...m.keys()].sort(),
    close: async () => {},
  };
}

function sqliteStore(): TestStore {
  const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-image-'));
  const store = SqliteStore.open(dir);
  let pending: Map<string, { value: unknown } | undefined> | undefined;
  const write = (k: string, w: { value: unknown } | undefined) => {
    if (!pending) throw new Error('a write outside commit()');
    pending.set(k, w);
  };
  return {
    get: (k) => (pending?.has(k) ? structuredClone(pending.get(k)?.value) : store.get('image', k)),
    put: (k, v) => write(k, { value: structuredClone(v) }),
    remove: (k) => write(k, undefined),
    keys: (prefix) => {
      const keys = new Set(store.keys('image', prefix));
      for (const [k, w] of pending ?? []) if (k.startsWith(prefix)) w ? keys.add(k) : keys.delete(k);
      return [...keys].sort();
    },
    commit: (fn) => {
      pending = new Map();
      try {
        const r = fn();
        const writes: StoreWrite[] = [...pending].map(([key, w]) =>
          w ? { space: 'image', key, value: w.value } : { space: 'image', key, delete: true },
        );
        store.commit(writes);
        return r;
      } finally {
        pending = undefined;
      }
    },
    all: () => store.keys('image'),
    close: async () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const hasSqlite = process.getBuiltinModule?.('node:sqlite') !== undefined;

export const STORES: [string, () => TestStore][] = [
  ['a Map', mapStore],
  ...(hasSqlite ? [['SQLite', sqliteStore] as [string, () => TestStore]] : []),
];
