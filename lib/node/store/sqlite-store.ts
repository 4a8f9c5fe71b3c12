/**
 * The Store of `--persist DIR` (lib/support/store.ts): one SQLite database, DIR/edge-doubles.sqlite,
 * through Node's built-in `node:sqlite` (Node 22.13 and later; nothing to install or download).
 *
 * Why SQLite: it answers the failures a database's users expect to see answered (ARCHITECTURE.md,
 * "State and the Store"). A full disk is SQLITE_FULL, an error the request gets while the server
 * stays up, the batch rolled back and everything before it intact; a file that is not a database,
 * or a damaged one, is SQLITE_NOTADB or SQLITE_CORRUPT, an error, never a crash; and the one-server
 * rule is the operating system's lock on the file (`locking_mode=EXCLUSIVE`), which the kernel
 * drops when its process dies, however it dies, so no pid file, no stale lock and no race.
 * Durability: WAL with `synchronous=NORMAL` (the default) keeps every commit across a killed
 * server; `sync: 'full'` also waits for the disk at each commit, for power loss.
 *
 * One row a record: `value` is JSON text when the value is plain JSON data (JSON.parse reads it back
 * several times faster than node:v8's deserialize, which a start pays for every record), else V8's
 * serialization (node:v8: structured clone as IndexedDB keeps it: Dates, Maps, bytes); a value that
 * is bytes alone is kept as they are, in `bytes`, with `value` NULL; a record's own bytes
 * (`StoreWrite.bytes`) are in `bytes` beside its value, so a scan of values never reads them. Each
 * of `value` and `bytes` has its CRC-32, checked when it is read.
 *
 * Speed: a record is replaced in place (an upsert keeps its row), so a small put writes one page;
 * the write-ahead log is checkpointed when the server is idle (`compact()`), or past
 * CHECKPOINT_PAGES, not every thousand pages in the middle of requests: a checkpoint is where
 * `synchronous=NORMAL` waits for the disk.
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import type { DatabaseSync, SqliteModule, StatementSync } from './sqlite-types.js';
import { jsonExact } from './json-exact.js';
import {
  StoreDamagedError,
  StoreError,
  StoreFullError,
  type Store,
  type StoreEntry,
  type StoreWrite,
} from '../../support/store.js';

/** The database's file name in DIR. */
const DATABASE_FILE = 'edge-doubles.sqlite';
/** What SQLite may keep beside it (the write-ahead log; a rollback journal on the way to WAL). */
const COMPANIONS = [`${DATABASE_FILE}-wal`, `${DATABASE_FILE}-journal`, `${DATABASE_FILE}-shm`];
/** `PRAGMA application_id`: marks the file as this project's ("EDGD"). */
const APPLICATION_ID = 0x45444744;
/** `PRAGMA user_version`: the layout of the records; a file of another layout is refused. */
const FORMAT = 4;
/**
 * The write-ahead log's length (pages) past which a commit checkpoints it (SQLite's
 * `wal_autocheckpoint`, 1,000 by default): otherwise that happens when the server is idle. 8,192
 * pages of 4 KiB: 32 MiB, several thousand small puts.
 */
const CHECKPOINT_PAGES = 8192;

export interface SqliteStoreOptions {
  /** `normal` (default): every commit survives the process being killed; `full`: also a power loss. */
  sync?: 'normal' | 'full';
  /** Told of each full disk and each damaged record met, beside the error thrown to the caller. */
  report?: (error: StoreError) => void;
}

/** SQLite's primary result codes the Store tells apart (the low byte of an extended code). */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_NOTADB = 26;

interface SqliteError extends Error {
  errcode?: number;
}

const primary = (e: unknown): number | undefined => {
  const code = (e as SqliteError)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
};

/**
 * The least string after every string that starts with `prefix`, so a prefix is a range the index
 * answers (`key >= prefix AND key < after(prefix)`): its last character, plus one. SQLite compares
 * UTF-8 bytes, which order as code points do. The prefixes the backends use are ASCII; one that ends
 * in U+10FFFF has no such string, and an error says so rather than a wrong range.
 */
function after(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  if (last >= 0x10ffff) throw new StoreError(`a key prefix may not end in U+10FFFF: ${JSON.stringify(prefix)}`);
  // Skip the surrogate range, which no well-formed string holds.
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return chars.join('') + String.fromCodePoint(next);
}

/** `node:sqlite`, or a message saying which Node has it. */
function sqliteModule(): SqliteModule {
  const found = process.getBuiltinModule?.('node:sqlite') as SqliteModule | undefined;
  if (!found) {
    throw new StoreError(
      `--persist keeps state in SQLite through node:sqlite, which Node ${process.versions.node} lacks: run the server on Node 22.13 or later`,
    );
  }
  return found;
}

/** Refuses DIR unless it is a directory that is empty or holds only this project's database. */
function checkDirectory(dir: string): void {
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    mkdirSync(dir, { recursive: true });
    return;
  }
  if (!stat.isDirectory()) throw new StoreError(`--persist ${dir}: not a directory`);
  const foreign = readdirSync(dir).filter((name) => name !== DATABASE_FILE && !COMPANIONS.includes(name));
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? ', ...' : '');
    throw new StoreError(
      `--persist ${dir}: holds files that are not edge-doubles' (${shown}); give an empty directory, or one an edge-doubles server made`,
    );
  }
}

/** A row as read (see the header): `value` JSON text or V8's serialization, or null with the value in `raw`. */
interface Row {
  value: string | Uint8Array | null;
  crc: number;
  raw: Uint8Array | null;
  rawCrc: number | null;
}

export class SqliteStore implements Store {
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #report: (error: StoreError) => void;
  readonly #get: StatementSync;
  readonly #bytes: StatementSync;
  readonly #scanAll: StatementSync;
  readonly #scanPrefix: StatementSync;
  readonly #keysAll: StatementSync;
  readonly #keysPrefix: StatementSync;
  readonly #spaces: StatementSync;
  readonly #put: StatementSync;
  readonly #delete: StatementSync;
  readonly #deletePrefix: StatementSync;
  readonly #deleteSpace: StatementSync;
  readonly #freePages: StatementSync;
  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  /** Whether anything was committed since the last `compact()`. */
  #dirty = false;
  #commits = 0;

  /** Opens (or makes) DIR's database and takes it for this process; throws a `StoreError` saying why not. */
  static open(dir: string, options: SqliteStoreOptions = {}): SqliteStore {
    const { DatabaseSync } = sqliteModule();
    checkDirectory(dir);
    const path = join(dir, DATABASE_FILE);
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(path, { timeout: 0 });
    } catch (e) {
      throw new StoreError(`--persist ${dir}: cannot open ${path}: ${(e as Error).message}`, { cause: e });
    }
    try {
      return new SqliteStore(db, path, options);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  private constructor(db: DatabaseSync, path: string, options: SqliteStoreOptions) {
    this.#db = db;
    this.path = path;
    this.#report = options.report ?? (() => {});
    try {
      // First, before anything reads the file: a read in the default mode would open the write-ahead
      // log through a shared-memory file (-shm), which a full disk cannot make (a start would fail).
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      // Pages freed by deletes go back to the file system when compacted (compact()), not only to the
      // file's free list. Set before the first transaction, which writes a new file's header; a no-op
      // on a file that has one.
      db.exec('PRAGMA auto_vacuum = INCREMENTAL');
      // The lock is taken by the first transaction, and held until the connection closes.
      db.exec('BEGIN EXCLUSIVE; COMMIT');
    } catch (e) {
      const code = primary(e);
      if (code === SQLITE_BUSY || code === SQLITE_LOCKED) {
        throw new StoreError(`--persist: ${path} is in use by another server (it holds the file's lock)`, {
          cause: e,
        });
      }
      if (code === SQLITE_NOTADB || code === SQLITE_CORRUPT) {
        throw new StoreDamagedError(`--persist: ${path} is not an edge-doubles database (${(e as Error).message})`, {
          cause: e,
        });
      }
      throw new StoreError(`--persist: cannot take ${path}: ${(e as Error).message}`, { cause: e });
    }
    this.#prepareFile(path, options);
    // A value that is bytes alone is in `bytes` (see the header); a record's own bytes are read by #bytes only.
    const value =
      'value, crc, CASE WHEN value IS NULL THEN bytes END AS raw, CASE WHEN value IS NULL THEN bytes_crc END AS rawCrc';
    this.#get = db.prepare(`SELECT ${value} FROM records WHERE space = ? AND key = ?`);
    this.#bytes = db.prepare(
      'SELECT bytes, bytes_crc FROM records WHERE space = ? AND key = ? AND value IS NOT NULL AND bytes IS NOT NULL',
    );
    this.#scanAll = db.prepare(`SELECT key, ${value} FROM records WHERE space = ? ORDER BY key`);
    this.#scanPrefix = db.prepare(
      `SELECT key, ${value} FROM records WHERE space = ? AND key >= ? AND key < ? ORDER BY key`,
    );
    this.#keysAll = db.prepare('SELECT key FROM records WHERE space = ? ORDER BY key');
    this.#keysPrefix = db.prepare('SELECT key FROM records WHERE space = ? AND key >= ? AND key < ? ORDER BY key');
    // The next space after one: the index skips a space's records rather than reading them (DISTINCT would).
    this.#spaces = db.prepare('SELECT space FROM records WHERE space > ? ORDER BY space LIMIT 1');
    // An upsert, not INSERT OR REPLACE: the row keeps its place (and rowid), so the index is not touched.
    this.#put = db.prepare(
      'INSERT INTO records (space, key, value, crc, bytes, bytes_crc) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (space, key) DO UPDATE SET value = excluded.value, crc = excluded.crc, bytes = excluded.bytes, bytes_crc = excluded.bytes_crc',
    );
    this.#delete = db.prepare('DELETE FROM records WHERE space = ? AND key = ?');
    this.#deletePrefix = db.prepare('DELETE FROM records WHERE space = ? AND key >= ? AND key < ?');
    this.#deleteSpace = db.prepare('DELETE FROM records WHERE space = ?');
    this.#freePages = db.prepare('PRAGMA freelist_count');
    // Prepared once, as the writes are: exec() would compile them at every commit.
    this.#begin = db.prepare('BEGIN');
    this.#commit = db.prepare('COMMIT');
  }

  #prepareFile(path: string, options: SqliteStoreOptions): void {
    const db = this.#db;
    try {
      const app = (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id;
      const format = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
      const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number })
        .n;
      if (app === 0 && format === 0 && tables === 0) {
        db.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${FORMAT}`);
        db.exec(
          // A rowid table: values run from a few bytes to a 256 KiB chunk, and WITHOUT ROWID's clustered
          // rows put large values in overflow pages three times the size (measured: 100 MB against 28 MB
          // for 20,000 objects of 1 KiB).
          'CREATE TABLE records (space TEXT NOT NULL, key TEXT NOT NULL, value BLOB, crc INTEGER NOT NULL, bytes BLOB, bytes_crc INTEGER, PRIMARY KEY (space, key))',
        );
      } else if (app !== APPLICATION_ID) {
        throw new StoreDamagedError(`--persist: ${path} is a SQLite database, but not an edge-doubles one`);
      } else if (format !== FORMAT) {
        throw new StoreError(
          `--persist: ${path} was written in format ${format}; this edge-doubles reads format ${FORMAT}`,
        );
      }
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(`PRAGMA synchronous = ${options.sync === 'full' ? 'FULL' : 'NORMAL'}`);
      db.exec(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
    } catch (e) {
      if (e instanceof StoreError) throw e;
      throw this.#failure(e, `cannot read ${path}`);
    }
  }

  get(space: string, key: string): unknown {
    let row: Row | undefined;
    try {
      row = this.#get.get(space, key) as Row | undefined;
    } catch (e) {
      throw this.#failure(e, `cannot read ${space}/${key}`);
    }
    return row === undefined ? undefined : this.#decoded(space, key, row);
  }

  bytes(space: string, key: string): Uint8Array | undefined {
    let row: { bytes: Uint8Array; bytes_crc: number } | undefined;
    try {
      row = this.#bytes.get(space, key) as typeof row;
    } catch (e) {
      throw this.#failure(e, `cannot read ${space}/${key}`);
    }
    return row === undefined ? undefined : this.#checked(space, key, row.bytes, row.bytes_crc);
  }

  scan(space: string, prefix = ''): StoreEntry[] {
    let rows: (Row & { key: string })[];
    try {
      rows = (prefix ? this.#scanPrefix.all(space, prefix, after(prefix)) : this.#scanAll.all(space)) as typeof rows;
    } catch (e) {
      throw this.#failure(e, `cannot read ${space}`);
    }
    const out: StoreEntry[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      out[i] = { key: r.key, value: this.#decoded(space, r.key, r) };
    }
    return out;
  }

  keys(space: string, prefix = ''): string[] {
    try {
      const rows = (prefix ? this.#keysPrefix.all(space, prefix, after(prefix)) : this.#keysAll.all(space)) as {
        key: string;
      }[];
      return rows.map((r) => r.key);
    } catch (e) {
      throw this.#failure(e, `cannot read ${space}`);
    }
  }

  spaces(prefix = ''): string[] {
    const out: string[] = [];
    try {
      // Each space after the one found last, starting at `prefix`: one index seek a space.
      for (let at = prefix; ;) {
        const row = this.#spaces.get(at) as { space: string } | undefined;
        if (row === undefined || !row.space.startsWith(prefix)) break;
        out.push((at = row.space));
      }
      // `space > prefix` leaves out a space named `prefix` itself.
      if (this.#keysAll.get(prefix) !== undefined) out.unshift(prefix);
    } catch (e) {
      throw this.#failure(e, 'cannot read');
    }
    return out;
  }

  commit(writes: readonly StoreWrite[]): void {
    if (writes.length === 0) return;
    const db = this.#db;
    try {
      this.#begin.run();
      for (const w of writes) {
        if ('value' in w) this.#write(w.space, w.key, w.value, w.bytes);
        else if ('key' in w) this.#delete.run(w.space, w.key);
        else if (w.prefix === '') this.#deleteSpace.run(w.space);
        else this.#deletePrefix.run(w.space, w.prefix, after(w.prefix));
      }
      this.#commit.run();
      this.#dirty = true;
      this.#commits++;
    } catch (e) {
      // SQLite rolls a failed statement's transaction back itself on a full disk; otherwise this does.
      if (db.isTransaction) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // Already rolled back: the batch left nothing behind either way.
        }
      }
      throw this.#failure(e, 'cannot write');
    }
  }

  /** One row's value and bytes: see the header for the forms. */
  #write(space: string, key: string, value: unknown, bytes: Uint8Array | undefined): void {
    if (value instanceof Uint8Array && bytes === undefined) {
      this.#put.run(space, key, null, 0, value, crc32(value));
      return;
    }
    const encoded = jsonExact(value) ? JSON.stringify(value) : serialize(value);
    this.#put.run(space, key, encoded, crc32(encoded), bytes ?? null, bytes ? crc32(bytes) : null);
  }

  /** How many commits this Store has made: a server that sees it unchanged for a while is idle. */
  get commits(): number {
    return this.#commits;
  }

  /**
   * Gives disk back: the pages deletes freed (past a mebibyte of them) and the write-ahead log's
   * length, copying it into the database (a checkpoint: where the disk is waited for). Nothing to
   * do, and nothing done, when nothing was committed since the last time; a server calls it when idle.
   */
  compact(): void {
    if (!this.#dirty) return;
    try {
      const free = (this.#freePages.get() as { freelist_count: number }).freelist_count;
      if (free > 256) this.#db.exec('PRAGMA incremental_vacuum');
      this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      this.#dirty = false;
    } catch (e) {
      throw this.#failure(e, 'cannot compact');
    }
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  /** A row's value, once its bytes are found to be what was written. */
  #decoded(space: string, key: string, row: Row): unknown {
    if (row.value === null) {
      if (row.raw === null || row.rawCrc === null) throw this.#damaged(space, key, 'it holds no value');
      return this.#checked(space, key, row.raw, row.rawCrc);
    }
    this.#checked(space, key, row.value, row.crc);
    try {
      return typeof row.value === 'string' ? JSON.parse(row.value) : deserialize(row.value);
    } catch (e) {
      throw this.#reported(
        new StoreDamagedError(`--persist: ${this.path}: the record ${space}/${key} cannot be read`, { cause: e }),
      );
    }
  }

  /** `data`, once found to be what was written (its CRC-32). */
  #checked<T extends string | Uint8Array>(space: string, key: string, data: T, crc: number): T {
    if (crc32(data) !== crc) throw this.#damaged(space, key, 'its checksum differs');
    return data;
  }

  #damaged(space: string, key: string, why: string): StoreError {
    return this.#reported(
      new StoreDamagedError(`--persist: ${this.path}: the record ${space}/${key} is damaged (${why})`),
    );
  }

  #reported(error: StoreError): StoreError {
    this.#report(error);
    return error;
  }

  #failure(e: unknown, doing: string): StoreError {
    const code = primary(e);
    const message = `--persist: ${this.path}: ${doing}: ${(e as Error).message}`;
    if (code === SQLITE_FULL) return this.#reported(new StoreFullError(message, { cause: e }));
    if (code === SQLITE_CORRUPT || code === SQLITE_NOTADB)
      return this.#reported(new StoreDamagedError(message, { cause: e }));
    return new StoreError(message, { cause: e });
  }
}
