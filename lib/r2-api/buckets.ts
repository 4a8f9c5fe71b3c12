/**
 * R2's buckets in the `/client/v4` API: list, create, get, change the default storage class, delete
 * (docs/sources/r2-api.md#buckets; shapes from the `cloudflare` SDK's `r2/buckets/buckets.d.ts`; what
 * wrangler 4.86.0 sends from `src/r2/helpers/bucket.ts` in its bundle). Every route addresses one
 * jurisdiction with `cf-r2-jurisdiction` (service.ts).
 */
import type { BackendHost } from '../support/backend.js';
import {
  homeLocation,
  infoOf,
  isBucketName,
  isLocation,
  isStorageClass,
  R2,
  type Jurisdiction,
  type Location,
} from '../bucket/backend.js';
import { bucketLayer } from '../bucket/internal.js';
import { ok } from '../api/envelope.js';
import { apiErrors } from '../api/errors.js';
import type { Handler } from '../api/router.js';
import { fromUtf8, utf8 } from '../bytes.js';
import { r2ApiErrors } from './errors.js';
import type { R2Methods, R2Table } from './routes.js';
import { jsonObject } from './rules-body.js';
import { addressedBuckets, namedBucket, type R2Service } from './service.js';
import { changeSettings, settingCall } from './settings.js';

export const bucketRoutes: R2Table = (rest): R2Methods | undefined => {
  if (rest.length === 0) return { GET: listBuckets, POST: createBucket };
  if (rest.length === 1) return { GET: getBucket, PATCH: editBucket, DELETE: deleteBucket };
  return undefined;
};

/** A bucket as the API shows it (the SDK's `Bucket`). */
interface BucketView {
  name: string;
  creation_date: string;
  location: string;
  storage_class: string;
  jurisdiction: Jurisdiction;
}

/**
 * `location` is shown upper-case (`ENAM`) although `locationHint` is sent lower-case: the reason
 * terraform-provider-cloudflare#6026 (2025) made its R2 bucket `location` case-insensitive.
 */
function presentBucket(account: BackendHost, name: string, jurisdiction: Jurisdiction): BucketView {
  const entry = account.backend(R2).entry(name, jurisdiction)!;
  const { bucket } = entry;
  const info = infoOf(entry);
  return {
    name,
    creation_date: new Date(entry.created).toISOString(),
    location: info.location.toUpperCase(),
    storage_class: bucketLayer(bucket)!.defaultStorageClass,
    jurisdiction: info.jurisdiction,
  };
}

/** Page size when `per_page` is absent, and its largest value (our choice: R2 documents neither). */
const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 1000;

/** The cursor: the last name of the page and the order it was read in, opaque to clients. */
const encodeCursor = (name: string, desc: boolean) =>
  btoa(fromUtf8(utf8(JSON.stringify([name, desc ? 'desc' : 'asc']))));
function decodeCursor(raw: string): { after: string; desc: boolean } {
  try {
    const bytes = Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
    const [after, order] = JSON.parse(fromUtf8(bytes)) as unknown[];
    if (typeof after === 'string' && (order === 'asc' || order === 'desc')) return { after, desc: order === 'desc' };
  } catch {
    // falls through to the error
  }
  throw apiErrors.badQuery('cursor', 'not a cursor this API returned');
}

/**
 * `GET /r2/buckets`: the SDK's `BucketListParams` (`cursor`, `direction`, `name_contains`,
 * `order=name`, `per_page`, `start_after`). Names in byte order (ASCII: names are `[a-z0-9-]`); a
 * page that stops early carries `result_info.cursor` for the next one.
 */
const listBuckets: Handler<R2Service> = (svc, req, params) => {
  const { account, jurisdiction, buckets } = addressedBuckets(svc, req, params);
  const q = req.url.searchParams;
  const direction = q.get('direction');
  if (direction !== null && direction !== 'asc' && direction !== 'desc')
    throw apiErrors.badQuery('direction', 'must be asc or desc');
  const order = q.get('order');
  if (order !== null && order !== 'name') throw apiErrors.badQuery('order', 'must be name');
  const rawPerPage = q.get('per_page');
  let perPage = DEFAULT_PER_PAGE;
  if (rawPerPage !== null && rawPerPage !== '') {
    if (!/^\d+$/.test(rawPerPage) || Number(rawPerPage) < 1 || Number(rawPerPage) > MAX_PER_PAGE) {
      throw apiErrors.badQuery('per_page', `must be an integer from 1 to ${MAX_PER_PAGE}`);
    }
    perPage = Number(rawPerPage);
  }
  let desc = direction === 'desc';
  const rawCursor = q.get('cursor');
  let after = q.get('start_after') ?? undefined;
  if (rawCursor !== null && rawCursor !== '') {
    const c = decodeCursor(rawCursor);
    after = c.after;
    desc = c.desc;
  }
  const contains = q.get('name_contains') ?? '';
  const names = [...buckets.keys()].filter((n) => n.includes(contains)).sort();
  if (desc) names.reverse();
  const from = after === undefined ? 0 : names.findIndex((n) => (desc ? n < after! : n > after!));
  const page = from < 0 ? [] : names.slice(from, from + perPage);
  const more = from >= 0 && from + perPage < names.length;
  const result_info: Record<string, unknown> = { per_page: perPage };
  if (more) result_info.cursor = encodeCursor(page[page.length - 1]!, desc);
  return ok({ buckets: page.map((n) => presentBucket(account, n, jurisdiction)) }, { result_info });
};

/**
 * `POST /r2/buckets` with `{ name, locationHint?, storageClass? }` (what wrangler's `createR2Bucket`
 * sends) in the jurisdiction of `cf-r2-jurisdiction`. A value outside the enums is 10040 (a bad
 * storage class: wrangler's tests, docs/sources/r2-api.md#buckets); a name outside R2's rule is 10005;
 * a name this account already has in that jurisdiction is 10004/409.
 */
const createBucket: Handler<R2Service> = async (svc, req, params) => {
  const { account, r2, jurisdiction, buckets } = addressedBuckets(svc, req, params);
  const body = await jsonObject(req);
  const { name, locationHint, storageClass } = body;
  if (!isBucketName(name)) throw r2ApiErrors.invalidBucketName();
  if (
    locationHint !== undefined &&
    !isLocation(typeof locationHint === 'string' ? locationHint.toLowerCase() : locationHint)
  )
    throw r2ApiErrors.malformed();
  if (storageClass !== undefined && !isStorageClass(storageClass)) throw r2ApiErrors.malformed();
  if (buckets.has(name)) throw r2ApiErrors.bucketExists();
  const location =
    locationHint === undefined ? homeLocation(jurisdiction) : ((locationHint as string).toLowerCase() as Location);
  const bucket = r2.create(name, (storage) => svc.newBucket(storageClass ?? 'Standard', storage), {
    jurisdiction,
    location,
  });
  if (typeof bucket === 'string') throw r2ApiErrors.bucketExists(); // checked above: the name was taken meanwhile
  return ok(presentBucket(account, name, jurisdiction));
};

const getBucket: Handler<R2Service> = (svc, req, params) => {
  const { name, jurisdiction } = namedBucket(svc, req, params);
  return ok(presentBucket(params.account ?? svc.account, name, jurisdiction));
};

/**
 * `PATCH /r2/buckets/{name}` with the new default storage class in the `cf-r2-storage-class`
 * header and no body (wrangler's `updateR2BucketStorageClass`; SDK `BucketEditParams`). Objects
 * already stored keep theirs; later puts without a class take the new one.
 */
const editBucket: Handler<R2Service> = async (svc, req, params) => {
  const { name, bucket, jurisdiction } = namedBucket(svc, req, params);
  const storageClass = req.headers.get('cf-r2-storage-class');
  if (!isStorageClass(storageClass)) throw r2ApiErrors.malformed();
  await changeSettings(bucket, 'putBucketStorageClass', (c) => (c.storageClass = storageClass));
  return ok(presentBucket(params.account ?? svc.account, name, jurisdiction));
};

/**
 * `DELETE /r2/buckets/{name}`: refused with 10008 while the bucket holds an object or an unfinished
 * upload (the SDK's doc comment: "The bucket must have no objects, no in-progress multipart
 * uploads"); otherwise the bucket and its configuration go, and the name is free again.
 */
const deleteBucket: Handler<R2Service> = async (svc, req, params) => {
  const { name, jurisdiction } = namedBucket(svc, req, params);
  // The account's R2 backend deletes it (its settings cleared through its layer, the name free).
  const { r2 } = addressedBuckets(svc, req, params);
  const refused = await settingCall(r2.delete(name, 'api', jurisdiction));
  if (refused === 'notEmpty') throw r2ApiErrors.bucketNotEmpty();
  if (refused === 'missing') throw r2ApiErrors.noSuchBucket();
  return ok({});
};
