/**
 * R2's storage figures: the account-level metrics route, `GET /accounts/{id}/r2/metrics`
 * (`r2-get-account-level-metrics`, cloudflare/api-schemas 2026-08-14; the SDK's
 * `r2.buckets.metrics.list`), and the one GraphQL query of R2's the double answers.
 *
 * The metrics route answers `r2_account_level_metrics`: for each storage class (`standard`,
 * `infrequentAccess`), `published` (the objects) and `uploaded` (the parts of multipart uploads not
 * yet completed: our reading of "what state they are in (uploaded or published)", which the schema
 * does not define further), each `{ objects, payloadSize, metadataSize }`, summed over every bucket
 * of the account in every jurisdiction (the route takes no jurisdiction). An upload counts once in
 * `objects`, its parts' bytes in `payloadSize`, in the class it was started with. The figures are
 * the buckets' now, where production's "may not immediately reflect the latest data".
 *
 * The GraphQL query is `r2StorageAdaptiveGroups`, which
 * `wrangler r2 bucket info` POSTs to `/graphql` for a bucket's object count and size (wrangler
 * 4.86.0 `getR2BucketMetrics`: it reads `data.viewer.accounts[0].r2StorageAdaptiveGroups[0].max`
 * {objectCount, payloadSize, metadataSize}). The figures are the bucket's now, from its objects,
 * where production's are sampled (an hourly-ish storage analytics series). The filter's `bucketName`
 * is `<jurisdiction>_<name>` outside the default jurisdiction, as wrangler writes it.
 *
 * `metadataSize` is not documented; the double counts each object's key and custom metadata in
 * UTF-8 bytes (our reading). Any other GraphQL query gets GraphQL's own error shape, not the v4
 * envelope: the analytics API is a GraphQL server.
 */
import { isJurisdiction, R2 } from '../bucket/backend.js';
import { ok } from '../api/envelope.js';
import { canSeeAccount } from '../api/auth.js';
import { json } from '../api/envelope.js';
import type { Handler, RouteTable } from '../api/router.js';
import { bucketLayer } from '../bucket/internal.js';
import { utf8Length } from '../bytes.js';
import type { R2Service } from './service.js';

export const graphqlRoutes: RouteTable<R2Service> = (segments) =>
  segments.length === 1 && segments[0] === 'graphql' ? { methods: { POST: graphql } } : undefined;

const graphqlError = (message: string) =>
  json(200, { data: null, errors: [{ message, path: null, extensions: { code: 'bad_request' } }] });

const graphql: Handler<R2Service> = async (svc, req, { who }) => {
  let body: { query?: unknown; variables?: Record<string, unknown> };
  try {
    body = JSON.parse(await req.text());
  } catch {
    return graphqlError('failed to parse the request body');
  }
  if (typeof body?.query !== 'string' || !body.query.includes('r2StorageAdaptiveGroups')) {
    return graphqlError(
      'edge-doubles answers only the r2StorageAdaptiveGroups query (what wrangler r2 bucket info asks)',
    );
  }
  const vars = body.variables ?? {};
  const account = svc.account;
  const groups: unknown[] = [];
  const filter = (vars.filter ?? {}) as Record<string, unknown>;
  const seen = vars.accountTag === account.id && canSeeAccount(who, account);
  if (seen && typeof filter.bucketName === 'string') {
    const full = filter.bucketName;
    const underscore = full.indexOf('_');
    const prefix = underscore > 0 ? full.slice(0, underscore) : '';
    const [jurisdiction, name] = isJurisdiction(prefix)
      ? [prefix, full.slice(underscore + 1)]
      : (['default', full] as const);
    const bucket = account.backend(R2).buckets(jurisdiction).get(name);
    if (bucket) {
      const totals = await storageTotals(bucket);
      groups.push({ max: totals, dimensions: { datetime: new Date(svc.now()).toISOString() } });
    }
  }
  return json(200, { data: { viewer: { accounts: seen ? [{ r2StorageAdaptiveGroups: groups }] : [] } }, errors: null });
};

/** Counts, bytes and metadata bytes of one class and state (`r2_object_size_metrics`). */
interface SizeMetrics {
  objects: number;
  payloadSize: number;
  metadataSize: number;
}

const noSizes = (): SizeMetrics => ({ objects: 0, payloadSize: 0, metadataSize: 0 });

/** Metadata bytes of an object or upload: its key and custom metadata in UTF-8 (our reading, see above). */
function metadataBytes(key: string, custom: readonly (readonly [string, string])[]): number {
  let n = utf8Length(key);
  for (const [k, v] of custom) n += utf8Length(k) + utf8Length(v);
  return n;
}

/** A bucket's objects by storage class, walking its listing page by page (reads of the layer: not calls a client made, so neither logged nor faulted). */
async function publishedTotals(bucket: object, add: (storageClass: string, size: number, metadata: number) => void) {
  const layer = bucketLayer(bucket)!;
  let cursor: string | undefined;
  do {
    const page = await layer.list({ limit: 1000, prefix: '', ...(cursor ? { cursor } : {}) });
    for (const o of page.objects) add(o.storageClass, o.size, metadataBytes(o.key, o.custom));
    cursor = page.cursor;
  } while (cursor !== undefined);
}

/** Object count, bytes stored and metadata bytes of a bucket (the GraphQL query's figures). */
async function storageTotals(bucket: object) {
  const t = noSizes();
  await publishedTotals(bucket, (_class, size, metadata) => {
    t.objects++;
    t.payloadSize += size;
    t.metadataSize += metadata;
  });
  return { objectCount: t.objects, payloadSize: t.payloadSize, metadataSize: t.metadataSize };
}

/** `GET /accounts/{id}/r2/metrics`: every bucket of the account, every jurisdiction (see above). */
const accountMetrics: Handler<R2Service> = async (svc, _req, params) => {
  const account = params.account ?? svc.account;
  const figures = {
    standard: { published: noSizes(), uploaded: noSizes() },
    infrequentAccess: { published: noSizes(), uploaded: noSizes() },
  };
  const of = (storageClass: string) =>
    storageClass === 'InfrequentAccess' ? figures.infrequentAccess : figures.standard;
  const buckets = account.backend(R2).all();
  for (const bucket of buckets) {
    await publishedTotals(bucket, (storageClass, size, metadata) => {
      const m = of(storageClass).published;
      m.objects++;
      m.payloadSize += size;
      m.metadataSize += metadata;
    });
    const layer = bucketLayer(bucket)!;
    for (const u of await layer.activeUploads()) {
      const upload = await layer.activeUpload(u.key, u.uploadId);
      if (!upload) continue;
      const m = of(u.metadata.storageClass).uploaded;
      m.objects++;
      for (const p of upload.parts) m.payloadSize += p.size;
      m.metadataSize += metadataBytes(u.key, u.metadata.custom);
    }
  }
  return ok(figures);
};

/** The account-level metrics route's methods (routes.ts finds its path). */
export const accountMetricsRoute = { GET: accountMetrics };
