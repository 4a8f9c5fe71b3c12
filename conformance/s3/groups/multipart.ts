import { expect } from '../../runner.js';
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { defineGroup, type S3Context } from '../harness.js';

const MiB = 1024 * 1024;

async function start(c: S3Context, key: string): Promise<string> {
  return (await c.client.send(new c.sdk.CreateMultipartUploadCommand({ Bucket: c.bucket, Key: key }))).UploadId!;
}
async function part(
  c: S3Context,
  key: string,
  uploadId: string,
  n: number,
  body: Uint8Array | string,
): Promise<string> {
  return (
    await c.client.send(
      new c.sdk.UploadPartCommand({ Bucket: c.bucket, Key: key, UploadId: uploadId, PartNumber: n, Body: body }),
    )
  ).ETag!;
}
const completeXml = (parts: [number, string][]) =>
  `<CompleteMultipartUpload>${parts.map(([n, e]) => `<Part><PartNumber>${n}</PartNumber><ETag>${e}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;

// Multipart (docs/sources/r2-s3.md#multipart).
export const multipart = defineGroup('multipart', (t) => {
  t.test(
    "a part's ETag is its md5; the object's is md5 of the binary part md5s, then -N",
    async (c) => {
      const key = c.key();
      const id = await start(c, key);
      const p1 = new Uint8Array(5 * MiB).fill(1);
      const p2 = new Uint8Array(10).fill(2);
      const e1 = await part(c, key, id, 1, p1);
      const e2 = await part(c, key, id, 2, p2);
      expect(e1).toBe(`"${bytesToHex(md5(p1))}"`);
      const done = await c.client.send(
        new c.sdk.CompleteMultipartUploadCommand({
          Bucket: c.bucket,
          Key: key,
          UploadId: id,
          MultipartUpload: {
            Parts: [
              { PartNumber: 1, ETag: e1 },
              { PartNumber: 2, ETag: e2 },
            ],
          },
        }),
      );
      const both = new Uint8Array(32);
      both.set(md5(p1), 0);
      both.set(md5(p2), 16);
      expect(done.ETag).toBe(`"${bytesToHex(md5(both))}-2"`);
    },
    { difference: 'miniflare-random-part-etags' },
  );

  t.test(
    'parts are sorted by R2 (order 2,1 completes) and quotes around ETags are optional',
    async (c) => {
      const key = c.key();
      const id = await start(c, key);
      const e1 = await part(c, key, id, 1, new Uint8Array(5 * MiB).fill(7));
      const e2 = await part(c, key, id, 2, 'tail');
      const r = await c.send(key, {
        method: 'POST',
        query: `uploadId=${encodeURIComponent(id)}`,
        body: completeXml([
          [2, e2.slice(1, -1)],
          [1, e1],
        ]),
      });
      expect(r.status, r.text).toBe(200);
      expect((await c.send(key, { method: 'HEAD' })).headers.get('content-length')).toBe(String(5 * MiB + 4));
    },
    { difference: 'miniflare-parts-unsorted' },
  );

  t.test(
    'ETags written with character references name their parts (Go\'s encoding/xml, used by rclone, writes `"` as `&#34;`)',
    async (c) => {
      const key = c.key();
      const id = await start(c, key);
      const e1 = await part(c, key, id, 1, new Uint8Array(5 * MiB).fill(3));
      const e2 = await part(c, key, id, 2, 'end');
      // XML 1.0 §4.1: a decimal, a hex and a named reference all stand for the quote.
      const body = completeXml([
        [1, e1.replaceAll('"', '&#34;')],
        [2, e2.replace('"', '&#x22;').replace('"', '&quot;')],
      ]);
      const r = await c.send(key, { method: 'POST', query: `uploadId=${encodeURIComponent(id)}`, body });
      expect(r.status, r.text).toBe(200);
      expect((await c.send(key, { method: 'HEAD' })).headers.get('content-length')).toBe(String(5 * MiB + 3));
    },
  );

  t.test('two 5-byte parts are 400 EntityTooSmall', async (c) => {
    const key = c.key();
    const id = await start(c, key);
    const e1 = await part(c, key, id, 1, 'aaaaa');
    const e2 = await part(c, key, id, 2, 'bbbbb');
    const r = await c.send(key, {
      method: 'POST',
      query: `uploadId=${encodeURIComponent(id)}`,
      body: completeXml([
        [1, e1],
        [2, e2],
      ]),
    });
    expect([r.status, r.error?.Code]).toEqual([400, 'EntityTooSmall']);
  });

  t.test(
    'parts of 5 MiB and 5 MiB + 1 are 400 InvalidPart: non-trailing parts must match',
    async (c) => {
      const key = c.key();
      const id = await start(c, key);
      const e1 = await part(c, key, id, 1, new Uint8Array(5 * MiB));
      const e2 = await part(c, key, id, 2, new Uint8Array(5 * MiB + 1));
      const r = await c.send(key, {
        method: 'POST',
        query: `uploadId=${encodeURIComponent(id)}`,
        body: completeXml([
          [1, e1],
          [2, e2],
        ]),
      });
      expect([r.status, r.error?.Code]).toEqual([400, 'InvalidPart']);
    },
    { difference: 'miniflare-unequal-parts-404' },
  );

  t.test(
    'duplicate part numbers are InvalidPart; a non-numeric one or no parts is MalformedXML; 10001 is InvalidPart',
    async (c) => {
      const key = c.key();
      const id = await start(c, key);
      const e1 = await part(c, key, id, 1, 'x');
      const q = `uploadId=${encodeURIComponent(id)}`;
      const dup = await c.send(key, {
        method: 'POST',
        query: q,
        body: completeXml([
          [1, e1],
          [1, e1],
        ]),
      });
      expect([dup.status, dup.error?.Code, dup.error?.Message]).toEqual([
        400,
        'InvalidPart',
        'There was a problem with the multipart upload.',
      ]);
      const nan = await c.send(key, { method: 'POST', query: q, body: completeXml([[NaN, e1]]).replace('NaN', 'abc') });
      expect([nan.status, nan.error?.Code]).toEqual([400, 'MalformedXML']);
      const none = await c.send(key, {
        method: 'POST',
        query: q,
        body: '<CompleteMultipartUpload></CompleteMultipartUpload>',
      });
      expect([none.status, none.error?.Code]).toEqual([400, 'MalformedXML']);
      const big = await c.send(key, { method: 'POST', query: q, body: completeXml([[10001, e1]]) });
      expect([big.status, big.error?.Code]).toEqual([400, 'InvalidPart']);
    },
  );

  t.test('Complete twice, or a part after Abort, is 404 NoSuchUpload', async (c) => {
    const key = c.key();
    const id = await start(c, key);
    const e1 = await part(c, key, id, 1, 'only');
    const q = `uploadId=${encodeURIComponent(id)}`;
    expect((await c.send(key, { method: 'POST', query: q, body: completeXml([[1, e1]]) })).status).toBe(200);
    const again = await c.send(key, { method: 'POST', query: q, body: completeXml([[1, e1]]) });
    expect([again.status, again.error?.Code]).toEqual([404, 'NoSuchUpload']);
    const id2 = await start(c, key);
    expect((await c.send(key, { method: 'DELETE', query: `uploadId=${encodeURIComponent(id2)}` })).status).toBe(204);
    const late = await c.send(key, {
      method: 'PUT',
      query: `partNumber=1&uploadId=${encodeURIComponent(id2)}`,
      body: 'x',
    });
    expect([late.status, late.error?.Code]).toEqual([404, 'NoSuchUpload']);
  });

  t.test('part numbers: 0 is 400, 01 is accepted, 1.0 is 404 RouteNotFound', async (c) => {
    const key = c.key();
    const id = encodeURIComponent(await start(c, key));
    const zero = await c.send(key, { method: 'PUT', query: `partNumber=0&uploadId=${id}`, body: 'x' });
    expect([zero.status, zero.error?.Message]).toEqual([
      400,
      'Part number must be an integer between 1 and 10000, inclusive.',
    ]);
    expect((await c.send(key, { method: 'PUT', query: `partNumber=01&uploadId=${id}`, body: 'x' })).status).toBe(200);
    const dotted = await c.send(key, { method: 'PUT', query: `partNumber=1.0&uploadId=${id}`, body: 'x' });
    expect([dotted.status, dotted.error?.Code]).toEqual([404, 'RouteNotFound']);
  });

  t.test('PUT ?uploadId without partNumber is a plain PutObject', async (c) => {
    const key = c.key();
    const id = encodeURIComponent(await start(c, key));
    expect((await c.send(key, { method: 'PUT', query: `uploadId=${id}`, body: 'plain' })).status).toBe(200);
    expect((await c.send(key)).text).toBe('plain');
  });

  t.test(
    'ListParts and ListMultipartUploads show an upload in progress',
    async (c) => {
      const key = c.key();
      const id = await start(c, key);
      const e1 = await part(c, key, id, 1, 'abc');
      const parts = await c.client.send(new c.sdk.ListPartsCommand({ Bucket: c.bucket, Key: key, UploadId: id }));
      expect(parts.Parts!.map((p) => [p.PartNumber, p.ETag, p.Size])).toEqual([[1, e1, 3]]);
      const uploads = await c.client.send(new c.sdk.ListMultipartUploadsCommand({ Bucket: c.bucket, Prefix: key }));
      expect(uploads.Uploads!.map((u) => [u.Key, u.UploadId])).toEqual([[key, id]]);
    },
    { difference: 'miniflare-no-upload-listing' },
  );

  t.test('UploadPartCopy: a source range bytes=0- is 400; an if-match on the source is 501', async (c) => {
    const src = c.key('src');
    await c.send(src, { method: 'PUT', body: '0123456789' });
    const key = c.key();
    const id = encodeURIComponent(await start(c, key));
    const open = await c.send(key, {
      method: 'PUT',
      query: `partNumber=1&uploadId=${id}`,
      headers: { 'x-amz-copy-source': `/${c.bucket}/${src}`, 'x-amz-copy-source-range': 'bytes=0-' },
    });
    expect([open.status, open.error?.Message]).toEqual([400, 'Invalid x-amz-copy-source-range: bytes=0-']);
    const cond = await c.send(key, {
      method: 'PUT',
      query: `partNumber=1&uploadId=${id}`,
      headers: { 'x-amz-copy-source': `/${c.bucket}/${src}`, 'x-amz-copy-source-if-match': '"x"' },
    });
    expect(cond.status).toBe(501);
    const ok = await c.send(key, {
      method: 'PUT',
      query: `partNumber=1&uploadId=${id}`,
      headers: { 'x-amz-copy-source': `/${c.bucket}/${src}`, 'x-amz-copy-source-range': 'bytes=2-4' },
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('<CopyPartResult');
  });
});
