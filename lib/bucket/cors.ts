/**
 * A bucket's CORS policy (docs/sources/r2-s3.md#cors, docs r2/buckets/cors): its rules, and which
 * rule an origin, a method and a list of request headers match. A setting of the bucket (the model
 * holds the bucket's configuration and its effects: ARCHITECTURE.md, "The joints"), so each surface
 * that answers browsers (the S3 view, the public hosts) applies the one policy, and each surface
 * that sets rules (the S3 view's XML, lib/s3/cors.ts; the API's JSON, lib/r2-api/cors.ts) checks
 * them with the checks below, so a policy set through one is read through the other.
 */

export interface CorsRule {
  readonly id?: string;
  readonly origins: readonly string[];
  readonly methods: readonly string[];
  readonly headers: readonly string[];
  readonly expose: readonly string[];
  readonly maxAge?: number;
}

/** A copy the caller can no longer change (`setBucketCors` is given the caller's arrays). */
export const frozenCorsRules = (rules: readonly CorsRule[]): readonly CorsRule[] =>
  Object.freeze(
    rules.map((r) =>
      Object.freeze({
        ...r,
        origins: Object.freeze([...r.origins]),
        methods: Object.freeze([...r.methods]),
        headers: Object.freeze([...r.headers]),
        expose: Object.freeze([...r.expose]),
      }),
    ),
  );

/** `*` matches any run of characters (at most one in a rule); case-sensitive for origins. */
function wildcard(pattern: string, value: string, ignoreCase = false): boolean {
  const p = ignoreCase ? pattern.toLowerCase() : pattern;
  const v = ignoreCase ? value.toLowerCase() : value;
  const star = p.indexOf('*');
  if (star < 0) return p === v;
  return v.length >= p.length - 1 && v.startsWith(p.slice(0, star)) && v.endsWith(p.slice(star + 1));
}

/** The first rule allowing `origin`, `method` and every one of `requestHeaders` (lowercase). */
function matchCorsRule(
  rules: readonly CorsRule[],
  origin: string,
  method: string,
  requestHeaders: readonly string[],
): CorsRule | undefined {
  return rules.find(
    (r) =>
      r.origins.some((o) => wildcard(o, origin)) &&
      r.methods.includes(method) &&
      requestHeaders.every((h) => r.headers.some((a) => wildcard(a, h, true))),
  );
}

// ---- validation shared by every surface that sets rules (the S3 view's XML, the API's JSON) ------

/** The methods a rule may allow (R2's CORS docs and the API's enum: GET, PUT, POST, DELETE, HEAD). */
export const CORS_METHODS: ReadonlySet<string> = new Set(['GET', 'PUT', 'HEAD', 'POST', 'DELETE']);

/** An origin pattern holds at most one `*` (the matching above handles one). */
export const oneWildcardAtMost = (origin: string): boolean => origin.split('*').length <= 2;

// ---- what an answer carries (the S3 view and the public hosts apply the same policy) -------------

/**
 * The headers a preflight gets when the rules allow `origin`, `method` and every one of `requested`
 * (lowercase), or undefined when no rule does. R2's docs: CORS headers are returned only when the
 * request's Origin matches a rule exactly (docs r2/buckets/cors).
 */
export function preflightHeaders(
  rules: readonly CorsRule[] | undefined,
  origin: string,
  method: string,
  requested: readonly string[],
): Headers | undefined {
  const rule = rules && matchCorsRule(rules, origin, method, requested);
  if (!rule) return undefined;
  const out = new Headers({
    'access-control-allow-origin': origin,
    'access-control-allow-methods': rule.methods.join(', '),
    vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  });
  if (requested.length) out.set('access-control-allow-headers', requested.join(', '));
  if (rule.expose.length) out.set('access-control-expose-headers', rule.expose.join(', '));
  if (rule.maxAge !== undefined) out.set('access-control-max-age', String(rule.maxAge));
  return out;
}

/** The requested headers of a preflight (`Access-Control-Request-Headers`), lowercase. */
export const requestedHeaders = (value: string | null): string[] =>
  (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

/** An actual request's answer with the CORS headers of the rule its Origin and method match (else as it is). */
export function withCorsHeaders(
  rules: readonly CorsRule[] | undefined,
  request: { get(name: string): string | null },
  method: string,
  response: Response,
): Response {
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
