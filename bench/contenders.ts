/**
 * The three R2 implementations the bench compares, behind the small surface the benchmarks use.
 *
 * - `double`: this repo's `Bucket` (lib/bucket), in-process.
 * - `v2`: `@miniflare/r2` v2 over `@miniflare/storage-memory`, the deprecated in-process R2 that
 *   issue 2 names as the peer for the speed targets.
 * - `workerd`: Miniflare 4 running workerd's real R2 binding, reached from Node through
 *   `mf.getR2Bucket()`'s proxy (every call is an HTTP round trip to the workerd process, which is
 *   why it manages only hundreds of operations a second and gets smaller workloads).
 *
 * Each benchmark opens a fresh contender so no case sees another's objects.
 */
import { R2Bucket } from '@miniflare/r2';
import { MemoryStorage } from '@miniflare/storage-memory';
import { Miniflare } from 'miniflare';
import { Bucket } from '../lib/bucket/index.js';

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
  get(key: string): Promise<BenchBody | null>;
  head(key: string): Promise<unknown>;
  delete(keys: string | string[]): Promise<void>;
  list(options: { limit?: number; cursor?: string }): Promise<BenchList>;
  createMultipartUpload(key: string): Promise<BenchUpload>;
}

export interface BenchBody {
  readonly size: number;
  readonly body: ReadableStream<Uint8Array>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface BenchList {
  readonly objects: readonly unknown[];
  readonly truncated: boolean;
  readonly cursor?: string;
}

export interface BenchPart {
  readonly partNumber: number;
  readonly etag: string;
}

export interface BenchUpload {
  uploadPart(partNumber: number, value: Uint8Array): Promise<BenchPart>;
  complete(parts: BenchPart[]): Promise<unknown>;
}

export interface Contender {
  readonly id: ContenderId;
  readonly label: string;
  readonly bucket: BenchBucket;
  dispose(): Promise<void>;
}

// The worker Miniflare runs does nothing: the bench talks to the R2 binding directly.
const WORKER = 'export default { fetch() { return new Response() } }';

export async function openContender(id: ContenderId): Promise<Contender> {
  const label = LABELS[id];
  switch (id) {
    case 'double':
      return { id, label, bucket: new Bucket() as unknown as BenchBucket, dispose: async () => {} };
    case 'v2':
      return { id, label, bucket: new R2Bucket(new MemoryStorage()) as unknown as BenchBucket, dispose: async () => {} };
    case 'workerd': {
      const mf = new Miniflare({ modules: true, script: WORKER, r2Buckets: ['BUCKET'], compatibilityDate: '2025-01-01' });
      const bucket = (await mf.getR2Bucket('BUCKET')) as unknown as BenchBucket;
      return { id, label, bucket, dispose: () => mf.dispose() };
    }
  }
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
