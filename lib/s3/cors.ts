/**
 * Bucket CORS in the S3 view (reference §3.11): PutBucketCors / GetBucketCors / DeleteBucketCors, preflights
 * (OPTIONS, unauthenticated, as browsers send them) and the CORS headers of actual requests, which
 * R2 adds only when the request's Origin matches a rule. The rules and their matching are the
 * bucket's (lib/bucket/cors.ts, kept in its configuration); this reads and writes them as S3 does.
 *
 * R2's error texts for CORS are not established; AWS's are used (NoSuchCORSConfiguration,
 * AccessForbidden for a refused preflight). R2 refuses unknown XML elements in a configuration
 * (release notes 2022-11-30), as this does.
 */
import { S3Error, s3Errors } from './errors.js';
import { parseXml } from './xml.js';
import { xmlResponse } from './context.js';
import { carriable } from './header-values.js';
import { matchCorsRule, type CorsRule } from '../bucket/cors.js';

export type { CorsRule };

const METHODS = new Set(['GET', 'PUT', 'HEAD', 'POST', 'DELETE']);
const RULE_FIELDS = new Set(['ID', 'AllowedOrigin', 'AllowedMethod', 'AllowedHeader', 'ExposeHeader', 'MaxAgeSeconds']);

const list = (v: unknown): string[] | undefined => {
  const items = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return items.every((x) => typeof x === 'string') ? (items as string[]).map((s) => s.trim()) : undefined;
};

/** A CORSConfiguration document, validated; MalformedXML for anything off. */
export function parseCorsConfiguration(text: string): CorsRule[] {
  const doc = parseXml(text);
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
      if (!METHODS.has(m)) throw new S3Error(400, 'InvalidRequest', `Found unsupported HTTP method in CORS config. Unsupported method is ${m}`);
    }
    for (const o of origins) if (o.split('*').length > 2) throw new S3Error(400, 'InvalidRequest', `AllowedOrigin "${o}" can not have more than one wildcard.`);
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

/** The answer to a preflight (OPTIONS) request. */
export function preflight(rules: readonly CorsRule[] | undefined, headers: Headers): Response {
  const origin = headers.get('origin');
  const method = headers.get('access-control-request-method');
  if (origin === null || method === null) throw new S3Error(400, 'BadRequest', 'Insufficient information. Origin request header needed.');
  const requested = (headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const rule = rules && matchCorsRule(rules, origin, method, requested);
  if (!rule) throw new S3Error(403, 'AccessForbidden', 'CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource\'s CORS spec.');
  const out = new Headers({
    'access-control-allow-origin': origin,
    'access-control-allow-methods': rule.methods.join(', '),
    vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  });
  if (requested.length) out.set('access-control-allow-headers', requested.join(', '));
  if (rule.expose.length) out.set('access-control-expose-headers', rule.expose.join(', '));
  if (rule.maxAge !== undefined) out.set('access-control-max-age', String(rule.maxAge));
  return new Response(null, { status: 200, headers: out });
}

/** CORS headers on an actual request's answer, when its Origin and method match a rule. */
export function withCorsHeaders(rules: readonly CorsRule[] | undefined, request: Headers, method: string, response: Response): Response {
  const origin = request.get('origin');
  if (!rules || origin === null) return response;
  const rule = matchCorsRule(rules, origin, method, []);
  if (!rule) return response;
  const h = new Headers(response.headers);
  h.set('access-control-allow-origin', origin);
  h.append('vary', 'Origin');
  if (rule.expose.length) h.set('access-control-expose-headers', rule.expose.join(', '));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: h });
}
