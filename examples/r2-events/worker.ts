/**
 * An uploads indexer. Browsers upload to R2 directly (a presigned S3 URL from `POST /upload-url`, as
 * in examples/presigned-upload) or the Worker writes through its binding; either way R2 sends an
 * event notification to queue `uploads`, and `queue()` writes `index/<key>` (the object's size, etag
 * and line count) for a write and deletes it for a delete. A batch that throws (R2 failing the index
 * write) is retried by Queues after `retry_delay`, and dead-lettered after `max_retries`.
 */
import { AwsClient } from 'aws4fetch';
import type { R2EventNotification } from 'edge-doubles';
import type { R2BucketLike } from 'edge-doubles/bucket';
import type { MessageBatch } from 'edge-doubles/queue'; // in a Worker: workers-types' MessageBatch

export interface Env {
  PHOTOS: R2BucketLike;
  R2_S3_ENDPOINT: string;
  R2_BUCKET_NAME: string;
  R2_ACCESS_KEY_ID: string;
  R2_SECRET_ACCESS_KEY: string;
}

/** What index/<key> holds. */
export interface IndexEntry {
  size: number;
  etag: string;
  lines: number;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/upload-url') {
      const key = `uploads/${url.searchParams.get('name') ?? crypto.randomUUID()}`;
      const target = new URL(`${env.R2_S3_ENDPOINT}/${env.R2_BUCKET_NAME}/${key}`);
      target.searchParams.set('X-Amz-Expires', '600');
      const r2 = new AwsClient({
        accessKeyId: env.R2_ACCESS_KEY_ID,
        secretAccessKey: env.R2_SECRET_ACCESS_KEY,
        service: 's3',
        region: 'auto',
      });
      const signed = await r2.sign(new Request(target, { method: 'PUT' }), { aws: { signQuery: true } });
      return Response.json({ key, url: signed.url });
    }
    return new Response('Not Found', { status: 404 });
  },

  async queue(batch: MessageBatch<R2EventNotification>, env: Env): Promise<void> {
    for (const message of batch.messages) {
      const { action, object } = message.body;
      const indexKey = `index/${object.key}`;
      if (action === 'DeleteObject' || action === 'LifecycleDeletion') {
        await env.PHOTOS.delete(indexKey);
        continue;
      }
      // The object may have changed or gone since the event: index what is there now.
      const source = await env.PHOTOS.get(object.key);
      if (source === null) continue;
      const text = await source.text();
      const entry: IndexEntry = { size: source.size, etag: source.etag, lines: text.split('\n').length };
      await env.PHOTOS.put(indexKey, JSON.stringify(entry)); // a failure here throws: the whole batch is retried
    }
    // Returning acks every message (Queues' implicit ack).
  },
};
