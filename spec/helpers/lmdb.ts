import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase, type RootDatabaseOptions } from 'lmdb';
import { LmdbIndexedDb } from '../../lib/node/persist/lmdb-indexeddb.js';

/**
 * An LMDB environment in a fresh temporary directory, as the persistence engine opens one (the
 * engine owns opening; LmdbIndexedDb takes the root database), with a way to close and open it
 * again (a restart) and to remove it.
 */
export class TempLmdb {
  readonly dir = mkdtempSync(join(tmpdir(), 'edge-doubles-lmdb-'));
  root: RootDatabase;

  constructor(readonly options: RootDatabaseOptions = {}) {
    this.root = this.#open();
  }

  #open(): RootDatabase {
    return open({ path: this.dir, maxDbs: 4, ...this.options });
  }

  /** An IndexedDB over the environment as it is open now. */
  indexedDB(): LmdbIndexedDb {
    return new LmdbIndexedDb(this.root);
  }

  /** Closes the environment and opens it again, as a restarted server does. */
  async reopen(): Promise<void> {
    await this.root.close();
    this.root = this.#open();
  }

  async remove(): Promise<void> {
    await this.root.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
