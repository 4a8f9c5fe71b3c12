/**
 * The part of IndexedDB that IndexedDbStorage uses, declared here so the library type-checks where
 * the DOM's types are absent (a Worker project compiles against @cloudflare/workers-types alone).
 * The platform's `IDBFactory` and fake-indexeddb's are both assignable to `IdbFactory`.
 */
type Handler = ((ev: never) => unknown) | null;

export interface IdbRequest<T = unknown> {
  readonly result: T;
  readonly error: unknown;
  onsuccess: Handler;
  onerror: Handler;
}

interface IdbOpenRequest extends IdbRequest<IdbDatabase> {
  onupgradeneeded: Handler;
}

export interface IdbFactory {
  open(name: string, version?: number): IdbOpenRequest;
}

export interface IdbDatabase {
  readonly objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(stores: string | string[], mode?: 'readonly' | 'readwrite'): IdbTransaction;
  onversionchange: Handler;
  close(): void;
}

export interface IdbTransaction {
  objectStore(name: string): IdbObjectStore;
  abort(): void;
  readonly error: unknown;
  oncomplete: Handler;
  onabort: Handler;
}

export interface IdbObjectStore {
  get(key: unknown): IdbRequest;
  getAll(): IdbRequest<unknown[]>;
  getAllKeys(): IdbRequest<unknown[]>;
  put(value: unknown, key: unknown): IdbRequest;
  delete(key: unknown): IdbRequest;
  clear(): IdbRequest;
}
