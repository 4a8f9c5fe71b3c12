/**
 * The part of the `lmdb` package `--persist` uses, declared here rather than imported from its
 * types: lmdb's index.d.ts mixes `export =` with ES exports, which a consumer's NodeNext project
 * with skipLibCheck off refuses (TS1203; spec/types/nodenext), and a source that names lmdb's types
 * would put them in that project's program. lmdb is loaded at run time only (persistence.ts), so
 * these shapes are all the compiler needs to see; spec/node/persist checks them against the real
 * package by using them.
 */

/** A key range, start included, end excluded. */
interface LmdbRange<K> {
  start?: K;
  end?: K;
}

/** One named database of an environment (or the root one). */
export interface LmdbDatabase<V = unknown, K = unknown> {
  get(key: K): V | undefined;
  getBinary(key: K): Uint8Array | undefined;
  getKeys(range?: LmdbRange<K>): Iterable<K>;
  getRange(range?: LmdbRange<K>): Iterable<{ key: K; value: V }>;
  putSync(key: K, value: V): unknown;
  removeSync(key: K): unknown;
  /** Runs `work` in one write transaction, committed when it returns. */
  transactionSync<T>(work: () => T): T;
}

/** An opened environment: its root database, and the named ones in it. */
export interface LmdbRoot extends LmdbDatabase {
  /** A named database (`{}`: keys and values encoded by lmdb; `'binary'`: Buffers as they are). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- lmdb's own declaration of a binary database
  openDB(name: string, options: { keyEncoding?: 'binary'; encoding?: 'binary' }): LmdbDatabase<any, any>;
  close(): Promise<void>;
}

/** lmdb's `open`, with the options --persist gives. */
export type LmdbOpen = (options: {
  path: string;
  maxDbs?: number;
  noSync?: boolean;
  useWritemap?: boolean;
  overlappingSync?: boolean;
}) => LmdbRoot;
