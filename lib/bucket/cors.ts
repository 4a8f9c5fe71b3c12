/**
 * A bucket's CORS policy (reference r2-s3-api.md §3.11): its rules, and which rule an origin, a
 * method and a list of request headers match. A setting of the bucket (DESIGN.md: the model holds
 * the bucket's configuration and its effects), so each surface that answers browsers (the S3 view
 * today, public hosts next) applies the one policy; reading and writing the rules' XML stays with
 * the S3 view (lib/s3/cors.ts).
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
export function matchCorsRule(rules: readonly CorsRule[], origin: string, method: string, requestHeaders: readonly string[]): CorsRule | undefined {
  return rules.find(
    (r) =>
      r.origins.some((o) => wildcard(o, origin)) &&
      r.methods.includes(method) &&
      requestHeaders.every((h) => r.headers.some((a) => wildcard(a, h, true))),
  );
}
