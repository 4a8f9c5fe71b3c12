/**
 * A small Worker serving a bucket over HTTP: GET with conditional and range headers, PUT with the
 * request's headers as HTTP metadata (retried once R2 says "Please try again"), DELETE, and a
 * multipart upload across requests. Uploading a site's `index.html` (`/sites/<site>/index.html`)
 * publishes the site: a proxied CNAME `<site>.<zone>` pointing at the Worker's own host, made
 * through the official `cloudflare` SDK after the response (`ctx.waitUntil`). It is written
 * against the interfaces only: in production `env.FILES` is an R2 binding and the SDK talks to
 * api.cloudflare.com; in its tests `env.FILES` is an edge-doubles `Bucket` and the SDK's fetch
 * reaches a `DnsApi`.
 */
import Cloudflare, { BadRequestError } from 'cloudflare';
import type { R2BucketLike } from 'edge-doubles/bucket';

// README: worker-env
export interface Env {
  // In your Worker: R2Bucket, from @cloudflare/workers-types (a Bucket is assignable to it). This
  // repository compiles its examples with the DOM's types, whose Headers are not workers-types'
  // Headers; R2BucketLike is the same binding interface written against the platform's types.
  FILES: R2BucketLike;
  /** [vars] in wrangler.toml: the zone sites are published in, and the host their CNAMEs name. */
  ZONE_ID: string;
  ORIGIN: string;
  /** A secret (`wrangler secret put CLOUDFLARE_API_TOKEN`): a token with DNS edit on the zone. */
  CLOUDFLARE_API_TOKEN: string;
}

/** In your Worker: ExecutionContext, from @cloudflare/workers-types (the part this Worker uses). */
export interface Ctx {
  waitUntil(promise: Promise<unknown>): void;
}
// README: end

/** R2's internal error (10001) asks to try again; any other error is the answer. */
const TRANSIENT = /\(10001\)$/;
const ATTEMPTS = 3;

async function putWithRetry(bucket: R2BucketLike, key: string, body: ArrayBuffer, headers: Headers) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await bucket.put(key, body, { httpMetadata: headers, onlyIf: headers });
    } catch (e) {
      if (attempt === ATTEMPTS || !TRANSIENT.test((e as Error).message)) throw e;
    }
  }
}

/** Points `<site>.<zone>` at the Worker; publishing again finds the record there and is done. */
async function publishSite(env: Env, site: string): Promise<void> {
  const cloudflare = new Cloudflare({ apiToken: env.CLOUDFLARE_API_TOKEN });
  try {
    await cloudflare.dns.records.create({
      zone_id: env.ZONE_ID,
      type: 'CNAME',
      name: site,
      content: env.ORIGIN,
      proxied: true,
      ttl: 1,
    });
  } catch (e) {
    // 81058: an identical record already exists, so the site is already published.
    if (!(e instanceof BadRequestError && e.errors.some((error) => error.code === 81058))) throw e;
  }
}

export default {
  async fetch(request: Request, env: Env, ctx: Ctx): Promise<Response> {
    const url = new URL(request.url);
    const key = decodeURIComponent(url.pathname.slice(1));
    switch (request.method) {
      case 'GET': {
        const object = await env.FILES.get(key, { onlyIf: request.headers, range: request.headers });
        if (object === null) return new Response('Not Found', { status: 404 });
        const headers = new Headers({ etag: object.httpEtag });
        object.writeHttpMetadata(headers);
        if (!('body' in object)) return new Response(null, { status: 304, headers });
        const partial = object.range && 'length' in object.range && object.range.length !== object.size;
        return new Response(object.body, { status: partial ? 206 : 200, headers });
      }
      case 'PUT': {
        // Read once into memory: a request's body stream cannot be sent a second time on a retry.
        const body = await request.arrayBuffer();
        let object;
        try {
          object = await putWithRetry(env.FILES, key, body, request.headers);
        } catch (e) {
          return new Response((e as Error).message, { status: 503 });
        }
        if (object === null) return new Response('Precondition Failed', { status: 412 });
        const site = /^sites\/([a-z0-9-]+)\/index\.html$/.exec(key)?.[1];
        // The upload is answered at once; the DNS record is made after the response.
        if (site !== undefined) ctx.waitUntil(publishSite(env, site));
        return new Response(null, { status: 201, headers: { etag: object.httpEtag } });
      }
      case 'DELETE':
        await env.FILES.delete(key);
        return new Response(null, { status: 204 });
      case 'POST': {
        // ?uploads starts an upload; ?uploadId=…&partNumber=… adds a part; ?uploadId=… completes.
        const uploadId = url.searchParams.get('uploadId');
        if (url.searchParams.has('uploads')) {
          const upload = await env.FILES.createMultipartUpload(key, { httpMetadata: request.headers });
          return Response.json({ uploadId: upload.uploadId });
        }
        if (uploadId === null) return new Response('Bad Request', { status: 400 });
        const upload = env.FILES.resumeMultipartUpload(key, uploadId);
        const partNumber = url.searchParams.get('partNumber');
        try {
          if (partNumber !== null) {
            return Response.json(await upload.uploadPart(Number(partNumber), await request.arrayBuffer()));
          }
          const object = await upload.complete(await request.json());
          return new Response(null, { status: 201, headers: { etag: object.httpEtag } });
        } catch (e) {
          // R2's errors carry their code in the message: "(10024)" is an upload that no longer exists.
          const message = (e as Error).message;
          return new Response(message, { status: message.endsWith('(10024)') ? 404 : 400 });
        }
      }
      default:
        return new Response('Method Not Allowed', { status: 405 });
    }
  },
};
