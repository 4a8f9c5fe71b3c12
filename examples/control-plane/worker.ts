/**
 * A Worker that stores uploads in the bucket its deploy script makes with wrangler
 * (`wrangler r2 bucket create uploads --storage-class InfrequentAccess`): `PUT /<key>` stores the
 * body and answers the storage class the bucket gave it. Written against the binding's interface
 * only: in production `env.UPLOADS` is an R2 binding.
 */
import type { R2BucketLike } from 'edge-doubles/bucket';

export interface Env {
  UPLOADS: R2BucketLike;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const key = new URL(request.url).pathname.slice(1);
    if (request.method !== 'PUT' || key === '') return new Response('PUT /<key>', { status: 405 });
    const stored = await env.UPLOADS.put(key, await request.arrayBuffer());
    return Response.json({ key: stored!.key, storageClass: stored!.storageClass }, { status: 201 });
  },
};
