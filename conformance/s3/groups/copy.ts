import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';

// CopyObject (docs/sources/r2-s3.md#copy).
export const copy = defineGroup('copy', (t) => {
  t.test("COPY keeps the source's metadata and etag; REPLACE takes the request's", async (c) => {
    const src = c.key('src');
    const put = await c.send(src, {
      method: 'PUT',
      body: 'body',
      headers: { 'content-type': 'text/x', 'x-amz-meta-a': '1' },
    });
    const copied = await c.client.send(
      new c.sdk.CopyObjectCommand({ Bucket: c.bucket, Key: c.key('dst'), CopySource: `${c.bucket}/${src}` }),
    );
    expect(copied.CopyObjectResult!.ETag).toBe(put.headers.get('etag'));
    const head = await c.client.send(new c.sdk.HeadObjectCommand({ Bucket: c.bucket, Key: c.key('dst') }));
    expect([head.ContentType, head.Metadata]).toEqual(['text/x', { a: '1' }]);
    await c.client.send(
      new c.sdk.CopyObjectCommand({
        Bucket: c.bucket,
        Key: c.key('rep'),
        CopySource: `${c.bucket}/${src}`,
        MetadataDirective: 'REPLACE',
        Metadata: { b: '2' },
      }),
    );
    expect(
      (await c.client.send(new c.sdk.HeadObjectCommand({ Bucket: c.bucket, Key: c.key('rep') }))).Metadata,
    ).toEqual({ b: '2' });
  });

  t.test(
    "MERGE (R2's extension) keeps the source's metadata and overrides the keys given",
    async (c) => {
      const src = c.key('src');
      await c.send(src, { method: 'PUT', body: 'body', headers: { 'x-amz-meta-a': '1', 'x-amz-meta-b': '2' } });
      const r = await c.send(c.key('dst'), {
        method: 'PUT',
        headers: {
          'x-amz-copy-source': `/${c.bucket}/${src}`,
          'x-amz-metadata-directive': 'MERGE',
          'x-amz-meta-b': 'B',
        },
      });
      expect(r.status).toBe(200);
      expect(
        (await c.client.send(new c.sdk.HeadObjectCommand({ Bucket: c.bucket, Key: c.key('dst') }))).Metadata,
      ).toEqual({ a: '1', b: 'B' });
    },
    { difference: 'miniflare-no-merge' },
  );

  t.test('an unknown directive is 400 "metadata directive WAT."', async (c) => {
    const src = c.key('src');
    await c.send(src, { method: 'PUT', body: 'x' });
    const r = await c.send(c.key('dst'), {
      method: 'PUT',
      headers: { 'x-amz-copy-source': `/${c.bucket}/${src}`, 'x-amz-metadata-directive': 'WAT' },
    });
    expect([r.status, r.error?.Message]).toEqual([400, 'metadata directive WAT.']);
  });

  t.test('copying an object onto itself with COPY is allowed', async (c) => {
    const key = c.key();
    await c.send(key, { method: 'PUT', body: 'self' });
    const r = await c.send(key, { method: 'PUT', headers: { 'x-amz-copy-source': `/${c.bucket}/${key}` } });
    expect(r.status).toBe(200);
    expect(r.text).toContain('<CopyObjectResult');
  });

  t.test(
    'a missing source is 404 NoSuchKey; a source without a bucket is 400; a failed source condition is 412',
    async (c) => {
      const missing = await c.send(c.key('dst'), {
        method: 'PUT',
        headers: { 'x-amz-copy-source': `/${c.bucket}/${c.key('none')}` },
      });
      expect([missing.status, missing.error?.Code]).toEqual([404, 'NoSuchKey']);
      const nobucket = await c.send(c.key('dst'), { method: 'PUT', headers: { 'x-amz-copy-source': 'no-slash' } });
      expect([nobucket.status, nobucket.error?.Message]).toEqual([400, 'copy source bucket name']);
      const src = c.key('src');
      await c.send(src, { method: 'PUT', body: 'x' });
      const cond = await c.send(c.key('dst'), {
        method: 'PUT',
        headers: { 'x-amz-copy-source': `/${c.bucket}/${src}`, 'x-amz-copy-source-if-match': '"nope"' },
      });
      expect([cond.status, cond.error?.Code]).toEqual([412, 'PreconditionFailed']);
    },
  );
});
