/**
 * A bucket's CORS policy over the API: `GET`/`PUT`/`DELETE /accounts/{id}/r2/buckets/{name}/cors`
 * (docs r2/buckets/cors, docs/sources/r2-api.md#cors; the SDK's `r2.buckets.cors`, wrangler's `r2
 * bucket cors list|set|delete`). The rules are the bucket's one policy (lib/bucket/cors.ts, in its
 * configuration), which the S3 view's PutBucketCors/GetBucketCors/DeleteBucketCors read and write
 * too: this file only maps the API's JSON rule onto it and back.
 *
 * The API's rule ↔ the policy's rule:
 *   `id` ↔ `id`; `allowed.origins` ↔ `origins`; `allowed.methods` ↔ `methods`;
 *   `allowed.headers` ↔ `headers` (the S3 view's AllowedHeader); `exposeHeaders` ↔ `expose`
 *   (ExposeHeader); `maxAgeSeconds` ↔ `maxAge` (MaxAgeSeconds).
 * Empty lists are left out of an answer, as the S3 view leaves out empty elements.
 */
import { ok } from '../api/envelope.js';
import { CORS_METHODS, frozenCorsRules, oneWildcardAtMost, type CorsRule } from '../bucket/cors.js';
import { carriable } from '../fetch.js';
import type { Incoming } from '../api/router.js';
import type { R2Table } from './routes.js';
import { jsonObject } from './rules-body.js';
import { namedBucket, type R2Service } from './service.js';
import type { RouteParams } from '../api/router.js';
import { r2ApiErrors } from './errors.js';
import { changeSettings, readSettings } from './settings.js';

/** The API's bound on `maxAgeSeconds` (the SDK's CORSUpdateParams: "maximum 86400"). */
const MAX_AGE_SECONDS = 86400;

/** The API's rule, as the SDK types it (`CORSGetResponse.Rule`). */
interface ApiCorsRule {
  id?: string;
  allowed: { origins: string[]; methods: string[]; headers?: string[] };
  exposeHeaders?: string[];
  maxAgeSeconds?: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/**
 * The policy a PUT body describes, or undefined when it is not one. Everything off is the API's
 * 10040 "The JSON you provided was not well formed.": that is the answer workers-sdk#8486 records
 * for an S3-shaped rule (`AllowedOrigins`... inside `rules`, so no `allowed`), and the answer the
 * API gives a value outside an enum (wrangler's tests, docs/sources/r2-api.md#buckets). Fields the
 * API does not know are ignored, as a JSON decoder does by default (our reading: not established);
 * what is required (each rule's `allowed.origins` and `allowed.methods`) must be there; `rules`
 * itself is optional. The checks on values are the policy's (CORS_METHODS, one wildcard per origin,
 * expose headers a header can carry), so a rule the S3 view refuses is refused here too.
 */
function corsRulesFromJson(body: unknown): CorsRule[] | undefined {
  // `rules` is optional (the schema; the SDK's `CORSUpdateParams.rules?`): absent, the policy has no
  // rules. A body with other top-level keys (S3's `CORSRules`) is refused: workers-sdk PR #12456
  // reports the API's 10040 for it, so `{}` means "no rules" but a misnamed list is not taken as one.
  if (!isRecord(body) || (body.rules !== undefined && !Array.isArray(body.rules))) return undefined;
  if (Object.keys(body).some((k) => k !== 'rules')) return undefined;
  const rules: CorsRule[] = [];
  for (const r of (body.rules ?? []) as unknown[]) {
    if (!isRecord(r) || !isRecord(r.allowed)) return undefined;
    const { origins, methods, headers = [] } = r.allowed;
    const expose = r.exposeHeaders ?? [];
    const age = r.maxAgeSeconds;
    if (!strings(origins) || !strings(methods) || !strings(headers) || !strings(expose)) return undefined;
    if (origins.length === 0 || methods.length === 0) return undefined;
    if (!methods.every((m) => CORS_METHODS.has(m)) || !origins.every(oneWildcardAtMost) || !expose.every(carriable))
      return undefined;
    if (age !== undefined && (typeof age !== 'number' || !Number.isInteger(age) || age < 0 || age > MAX_AGE_SECONDS))
      return undefined;
    if (r.id !== undefined && typeof r.id !== 'string') return undefined;
    rules.push({
      ...(r.id !== undefined ? { id: r.id } : {}),
      origins,
      methods,
      headers,
      expose,
      ...(age !== undefined ? { maxAge: age } : {}),
    });
  }
  return rules;
}

/** A policy's rule as the API shows it. */
function corsRuleToJson(r: CorsRule): ApiCorsRule {
  return {
    ...(r.id !== undefined ? { id: r.id } : {}),
    allowed: {
      origins: [...r.origins],
      methods: [...r.methods],
      ...(r.headers.length ? { headers: [...r.headers] } : {}),
    },
    ...(r.expose.length ? { exposeHeaders: [...r.expose] } : {}),
    ...(r.maxAge !== undefined ? { maxAgeSeconds: r.maxAge } : {}),
  };
}

const bucketOf = (svc: R2Service, req: Incoming, params: RouteParams) => namedBucket(svc, req, params).bucket;

const methods = {
  /** 404 10059 while the bucket has no policy (docs/sources/r2-api.md#cors). */
  GET: async (svc: R2Service, req: Incoming, params: RouteParams) => {
    const rules = await readSettings(bucketOf(svc, req, params), 'getBucketCors', (c) => c.cors);
    if (!rules) throw r2ApiErrors.noCorsConfiguration();
    return ok({ rules: rules.map(corsRuleToJson) });
  },
  /**
   * Replaces the whole policy. The bucket is found before the body is read: a missing bucket is
   * 10006 whatever the body.
   */
  PUT: async (svc: R2Service, req: Incoming, params: RouteParams) => {
    const bucket = bucketOf(svc, req, params);
    const rules = corsRulesFromJson(await jsonObject(req));
    if (!rules) throw r2ApiErrors.malformed();
    await changeSettings(bucket, 'putBucketCors', (c) => (c.cors = frozenCorsRules(rules)));
    return ok({});
  },
  /** Clears the policy; clearing none succeeds too (our reading: the answer for a bucket without one is not established). */
  DELETE: async (svc: R2Service, req: Incoming, params: RouteParams) => {
    await changeSettings(bucketOf(svc, req, params), 'deleteBucketCors', (c) => (c.cors = undefined));
    return ok({});
  },
};

export const corsRoutes: R2Table = (rest) => (rest.length === 2 && rest[1] === 'cors' ? methods : undefined);
