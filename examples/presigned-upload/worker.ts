/**
 * A Worker that lets browsers upload straight to R2: it hands out a presigned PUT URL for R2's S3
 * endpoint (signed with aws4fetch, as R2's docs show), and later reads the uploaded object through
 * its R2 binding. In production `env.PHOTOS` is the binding and the URL points at
 * `<account>.r2.cloudflarestorage.com`; in its tests the binding is an edge-doubles `Bucket` and
 * the S3 endpoint is an `S3Api` over that same bucket.
 */
import { AwsClient } from 'aws4fetch';
import type { R2BucketLike } from 'edge-doubles/bucket';

export interface Env {
  PHOTOS: R2BucketLike;
  /** `https://<account id>.r2.cloudflarestorage.com` */
  R2_S3_ENDPOINT: string;
  R2_BUCKET_NAME: string;
  R2_ACCESS_KEY_ID: string;
  R2_SECRET_ACCESS_KEY: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/upload-url') {
      const key = `uploads/${crypto.randomUUID()}`;
      const target = new URL(`${env.R2_S3_ENDPOINT}/${env.R2_BUCKET_NAME}/${key}`);
      target.searchParams.set('X-Amz-Expires', '600'); // ten minutes
      const r2 = new AwsClient({
        accessKeyId: env.R2_ACCESS_KEY_ID,
        secretAccessKey: env.R2_SECRET_ACCESS_KEY,
        service: 's3',
        region: 'auto',
      });
      const signed = await r2.sign(new Request(target, { method: 'PUT' }), { aws: { signQuery: true } });
      return Response.json({ key, url: signed.url });
    }
    if (request.method === 'GET' && url.pathname === '/uploaded') {
      const object = await env.PHOTOS.get(url.searchParams.get('key') ?? '');
      if (object === null) return new Response('Not Found', { status: 404 });
      return Response.json({ size: object.size, etag: object.httpEtag, text: await object.text() });
    }
    return new Response('Not Found', { status: 404 });
  },
};
