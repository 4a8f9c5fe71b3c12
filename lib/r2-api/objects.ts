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
 *
 * And on the collection, `/accounts/{id}/r2/buckets/{bucket}/objects` (cloudflare/api-schemas
 * 2026-08-14, `r2-list-objects` and `r2-delete-objects`):
 * - GET lists a page (`per_page` 1–1000, default 20; `prefix`, `delimiter`, `cursor`,
 *   `start_after`), as the binding's list: `result` the objects (`r2_r2_object`: the etag unquoted,
 *   the HTTP and custom metadata, `ssec`), `result_info` `{ per_page, is_truncated, cursor?,
 *   delimited }` (`delimited` S3's CommonPrefixes). A cursor is the binding's: any string positions
 *   the walk, as the binding takes any.
 * - DELETE without `prefix` takes a JSON array of keys and deletes each: one call of the layer
 *   (logged as `delete` with the keys), each key on its own, so a key a lock rule keeps is reported
 *   and the others go. `result` is `[{ key }]` for the keys deleted; each refused key is an entry
 *   of `errors` with its R2 code and `<key>: <text>` (the schema: "per-key errors are reported in
 *   the response"; where and how is not established: our choice), `success` still true.
 * - DELETE with `prefix` (none in the body) makes a prefix-delete job, `?prefix=` an Empty Bucket
 *   one (jobs.ts): a non-empty prefix must end in `/` (10040 otherwise).
 */
import { ok } from '../api/envelope.js';
import { apiErrors, fail } from '../api/errors.js';
import type { Handler, Incoming, RouteParams } from '../api/router.js';
import { R2ModelError } from '../bucket/errors.js';
import { bucketLayer } from '../bucket/internal.js';
import type { BucketLayer } from '../bucket/layer.js';
import type { ObjectMetadata, StoredObject } from '../bucket/stored.js';
import { objectHeaders } from '../r2-public/serve.js';
import { httpFieldsFromHeaders } from '../s3/metadata.js';
import { r2ApiErrors } from './errors.js';
import type { R2Methods, R2Table } from './routes.js';
import { namedBucket, type R2Service } from './service.js';
import { startPrefixDelete } from './jobs.js';

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

/** `per_page` of a listing: its schema's bounds (1–1000) and default (20). */
const LIST_DEFAULT = 20;
const LIST_MAX = 1000;

/** An object as the listing shows it (`r2_r2_object`): the etag unquoted, dates ISO, empty metadata left out. */
function presentObject(o: StoredObject) {
  const h = o.http;
  const http: Record<string, string> = {};
  if (h.contentType !== undefined) http.contentType = h.contentType;
  if (h.contentLanguage !== undefined) http.contentLanguage = h.contentLanguage;
  if (h.contentDisposition !== undefined) http.contentDisposition = h.contentDisposition;
  if (h.contentEncoding !== undefined) http.contentEncoding = h.contentEncoding;
  if (h.cacheControl !== undefined) http.cacheControl = h.cacheControl;
  if (h.cacheExpiry !== undefined) http.cacheExpiry = new Date(h.cacheExpiry).toISOString();
  return {
    key: o.key,
    size: o.size,
    etag: o.etag,
    last_modified: new Date(o.uploaded).toISOString(),
    http_metadata: http,
    custom_metadata: Object.fromEntries(o.custom),
    ssec: o.ssecKeyMd5 !== undefined,
    storage_class: o.storageClass,
  };
}

const listObjects: Handler<R2Service> = async (svc, req, params) => {
  const layer = bucketLayer(namedBucket(svc, req, params).bucket)!;
  const q = req.url.searchParams;
  const raw = q.get('per_page');
  let limit = LIST_DEFAULT;
  if (raw !== null && raw !== '') {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > LIST_MAX)
      throw apiErrors.badQuery('per_page', `must be an integer from 1 to ${LIST_MAX}`);
    limit = Number(raw);
  }
  // An empty delimiter or cursor is none (as the binding takes them); start_after '' skips the key ''.
  const delimiter = q.get('delimiter') || undefined;
  const cursor = q.get('cursor') || undefined;
  const startAfter = q.get('start_after') ?? undefined;
  const query = {
    limit,
    prefix: q.get('prefix') ?? '',
    ...(delimiter !== undefined ? { delimiter } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
    ...(startAfter !== undefined ? { startAfter } : {}),
  };
  const page = await run(() =>
    layer.viaApi('list', undefined, () => layer.list(query), { operation: 'listObjects', ...query }),
  );
  const result_info: Record<string, unknown> = {
    per_page: limit,
    is_truncated: page.cursor !== undefined,
    delimited: page.delimitedPrefixes,
  };
  if (page.cursor !== undefined) result_info.cursor = page.cursor;
  return ok(page.objects.map(presentObject), { result_info });
};

/** The keys a delete-by-list body names: a JSON array of strings, or 10040. */
async function keysToDelete(req: Incoming): Promise<string[]> {
  let body: unknown;
  try {
    body = JSON.parse(await req.text());
  } catch (e) {
    if (e instanceof SyntaxError) throw r2ApiErrors.malformed();
    throw e;
  }
  if (!Array.isArray(body) || !body.every((k) => typeof k === 'string'))
    throw r2ApiErrors.malformed('the body must be a JSON array of object keys');
  return body as string[];
}

const deleteObjects: Handler<R2Service> = async (svc, req, params) => {
  const { bucket, name } = namedBucket(svc, req, params);
  const layer = bucketLayer(bucket)!;
  const prefix = req.url.searchParams.get('prefix');
  if (prefix !== null) {
    if (prefix !== '' && !prefix.endsWith('/')) throw r2ApiErrors.malformed('a non-empty prefix must end in /');
    return ok(await startPrefixDelete(svc, params, name, layer, prefix));
  }
  const keys = await keysToDelete(req);
  const deleted: { key: string }[] = [];
  const refused: { code: number; message: string }[] = [];
  // One call of the layer (the log keeps its keys, not its answer: a delete's result is none).
  await run(() =>
    layer.viaApi(
      'delete',
      keys,
      async () => {
        for (const key of keys) {
          try {
            await layer.delete([key]);
            deleted.push({ key });
          } catch (e) {
            if (!(e instanceof R2ModelError)) throw e;
            const { errors } = objectErrors.model(e);
            refused.push({ code: errors[0]!.code, message: `${key}: ${errors[0]!.message}` });
          }
        }
      },
      { operation: 'deleteObjects' },
    ),
  );
  return ok(deleted, { errors: refused });
};

/**
 * `[bucket, 'objects']`: the listing and the deletes of many; `[bucket, 'objects', ...key]`: one
 * object, its key every segment after `objects`, joined by `/`.
 */
export const objectRoutes: R2Table = (rest): R2Methods | undefined => {
  if (rest.length === 2 && rest[1] === 'objects') return { GET: listObjects, DELETE: deleteObjects };
  if (rest.length < 3 || rest[1] !== 'objects') return undefined;
  const key = rest.slice(2).join('/');
  return { GET: getObject(key), PUT: putObject(key), DELETE: deleteObject(key) };
};
