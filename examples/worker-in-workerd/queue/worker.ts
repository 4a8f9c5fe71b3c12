/**
 * A jobs Worker, the shape of workers-sdk's Vitest Queues example: `POST /<key>` puts a job on
 * queue `jobs` and answers 202 at once; the Worker's `queue` handler does the job (the value in
 * capitals) and writes the result to bucket `RESULTS` under the key; `GET /<key>` reads it back,
 * 404 until the job is done.
 */
import type { R2BucketLike } from 'edge-doubles/bucket';
import type { MessageBatch, Queue } from 'edge-doubles/queue'; // in a Worker: workers-types' Queue and MessageBatch

export interface Job {
  key: string;
  value: string;
}

export interface Env {
  JOBS: Queue<Job>;
  RESULTS: R2BucketLike;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const key = new URL(request.url).pathname.slice(1);
    if (request.method === 'POST') {
      await env.JOBS.send({ key, value: await request.text() });
      return new Response('Accepted', { status: 202 });
    }
    const result = await env.RESULTS.get(key);
    return result === null ? new Response('Not Found', { status: 404 }) : new Response(await result.text());
  },

  async queue(batch: MessageBatch<Job>, env: Env): Promise<void> {
    for (const message of batch.messages) {
      await env.RESULTS.put(message.body.key, message.body.value.toUpperCase());
    }
  },
};
