/**
 * One public bucket's answer to a request at its host (r2.dev or a custom domain), as R2's public
 * endpoint answers: GET and HEAD of `/<key>`, ranges, conditional requests, the object's HTTP
 * metadata as headers, and CORS by the bucket's policy (lib/bucket/cors.ts).
 *
 * Production's answers are not documented. They follow Miniflare's public bucket worker
 * (workers-sdk `packages/miniflare/src/workers/r2/public.worker.ts` and `serve.worker.ts`, as
 * shipped in miniflare 4 here), whose author checked them against r2.dev (workers-sdk#14323: "I
 * observed these behaviors against r2.dev"):
 * - a missing object (and a path with no key) is `404` with the text `404 Not Found`;
 * - a method other than GET, HEAD (and a preflight) is `401` with no body;
 * - a malformed or inverted Range is `400`, an unsatisfiable one (`bytes=-0`, a start past the end,
 *   any range of an empty object) `416`, both with no body, the malformed ones before the object is
 *   looked up;
 * - If-None-Match / If-Modified-Since → `304` with the object's headers; If-Match /
 *   If-Unmodified-Since failing → `412` with no body;
 * - headers: the object's httpMetadata (Content-Type defaulting to application/octet-stream),
 *   ETag (quoted), Last-Modified, Accept-Ranges, Content-Length, Content-Range on a 206.
 * Where we differ from the simulator, on purpose: CORS follows the bucket's policy (R2's docs:
 * the rules apply to public buckets, docs r2/buckets/cors), where Miniflare allows every
 * origin; a preflight no rule allows is `403` with no body (production's answer is not
 * established: what a browser acts on is the missing Access-Control-Allow-Origin); an object
 * written with SSE-C is `400` with no body (not established; the simulator has no SSE-C).
 *
 * Reads go through the bucket's layer (`viaPublic`): the bucket's call log records them (surface
 * `public`) and its fault rules apply, as for the binding and the S3 view.
 */
import type { BucketLayer } from '../bucket/layer.js';
import type { StoredObject } from '../bucket/stored.js';
import type { ResolvedRange } from '../bucket/range.js';
import { preflightHeaders, requestedHeaders, withCorsHeaders } from '../bucket/cors.js';
import { carriable } from '../fetch.js';
import { concat } from '../bytes.js';
import { evaluateRead, readConditional } from '../s3/conditions.js';

/** A refusal decided inside the read: its status, and the headers it carries (304's). */
class Refusal {
  constructor(
    readonly status: number,
    readonly headers?: Headers,
  ) {}
}

/** The answer for a missing object, and for a host that serves no bucket (public-buckets.ts). */
export const notFound = () =>
  // Hono's default not-found answer, which Miniflare's public worker gives (see above).
  new Response('404 Not Found', { status: 404, headers: { 'content-type': 'text/plain; charset=UTF-8' } });

const RANGE = /^bytes=(?:(\d+)-(\d+)?|-(\d+))$/;

type ParsedRange = { start: number; end?: number } | { suffix: number };

/** A Range header as the public endpoint reads it: one range; anything else is refused before the lookup. */
function parseRange(value: string): ParsedRange | Refusal {
  const m = RANGE.exec(value);
  if (!m) return new Refusal(400);
  const [, start, end, suffix] = m;
  if (start === undefined) return Number(suffix) === 0 ? new Refusal(416) : { suffix: Number(suffix) };
  if (end !== undefined && Number(start) > Number(end)) return new Refusal(400);
  return end === undefined ? { start: Number(start) } : { start: Number(start), end: Number(end) };
}

function resolve(range: ParsedRange, size: number): ResolvedRange | undefined {
  if ('suffix' in range) {
    if (size === 0) return undefined;
    const length = Math.min(range.suffix, size);
    return { offset: size - length, length };
  }
  if (size === 0 || range.start >= size) return undefined;
  const last = range.end === undefined ? size - 1 : Math.min(range.end, size - 1);
  return { offset: range.start, length: last - range.start + 1 };
}

/**
 * The object's headers as the public endpoint writes them (`writeHttpMetadata`, then ETag,
 * Last-Modified, Accept-Ranges); the API's object GET writes the same (lib/r2-api/objects.ts).
 */
export function objectHeaders(o: StoredObject): Headers {
  const h = new Headers();
  // A value no header can carry (written through the binding) is left out rather than failing the answer.
  const set = (name: string, v: string | undefined) => v !== undefined && carriable(v) && h.set(name, v);
  set('content-type', o.http.contentType ?? 'application/octet-stream');
  set('content-language', o.http.contentLanguage);
  set('content-disposition', o.http.contentDisposition);
  set('content-encoding', o.http.contentEncoding);
  set('cache-control', o.http.cacheControl);
  if (o.http.cacheExpiry !== undefined) h.set('expires', new Date(o.http.cacheExpiry).toUTCString());
  h.set('etag', `"${o.etag}"`);
  h.set('last-modified', new Date(o.uploaded).toUTCString());
  h.set('accept-ranges', 'bytes');
  return h;
}

interface Plan {
  readonly status: number;
  readonly headers: Headers;
  readonly read?: ResolvedRange;
}

/** GET or HEAD of `key`: decided from the object inside the read's transaction. */
async function read(layer: BucketLayer, key: string, request: Request, head: boolean): Promise<Response> {
  const rangeHeader = request.headers.get('range');
  const range = rangeHeader === null ? undefined : parseRange(rangeHeader);
  if (range instanceof Refusal) return new Response(null, { status: range.status });
  const cond = readConditional(request.headers);
  let outcome;
  try {
    outcome = await layer.viaPublic(head ? 'head' : 'get', key, () =>
      layer.read(key, (object): Plan => {
        if (!object) throw new Refusal(404);
        // An object written with SSE-C is not served without its key, which a public host has no way
        // to take; production's answer is not established: 400 with no body (the S3 view's status
        // for a read without the key) is our choice.
        if (object.ssecKeyMd5 !== undefined) throw new Refusal(400);
        const headers = objectHeaders(object);
        const verdict = evaluateRead(cond, object);
        if (verdict === 'failed') throw new Refusal(412);
        if (verdict === 'not-modified') throw new Refusal(304, headers);
        let served: ResolvedRange = { offset: 0, length: object.size };
        let status = 200;
        if (range) {
          const r = resolve(range, object.size);
          if (!r) throw new Refusal(416);
          served = r;
          status = 206;
          headers.set('content-range', `bytes ${r.offset}-${r.offset + r.length - 1}/${object.size}`);
        }
        headers.set('content-length', String(served.length));
        return head || served.length === 0 ? { status, headers } : { status, headers, read: served };
      }),
    );
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    if (e.status === 404) return notFound();
    return new Response(null, { status: e.status, headers: e.headers });
  }
  const { plan, bytes } = outcome;
  if (!bytes) return new Response(null, { status: plan.status, headers: plan.headers });
  return new Response(await bodyOf(bytes, plan.read!.length), { status: plan.status, headers: plan.headers });
}

/** One buffer from the bytes read (a stream pulled from the storage, on a persistent one). */
async function bodyOf(
  bytes: NonNullable<Awaited<ReturnType<BucketLayer['bytes']>>>,
  length: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (bytes.kind === 'chunks')
    return (bytes.chunks.length === 1 ? bytes.chunks[0]! : concat(bytes.chunks, length)) as Uint8Array<ArrayBuffer>;
  const chunks: Uint8Array[] = [];
  for (let it = bytes.pieces(), next = await it.next(); !next.done; next = await it.next()) chunks.push(next.value);
  return concat(chunks, length) as Uint8Array<ArrayBuffer>;
}

/** The key a path names: percent-decoded once; a sequence that does not decode is kept as written (as Hono's path reading does). */
function keyOf(pathname: string): string {
  const raw = pathname.slice(1);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A public bucket's answer to `request` (already routed to it by its host). */
export async function servePublic(layer: BucketLayer, request: Request): Promise<Response> {
  const method = request.method.toUpperCase();
  const cors = layer.config.cors;
  if (
    method === 'OPTIONS' &&
    request.headers.get('origin') !== null &&
    request.headers.get('access-control-request-method') !== null
  ) {
    const headers = preflightHeaders(
      cors,
      request.headers.get('origin')!,
      request.headers.get('access-control-request-method')!,
      requestedHeaders(request.headers.get('access-control-request-headers')),
    );
    return new Response(null, { status: headers ? 200 : 403, ...(headers ? { headers } : {}) });
  }
  let response: Response;
  if (method !== 'GET' && method !== 'HEAD') response = new Response(null, { status: 401 });
  else {
    const key = keyOf(new URL(request.url).pathname);
    response = key === '' ? notFound() : await read(layer, key, request, method === 'HEAD');
  }
  return cors ? withCorsHeaders(cors, request.headers, method, response) : response;
}
