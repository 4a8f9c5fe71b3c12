/**
 * The three R2 implementations the bench compares, behind the small surface the benchmarks use.
 *
 * - `double`: this repo's `Bucket` (lib/bucket), in-process.
 * - `v2`: `@miniflare/r2` v2 over `@miniflare/storage-memory`, the deprecated in-process R2 that
 *   issue 2 names as the peer for the speed targets.
 * - `workerd`: Miniflare 4 running workerd's real R2 binding, reached through `mf.getR2Bucket()`'s
 *   proxy (every call is an HTTP round trip to the workerd process, which is why it manages only
 *   hundreds of operations a second and gets smaller workloads). Miniflare lives in a worker thread
 *   of its own (workerd-host.mjs), so its heap is not walked by the other contenders' GCs.
 *
 * Each benchmark opens a fresh contender so no case sees another's objects.
 */
import { Worker } from 'node:worker_threads';
import { R2Bucket } from '@miniflare/r2';
import { MemoryStorage } from '@miniflare/storage-memory';
import { Bucket } from '../lib/bucket.js';

export type ContenderId = 'double' | 'v2' | 'workerd';
export const CONTENDER_IDS: readonly ContenderId[] = ['double', 'v2', 'workerd'];

export const LABELS: Record<ContenderId, string> = {
  double: 'edge-doubles Bucket',
  v2: '@miniflare/r2 v2',
  workerd: 'Miniflare 4 (workerd)',
};

/** What the benchmarks call; all three implementations satisfy it structurally (cast at the edge). */
export interface BenchBucket {
  put(key: string, value: Uint8Array | string): Promise<unknown>;
  /** A put, then reading the etag of its result. */
  putEtag(key: string, value: Uint8Array): Promise<string>;
  get(key: string): Promise<BenchBody | null>;
  head(key: string): Promise<unknown>;
  delete(keys: string | string[]): Promise<void>;
  list(options: { limit?: number; cursor?: string }): Promise<BenchList>;
  createMultipartUpload(key: string): Promise<BenchUpload>;
}

interface BenchBody {
  readonly body: ReadableStream<Uint8Array>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

interface BenchList {
  readonly objects: readonly unknown[];
  readonly truncated: boolean;
  readonly cursor?: string;
}

export interface BenchPart {
  readonly partNumber: number;
  readonly etag: string;
}

interface BenchUpload {
  uploadPart(partNumber: number, value: Uint8Array): Promise<BenchPart>;
  complete(parts: BenchPart[]): Promise<unknown>;
}

export interface Contender {
  readonly id: ContenderId;
  readonly label: string;
  readonly bucket: BenchBucket;
  dispose(): Promise<void>;
}

export async function openContender(id: ContenderId): Promise<Contender> {
  const label = LABELS[id];
  switch (id) {
    case 'double':
      return { id, label, bucket: inProcess(new Bucket()), dispose: async () => {} };
    case 'v2':
      return { id, label, bucket: inProcess(new R2Bucket(new MemoryStorage())), dispose: async () => {} };
    case 'workerd': {
      const host = await WorkerdHost.start();
      return { id, label, bucket: host.bucket(), dispose: () => host.close() };
    }
  }
}

/** An in-process bucket as the bench calls it (the same thin layer for both). */
function inProcess(bucket: object): BenchBucket {
  type Put = (key: string, value: Uint8Array | string) => Promise<{ etag: string }>;
  const b = bucket as Omit<BenchBucket, 'put' | 'putEtag'> & { put: Put };
  return {
    put: (key, value) => b.put(key, value),
    putEtag: async (key, value) => (await b.put(key, value)).etag,
    get: (key) => b.get(key),
    head: (key) => b.head(key),
    delete: (keys) => b.delete(keys),
    list: (options) => b.list(options),
    createMultipartUpload: (key) => b.createMultipartUpload(key),
  };
}

/** Opens a contender for the length of `body` and always disposes it (workerd is a child process). */
export async function withContender<T>(id: ContenderId, body: (c: Contender) => Promise<T>): Promise<T> {
  const c = await openContender(id);
  try {
    return await body(c);
  } finally {
    await c.dispose();
  }
}

/** The bench's end of workerd-host.mjs: each call is a message, answered by id. */
class WorkerdHost {
  readonly #thread: Worker;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  #next = 0;

  private constructor(thread: Worker) {
    this.#thread = thread;
    thread.on('message', (m: { id: number; value?: unknown; error?: string }) => {
      const p = this.#pending.get(m.id);
      this.#pending.delete(m.id);
      if (m.error === undefined) p?.resolve(m.value);
      else p?.reject(new Error(`workerd: ${m.error}`));
    });
  }

  static start(): Promise<WorkerdHost> {
    const thread = new Worker(new URL('./workerd-host.mjs', import.meta.url));
    return new Promise((resolve, reject) => {
      thread.once('error', reject);
      thread.once('message', () => resolve(new WorkerdHost(thread)));
    });
  }

  call<T>(op: string, ...args: unknown[]): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#thread.postMessage({ id, op, args });
    });
  }

  async close(): Promise<void> {
    await this.call('dispose');
    await this.#thread.terminate();
  }

  bucket(): BenchBucket {
    const call = this.call.bind(this);
    const body = (reader: number): BenchBody => {
      // Pulled chunk by chunk from workerd's body, as the proxy's own stream would be.
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const chunk = await call<Uint8Array | null>('read', reader);
          if (chunk) controller.enqueue(chunk);
          else controller.close();
        },
      });
      return {
        body: stream,
        arrayBuffer: () => new Response(stream).arrayBuffer(),
      };
    };
    return {
      put: (key, value) => call('put', key, value),
      putEtag: (key, value) => call('putEtag', key, value),
      get: async (key) => {
        const reader = await call<number | null>('get', key);
        return reader === null ? null : body(reader);
      },
      head: (key) => call('head', key),
      delete: (keys) => call('delete', keys),
      list: async (options) => {
        const page = await call<{ count: number; truncated: boolean; cursor?: string }>('list', options);
        return { objects: new Array<undefined>(page.count), truncated: page.truncated, cursor: page.cursor };
      },
      async createMultipartUpload(key) {
        const upload = await call<number>('createMultipartUpload', key);
        return {
          uploadPart: (partNumber, value) => call('uploadPart', upload, partNumber, value),
          complete: (parts) => call('complete', upload, parts),
        };
      },
    };
  }
}
