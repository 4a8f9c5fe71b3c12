/**
 * Image stores for the persistence tests: one over a Map (values cloned on the way in and out, as a
 * store that serialises them would give them back) and one over LMDB in a temporary directory,
 * writing inside `transactionSync` as the engine does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
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

function lmdbStore(): TestStore {
  const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-image-'));
  const db: RootDatabase = open({ path: dir });
  return {
    get: (k) => db.get(k),
    put: (k, v) => void db.putSync(k, v),
    remove: (k) => void db.removeSync(k),
    keys: (prefix) => [...db.getKeys({ start: prefix, end: `${prefix}\uffff` })] as string[],
    commit: (fn) => db.transactionSync(fn),
    all: () => [...db.getKeys()] as string[],
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const STORES: [string, () => TestStore][] = [
  ['a Map', mapStore],
  ['LMDB', lmdbStore],
];
