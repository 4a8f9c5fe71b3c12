/**
 * The env of the Node suites of `npm run bench -- suites`, chosen by EDGE_DOUBLES_BENCH_TARGET:
 * `doubles` (the default) builds it from wrangler.toml with edge-doubles' createEnv, as
 * docs/getting-started.md does; `miniflare` gives the same bindings from Miniflare 4 (R2 and Queues
 * inside workerd, reached from Node through its proxies), as a suite that tests against Miniflare
 * in plain Node would. Each variant imports only its own package, so a run pays for one of them.
 *
 * Miniflare's proxies carry a call's arguments to workerd serialized, and refuse two things these
 * Workers pass, as R2's binding in workerd takes them: Node's own `Headers` (onlyIf, range and
 * httpMetadata given as the request's headers: "Cannot stringify arbitrary non-POJOs") and a body
 * stream of unknown length (a request's body: "Provided readable stream must have a known length").
 * And `writeHttpMetadata(headers)` on a result runs in workerd, where Node's `Headers` cannot go (the
 * same error) and would not come back written. `forMiniflare` passes Miniflare's `Headers` and an
 * ArrayBuffer, and writes a result's metadata in Node, as such a suite would have to.
 */
import type { R2BucketLike } from 'edge-doubles/bucket';
import type { Queue } from 'edge-doubles/queue';
import jobsWorker, { type Job } from '../../examples/worker-in-workerd/queue/worker.js';

export interface SuiteEnv {
  FILES: R2BucketLike;
  RESULTS: R2BucketLike;
  JOBS: Queue<Job>;
}

const target = process.env.EDGE_DOUBLES_BENCH_TARGET ?? 'doubles';

/** The jobs Worker built to JavaScript for workerd (bench/suites.ts builds it before the runs). */
export const JOBS_SCRIPT_VARIABLE = 'EDGE_DOUBLES_BENCH_JOBS_SCRIPT';

export async function openEnv(): Promise<{ env: SuiteEnv; close(): Promise<void> }> {
  if (target === 'doubles') {
    const { createEnv } = await import('edge-doubles/node');
    const { env } = createEnv<SuiteEnv>('bench/suites/wrangler.toml', { worker: jobsWorker });
    return { env, close: async () => {} };
  }
  if (target !== 'miniflare') throw new Error(`EDGE_DOUBLES_BENCH_TARGET: doubles or miniflare, not ${target}`);
  const scriptPath = process.env[JOBS_SCRIPT_VARIABLE];
  if (!scriptPath) throw new Error(`${JOBS_SCRIPT_VARIABLE}: the jobs Worker's path (run through bench/suites.ts)`);
  const { Miniflare, Headers: MiniflareHeaders } = await import('miniflare');
  // wrangler.toml's bindings; the jobs Worker is the queue's consumer, inside workerd.
  const mf = new Miniflare({
    modules: true,
    scriptPath,
    compatibilityDate: '2025-01-01',
    r2Buckets: ['FILES', 'RESULTS'],
    queueProducers: { JOBS: { queueName: 'jobs' } },
    queueConsumers: { jobs: { maxBatchSize: 1 } },
  });
  // Miniflare's proxies have workers-types' shapes; the tests use only the binding interface.
  const env = {
    FILES: forMiniflare(await mf.getR2Bucket('FILES'), MiniflareHeaders),
    RESULTS: forMiniflare(await mf.getR2Bucket('RESULTS'), MiniflareHeaders),
    JOBS: await mf.getQueueProducer('JOBS'),
  } as unknown as SuiteEnv;
  return { env, close: () => mf.dispose() };
}

type Options = Record<string, unknown> | undefined;

/** The bucket with Node's `Headers` in options made Miniflare's, and a body stream read first. */
function forMiniflare(bucket: object, MiniflareHeaders: new (init: [string, string][]) => object): R2BucketLike {
  const b = bucket as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const headers = (value: unknown) => (value instanceof Headers ? new MiniflareHeaders([...value]) : value);
  const options = (o: Options) =>
    o && {
      ...o,
      ...('onlyIf' in o ? { onlyIf: headers(o.onlyIf) } : {}),
      ...('range' in o ? { range: headers(o.range) } : {}),
      ...('httpMetadata' in o ? { httpMetadata: headers(o.httpMetadata) } : {}),
    };
  const body = async (value: unknown) =>
    value instanceof ReadableStream ? await new Response(value).arrayBuffer() : value;
  const result = (object: unknown) =>
    object === null
      ? null
      : new Proxy(object as object, {
          get(target, p) {
            if (p === 'writeHttpMetadata') return (h: Headers) => writeHttpMetadata(target, h);
            const value: unknown = Reflect.get(target, p);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
  return {
    head: async (key: string) => result(await b.head!(key)),
    get: async (key: string, o?: Options) => result(await b.get!(key, options(o))),
    put: async (key: string, value: unknown, o?: Options) => b.put!(key, await body(value), options(o)),
    delete: (keys: string | string[]) => b.delete!(keys),
    list: (o?: Options) => b.list!(o),
    createMultipartUpload: (key: string, o?: Options) => b.createMultipartUpload!(key, options(o)),
    resumeMultipartUpload: (key: string, uploadId: string) =>
      (b.resumeMultipartUpload as unknown as (k: string, u: string) => unknown)(key, uploadId),
  } as unknown as R2BucketLike;
}

/** R2's httpMetadata fields as the headers `writeHttpMetadata` sets (workerd's src/workerd/api/r2-bucket.c++). */
function writeHttpMetadata(object: object, headers: Headers): void {
  const m = (object as { httpMetadata?: Record<string, unknown> }).httpMetadata ?? {};
  const fields: [string, string][] = [
    ['contentType', 'content-type'],
    ['contentLanguage', 'content-language'],
    ['contentDisposition', 'content-disposition'],
    ['contentEncoding', 'content-encoding'],
    ['cacheControl', 'cache-control'],
  ];
  for (const [field, header] of fields) if (typeof m[field] === 'string') headers.set(header, m[field]);
  if (m.cacheExpiry instanceof Date) headers.set('expires', m.cacheExpiry.toUTCString());
}
