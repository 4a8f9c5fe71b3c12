import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, it } from 'vitest';
import { StoreStorage } from '../../lib/bucket/store-storage.js';
import { SqliteStore } from '../../lib/node/store/sqlite-store.js';
import { doubleDifferences } from '../bucket/index.js';
import { registerDoubleTargets } from './double-targets.js';

// The double on StoreStorage over SQLite (lib/node/store): what `--persist` keeps a bucket in, a
// real database in a temporary directory, a fresh bucket name per test. node:sqlite is Node 22.13's
// and later: CI runs this target on Node 22, 24 and 26 (scripts/ci-runtimes.ts).
const hasSqlite = process.getBuiltinModule?.('node:sqlite') !== undefined;

if (hasSqlite) {
  const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-conformance-'));
  const store = SqliteStore.open(dir);
  let n = 0;
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  registerDoubleTargets(
    'double-sqlite',
    doubleDifferences,
    () => new StoreStorage({ store, name: `conformance-${++n}` }),
  );
} else {
  it.skip(`double-sqlite (skipped: node:sqlite needs Node 22.13 or later; this is ${process.version})`, () => {});
}
