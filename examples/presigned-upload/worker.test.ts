import { describe, expect, it } from 'vitest';
import { Bucket } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import worker, { type Env } from './worker.js';

describe('presigned uploads', () => {
  // README: presigned-upload
  // One bucket seen two ways: as the Worker's binding (env.PHOTOS) and through R2's S3 endpoint
  // (r2), which accepts the key pair the Worker signs with. `clock` is r2's time (default: the real one).
  function setup(clock?: () => number) {
    const photos = new Bucket();
    const credentials = { accessKeyId: 'test-access-key-id', secretAccessKey: 'test-secret-access-key' };
    const r2 = new S3Api({ buckets: { photos }, credentials: [credentials], clock });
    const env: Env = {
      PHOTOS: photos,
      R2_S3_ENDPOINT: 'https://test-account.r2.cloudflarestorage.com',
      R2_BUCKET_NAME: 'photos',
      R2_ACCESS_KEY_ID: credentials.accessKeyId,
      R2_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    };
    return { r2, env };
  }

  it('the Worker hands out a URL, the client uploads with fetch, the Worker reads the object from its binding', async () => {
    const { r2, env } = setup();

    const handed = await worker.fetch(new Request('https://app.example/upload-url', { method: 'POST' }), env);
    const { key, url } = (await handed.json()) as { key: string; url: string };

    // What the browser does with the URL; r2.fetch stands in for the network.
    const upload = await r2.fetch(url, { method: 'PUT', body: 'hello from the browser' });
    expect(upload.status).toBe(200);

    const read = await worker.fetch(new Request(`https://app.example/uploaded?key=${encodeURIComponent(key)}`), env);
    expect(await read.json()).toEqual({ size: 22, etag: upload.headers.get('etag'), text: 'hello from the browser' });
  });
  // README: end

  it('the URL stops working once it has expired', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { r2, env } = setup(() => now);
    const { url } = (await (
      await worker.fetch(new Request('https://app.example/upload-url', { method: 'POST' }), env)
    ).json()) as { url: string };
    now = Date.now() + 601_000; // the Worker signed with the real clock; ten minutes and a second later
    const late = await r2.fetch(url, { method: 'PUT', body: 'too late' });
    expect(late.status).toBe(403);
    expect(await late.text()).toContain('<Code>ExpiredRequest</Code>');
  });
});
