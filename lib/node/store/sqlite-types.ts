/**
 * The part of `node:sqlite` the Store uses, declared here: the project's @types/node is Node 20's
 * (its oldest supported Node), which has no `node:sqlite`. Shapes as Node 22.13 documents them.
 */
export interface StatementSync {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
}

export interface DatabaseSync {
  readonly isOpen: boolean;
  readonly isTransaction: boolean;
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}

export interface SqliteModule {
  DatabaseSync: new (path: string, options?: { timeout?: number }) => DatabaseSync;
}
