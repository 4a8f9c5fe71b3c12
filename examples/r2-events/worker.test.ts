/**
 * R2 event notifications end to end, in plain Vitest with fake timers: the bucket (through the
 * Worker's binding or a presigned S3 upload) notifies queue `uploads`, whose consumer is the
 * Worker's `queue` handler, as wrangler.toml and a notification rule set it up.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { CloudflareApi, S3Api, type Bucket } from 'edge-doubles';
import { createEnv } from 'edge-doubles/node';
import worker, { type Env, type IndexEntry } from './worker.js';

// README: r2-events
const SECRET = 'example-secret-access-key';

function setup() {
  const api = new CloudflareApi({ buckets: ['photos'] }); // the account: its buckets and queues
  // wrangler.toml's bucket and consumer, over that account; `worker.queue` consumes `uploads`.
  const { env, queues } = createEnv<Env & { PHOTOS: Bucket }>('examples/r2-events/wrangler.toml', {
    api,
    worker,
    log: true,
  });
  // What `wrangler r2 bucket notification create photos --event-type object-create object-delete --queue uploads --prefix uploads/` sets.
  api.addEventNotification('photos', {
    queue: 'uploads',
    eventTypes: ['object-create', 'object-delete'],
    prefix: 'uploads/',
  });
  const s3 = new S3Api({ api, credentials: [{ accessKeyId: env.R2_ACCESS_KEY_ID, secretAccessKey: SECRET }] }); // R2's S3 endpoint
  return {
    env: { ...env, R2_SECRET_ACCESS_KEY: SECRET },
    uploads: queues.get('uploads')!,
    dlq: queues.get('uploads-dlq')!,
    s3,
  };
}

const index = async (env: Env, key: string) => {
  const entry = await env.PHOTOS.get(`index/${key}`);
  return entry && ((await entry.json()) as IndexEntry);
};

beforeEach(() => vi.useFakeTimers({ now: Date.UTC(2030, 0, 1) }));
afterEach(() => vi.useRealTimers());

it('a put through the binding is indexed once the batch timeout passes; a delete removes the entry', async () => {
  const { env, uploads } = setup();
  const put = await env.PHOTOS.put('uploads/notes.txt', 'one\ntwo\nthree');

  await vi.advanceTimersByTimeAsync(5_000); // max_batch_timeout: the partial batch goes out
  await uploads.drain(); // and the consumer has finished with it
  expect(await index(env, 'uploads/notes.txt')).toEqual({ size: 13, etag: put!.etag, lines: 3 });
  expect(uploads).toHaveAcked({
    body: {
      action: 'PutObject',
      object: { key: 'uploads/notes.txt', size: 13, eTag: put!.etag },
      eventTime: '2030-01-01T00:00:00.000Z',
    },
  });

  await env.PHOTOS.delete('uploads/notes.txt');
  await uploads.drain(); // delivers now, without waiting for the batch timeout
  expect(await index(env, 'uploads/notes.txt')).toBeNull();
  expect(uploads).toHaveAcked({ body: { action: 'DeleteObject', object: { key: 'uploads/notes.txt' } } });
});

it('a presigned upload from the browser notifies the same queue', async () => {
  const { env, uploads, s3 } = setup();
  const handed = await worker.fetch(
    new Request('https://app.example/upload-url?name=photo.txt', { method: 'POST' }),
    env,
  );
  const { key, url } = (await handed.json()) as { key: string; url: string };
  expect((await s3.fetch(url, { method: 'PUT', body: 'from the browser' })).status).toBe(200); // s3.fetch stands in for the network

  await uploads.drain();
  expect(uploads).toHaveAcked({ body: { action: 'PutObject', object: { key } } });
  expect(await index(env, key)).toMatchObject({ size: 16, lines: 1 });
});
// README: end

it('a batch that throws is retried after retry_delay, then dead-lettered after max_retries', async () => {
  const { env, uploads, dlq } = setup();
  env.PHOTOS.faults.add({ op: 'put', key: 'index/uploads/a.txt', times: 1 }); // R2 fails the index write once
  await env.PHOTOS.put('uploads/a.txt', 'a');
  await uploads.drain();
  expect(uploads).toHaveRetried({ body: { object: { key: 'uploads/a.txt' } }, attempts: 1 });
  expect(await index(env, 'uploads/a.txt')).toBeNull();
  await vi.advanceTimersByTimeAsync(30_000); // retry_delay
  await uploads.drain();
  expect(uploads).toHaveAcked({ body: { object: { key: 'uploads/a.txt' } }, attempts: 2 });
  expect(await index(env, 'uploads/a.txt')).toMatchObject({ lines: 1 });

  env.PHOTOS.faults.add({ op: 'put', key: 'index/uploads/b.txt', times: Infinity }); // and now for good
  await env.PHOTOS.put('uploads/b.txt', 'b');
  await uploads.drain();
  for (let retry = 1; retry <= 2; retry++) {
    await vi.advanceTimersByTimeAsync(30_000);
    await uploads.drain();
  }
  expect(uploads).toHaveRetried({ body: { object: { key: 'uploads/b.txt' } }, times: 2 }); // attempts 1 and 2
  expect(uploads).toHaveDeadLettered({ body: { object: { key: 'uploads/b.txt' } }, attempts: 3 }); // max_retries = 2
  expect(await index(env, 'uploads/b.txt')).toBeNull();
  expect(dlq.pending.map((m) => m.body)).toMatchObject([{ action: 'PutObject', object: { key: 'uploads/b.txt' } }]);
});
