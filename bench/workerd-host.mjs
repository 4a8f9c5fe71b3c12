// The workerd contender's home: a worker thread that runs Miniflare (workerd's real R2 binding)
// and answers the bench's calls by message (bench/contenders.ts holds the other end).
//
// Why a thread of its own: importing Miniflare puts some 34 MB on the JS heap, and every garbage
// collection of the thread that holds it has to walk it. In the bench's own thread that tax fell
// on the in-process contenders (the double and @miniflare/r2 v2) and on nobody else. Plain
// JavaScript because worker threads do not inherit tsx's loader.
import { parentPort } from 'node:worker_threads';
import { Miniflare } from 'miniflare';

// The worker Miniflare runs does nothing: the bench talks to the R2 binding directly.
const WORKER = 'export default { fetch() { return new Response() } }';
const mf = new Miniflare({ modules: true, script: WORKER, r2Buckets: ['BUCKET'], compatibilityDate: '2025-01-01' });
const bucket = await mf.getR2Bucket('BUCKET');
const uploads = new Map();

const readers = new Map();
let nextId = 0;

// What crosses back is plain data, and only what the bench reads: every property read on a result
// of Miniflare's binding proxy is itself a round trip to workerd, and before this thread existed
// the bench read nothing it did not need.
const handlers = {
  async put(key, value) {
    await bucket.put(key, value);
  },
  async putEtag(key, value) {
    return (await bucket.put(key, value)).etag;
  },
  /** Opens the body as a stream the other side pulls from ('read'), or null. */
  async get(key) {
    const o = await bucket.get(key);
    if (!o) return null;
    const id = nextId++;
    readers.set(id, o.body.getReader());
    return id;
  },
  async read(id) {
    const { done, value } = await readers.get(id).read();
    if (done) readers.delete(id);
    return done ? null : value;
  },
  async head(key) {
    return (await bucket.head(key)) !== null;
  },
  delete: (keys) => bucket.delete(keys),
  async list(options) {
    const page = await bucket.list(options);
    return { count: page.objects.length, truncated: page.truncated, cursor: page.truncated ? page.cursor : undefined };
  },
  async createMultipartUpload(key) {
    const upload = await bucket.createMultipartUpload(key);
    const id = nextId++;
    uploads.set(id, upload);
    return id;
  },
  async uploadPart(upload, partNumber, value) {
    const part = await uploads.get(upload).uploadPart(partNumber, value);
    return { partNumber: part.partNumber, etag: part.etag };
  },
  async complete(upload, parts) {
    await uploads.get(upload).complete(parts);
    uploads.delete(upload);
  },
  dispose: () => mf.dispose(),
};

parentPort.on('message', async ({ id, op, args }) => {
  try {
    const value = await handlers[op](...args);
    // A body chunk is handed over, not copied.
    parentPort.postMessage({ id, value }, value instanceof Uint8Array ? [value.buffer] : []);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.stack : String(error) });
  }
});
parentPort.postMessage({ ready: true });
