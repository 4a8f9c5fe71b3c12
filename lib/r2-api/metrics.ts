/**
 * The one GraphQL query of R2's the double answers: `r2StorageAdaptiveGroups`, which
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
import { bucketsIn, isJurisdiction } from '../account/buckets.js';
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
    const bucket = bucketsIn(account, jurisdiction).get(name);
    if (bucket) {
      const totals = await storageTotals(bucket);
      groups.push({ max: totals, dimensions: { datetime: new Date(svc.now()).toISOString() } });
    }
  }
  return json(200, { data: { viewer: { accounts: seen ? [{ r2StorageAdaptiveGroups: groups }] : [] } }, errors: null });
};

/** Object count, bytes stored and metadata bytes, by walking the bucket's listing page by page. */
async function storageTotals(bucket: Parameters<typeof bucketLayer>[0]) {
  const layer = bucketLayer(bucket)!;
  let objectCount = 0;
  let payloadSize = 0;
  let metadataSize = 0;
  let cursor: string | undefined;
  do {
    const page = await layer.list({ limit: 1000, prefix: '', ...(cursor ? { cursor } : {}) });
    for (const o of page.objects) {
      objectCount++;
      payloadSize += o.size;
      metadataSize += utf8Length(o.key);
      for (const [k, v] of o.custom) metadataSize += utf8Length(k) + utf8Length(v);
    }
    cursor = page.cursor;
  } while (cursor !== undefined);
  return { objectCount, payloadSize, metadataSize };
}
