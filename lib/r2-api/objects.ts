/**
 * R2's object routes in the `/client/v4` API: `GET`, `PUT` and `DELETE`
 * `/accounts/{id}/r2/buckets/{bucket}/objects/{key}` (what `wrangler r2 object get|put|delete
 * --remote` calls, wrangler 4.86 `src/r2/helpers/object.ts`; the SDK's `r2.buckets.objects`).
 *
 * The object is the bucket's, through its layer (`viaApi`), as the S3 view's and the public hosts'
 * are: a put here fires the bucket's event notifications and is refused by its lock rules, and
 * the binding, the S3 view and the public hosts see what it wrote.
 *
 * - PUT takes the body as the object's bytes and wrangler's HTTP metadata headers (content-type,
 *   content-disposition, content-encoding, content-language, cache-control, expires), the class
 *   from `cf-r2-storage-class` (the bucket's default otherwise), and answers the SDK's
 *   `ObjectUploadResponse` (`size` as a string, as the SDK types it). The bound is the endpoint's
 *   documented 300 MB ("The maximum upload size for this endpoint is 300 MB", the SDK's
 *   `objects.upload`; wrangler refuses above 300 MiB itself), read as 300 MiB (wrangler's
 *   MAX_UPLOAD_SIZE_BYTES): 413 beyond it, as the gateway answers an oversized body.
 * - GET answers the bytes with the object's HTTP metadata as headers (the public hosts' writer,
 *   lib/r2-public/serve.ts) and its etag quoted (the SDK: "the HTTP ETag response header on Get Object ... IS wrapped
 *   in surrounding double-quotes").
 * - DELETE answers `{ key }` (the SDK's `ObjectDeleteResponse`), also for a key that held nothing
 *   (R2's deletes are idempotent, as the binding's).
 * - A missing object is 404 10007 "The specified key does not exist." (R2's error-code table:
 *   NoSuchKey); wrangler prints its own text on any 404. A model refusal is its R2 code and text
 *   (lib/bucket/errors.ts), 403 for a lock (10069), 400 otherwise.
 * - `cf-r2-data-catalog-check` (wrangler sends it without `--force`): there is no data catalog
 *   here, so never 10081.
 */
import { ok } from '../api/envelope.js';
import { fail } from '../api/errors.js';
import type { Handler, Incoming, RouteParams } from '../api/router.js';
import { R2ModelError } from '../bucket/errors.js';
import { bucketLayer } from '../bucket/internal.js';
import type { BucketLayer } from '../bucket/layer.js';
import type { ObjectMetadata } from '../bucket/stored.js';
import { objectHeaders } from '../r2-public/serve.js';
import { httpFieldsFromHeaders } from '../s3/metadata.js';
import { r2ApiErrors } from './errors.js';
import type { R2Table } from './routes.js';
import { namedBucket, type R2Service } from './service.js';

/** The endpoint's upload bound (see above): 300 MiB. */
export const MAX_OBJECT_UPLOAD = 300 * 1024 * 1024;

const STORAGE_CLASSES = new Set(['Standard', 'InfrequentAccess']);

const objectErrors = {
  noSuchKey: () => fail(404, 10007, 'The specified key does not exist.'),
  /** The model's refusal, with its R2 code and text. */
  model: (e: R2ModelError) =>
    fail(e.reason === 'objectLocked' ? 403 : 400, e.code, e.message.replace(/^\w+: /, '').replace(/ \(\d+\)$/, '')),
};

function target(svc: R2Service, req: Incoming, params: RouteParams, key: string): { layer: BucketLayer; key: string } {
  const layer = bucketLayer(namedBucket(svc, req, params).bucket)!;
  if (key === '') throw objectErrors.noSuchKey();
  return { layer, key };
}

/** Runs a layer operation, its model refusals as the API's errors. */
async function run<R>(op: () => Promise<R>): Promise<R> {
  try {
    return await op();
  } catch (e) {
    if (e instanceof R2ModelError) throw objectErrors.model(e);
    throw e;
  }
}

const getObject =
  (key: string): Handler<R2Service> =>
  async (svc, req, params) => {
    const t = target(svc, req, params, key);
    const outcome = await run(() =>
      t.layer.viaApi('get', t.key, () =>
        t.layer.read(t.key, (object) => {
          if (!object) throw objectErrors.noSuchKey();
          return { read: object.size > 0 ? { offset: 0, length: object.size } : undefined };
        }),
      ),
    );
    const object = outcome.object!;
    // The public hosts' headers (lib/r2-public/serve.ts), with the whole object's length.
    const headers = objectHeaders(object);
    headers.set('content-length', String(object.size));
    if (!outcome.bytes) return new Response(null, { status: 200, headers });
    const bytes = outcome.bytes;
    if (bytes.kind === 'chunks')
      return new Response(new Blob(bytes.chunks as Uint8Array<ArrayBuffer>[]), { status: 200, headers });
    const parts: Uint8Array<ArrayBuffer>[] = [];
    for (let it = bytes.pieces(), next = await it.next(); !next.done; next = await it.next())
      parts.push(next.value as Uint8Array<ArrayBuffer>);
    return new Response(new Blob(parts), { status: 200, headers });
  };

const putObject =
  (key: string): Handler<R2Service> =>
  async (svc, req, params) => {
    const t = target(svc, req, params, key);
    const headers = new Headers();
    for (const name of [
      'content-type',
      'content-language',
      'content-disposition',
      'content-encoding',
      'cache-control',
      'expires',
    ]) {
      const v = req.headers.get(name);
      if (v !== null) headers.set(name, v);
    }
    const requested = req.headers.get('cf-r2-storage-class');
    if (requested !== null && !STORAGE_CLASSES.has(requested)) throw r2ApiErrors.malformed();
    const metadata: ObjectMetadata = {
      http: httpFieldsFromHeaders(headers),
      custom: [],
      storageClass: requested ?? t.layer.defaultStorageClass,
    };
    const bytes = await req.bytes(MAX_OBJECT_UPLOAD);
    const stored = await run(() =>
      t.layer.viaApi('put', t.key, () =>
        t.layer.put(t.key, { chunks: [bytes], size: bytes.byteLength }, metadata, undefined, undefined),
      ),
    );
    const o = stored!;
    return ok({
      key: o.key,
      size: String(o.size),
      etag: o.etag,
      uploaded: new Date(o.uploaded).toISOString(),
      version: o.version,
      storage_class: o.storageClass,
    });
  };

const deleteObject =
  (key: string): Handler<R2Service> =>
  async (svc, req, params) => {
    const t = target(svc, req, params, key);
    await run(() => t.layer.viaApi('delete', t.key, () => t.layer.delete([t.key])));
    return ok({ key: t.key });
  };

/** `[bucket, 'objects', ...key]`: the key is every segment after `objects`, joined by `/`. */
export const objectRoutes: R2Table = (rest) => {
  if (rest.length < 3 || rest[1] !== 'objects') return undefined;
  const key = rest.slice(2).join('/');
  return { GET: getObject(key), PUT: putObject(key), DELETE: deleteObject(key) };
};
