/**
 * A small Worker serving a bucket over HTTP: GET with conditional and range headers, PUT with the
 * request's headers as HTTP metadata, DELETE, and a multipart upload across requests. It is written
 * against the binding's interface only; in production `env.FILES` is an R2 binding, in its tests an
 * edge-doubles `Bucket`.
 */
import type { R2BucketLike } from 'edge-doubles/bucket';

export interface Env {
  FILES: R2BucketLike;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
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
        const object = await env.FILES.put(key, request.body, { httpMetadata: request.headers, onlyIf: request.headers });
        if (object === null) return new Response('Precondition Failed', { status: 412 });
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
