/**
 * Bucket CORS in the S3 view (docs r2/buckets/cors, docs/sources/r2-s3.md#cors): PutBucketCors /
 * GetBucketCors / DeleteBucketCors, preflights (OPTIONS, unauthenticated, as browsers send them)
 * and the CORS headers of actual requests, which R2 adds only when the request's Origin matches a
 * rule. The rules and their matching are the bucket's (lib/bucket/cors.ts, kept in its
 * configuration); this reads and writes them as S3 does.
 *
 * R2's error texts for CORS are not established; AWS's are used (NoSuchCORSConfiguration,
 * AccessForbidden for a refused preflight). R2 refuses unknown XML elements in a configuration
 * (release notes 2022-11-30), as this does.
 */
import { S3Error, s3Errors } from './errors.js';
import { parseXml } from './xml.js';
import { xmlResponse } from './context.js';
import { carriable } from '../fetch.js';
import { CORS_METHODS, oneWildcardAtMost, preflightHeaders, requestedHeaders, type CorsRule } from '../bucket/cors.js';

export type { CorsRule };
export { withCorsHeaders } from '../bucket/cors.js';
const RULE_FIELDS = new Set(['ID', 'AllowedOrigin', 'AllowedMethod', 'AllowedHeader', 'ExposeHeader', 'MaxAgeSeconds']);

const list = (v: unknown): string[] | undefined => {
  const items = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return items.every((x) => typeof x === 'string') ? (items as string[]).map((s) => s.trim()) : undefined;
};

/** A CORSConfiguration document, validated; MalformedXML for anything off. */
export async function parseCorsConfiguration(text: string): Promise<CorsRule[]> {
  const doc = await parseXml(text);
  const root = doc?.CORSConfiguration;
  if (!root || typeof root !== 'object') throw s3Errors.malformedXml();
  const raw = (root as Record<string, unknown>).CORSRule;
  const rules = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  if (rules.length === 0 || rules.length > 100) throw s3Errors.malformedXml();
  return rules.map((r) => {
    if (!r || typeof r !== 'object') throw s3Errors.malformedXml();
    const rec = r as Record<string, unknown>;
    for (const k of Object.keys(rec)) if (!RULE_FIELDS.has(k) && k !== '#text') throw s3Errors.malformedXml();
    const origins = list(rec.AllowedOrigin);
    const methods = list(rec.AllowedMethod);
    const headers = list(rec.AllowedHeader);
    const expose = list(rec.ExposeHeader);
    if (!origins?.length || !methods?.length || !headers || !expose) throw s3Errors.malformedXml();
    // Expose-headers are echoed in every matching answer: one no header can carry would turn each of
    // them into a 500, so the document is refused as malformed now (R2's and S3's answers are not established).
    if (!expose.every(carriable)) throw s3Errors.malformedXml();
    for (const m of methods) {
      if (!CORS_METHODS.has(m))
        throw new S3Error(
          400,
          'InvalidRequest',
          `Found unsupported HTTP method in CORS config. Unsupported method is ${m}`,
        );
    }
    for (const o of origins)
      if (!oneWildcardAtMost(o))
        throw new S3Error(400, 'InvalidRequest', `AllowedOrigin "${o}" can not have more than one wildcard.`);
    const age = typeof rec.MaxAgeSeconds === 'string' ? rec.MaxAgeSeconds.trim() : undefined;
    if (age !== undefined && !/^\d+$/.test(age)) throw s3Errors.malformedXml();
    return {
      ...(typeof rec.ID === 'string' ? { id: rec.ID } : {}),
      origins,
      methods,
      headers,
      expose,
      ...(age !== undefined ? { maxAge: Number(age) } : {}),
    };
  });
}

export function corsConfigurationResponse(rules: readonly CorsRule[] | undefined): Response {
  if (!rules) throw new S3Error(404, 'NoSuchCORSConfiguration', 'The CORS configuration does not exist');
  return xmlResponse('CORSConfiguration', {
    CORSRule: rules.map((r) => ({
      ...(r.id !== undefined ? { ID: r.id } : {}),
      AllowedOrigin: r.origins,
      AllowedMethod: r.methods,
      ...(r.headers.length ? { AllowedHeader: r.headers } : {}),
      ...(r.expose.length ? { ExposeHeader: r.expose } : {}),
      ...(r.maxAge !== undefined ? { MaxAgeSeconds: r.maxAge } : {}),
    })),
  });
}

/** The answer to a preflight (OPTIONS) request: the policy's headers, or S3's 403 when no rule allows it. */
export function preflight(rules: readonly CorsRule[] | undefined, headers: Headers): Response {
  const origin = headers.get('origin');
  const method = headers.get('access-control-request-method');
  if (origin === null || method === null)
    throw new S3Error(400, 'BadRequest', 'Insufficient information. Origin request header needed.');
  const out = preflightHeaders(rules, origin, method, requestedHeaders(headers.get('access-control-request-headers')));
  if (!out)
    throw new S3Error(
      403,
      'AccessForbidden',
      "CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
    );
  return new Response(null, { status: 200, headers: out });
}
