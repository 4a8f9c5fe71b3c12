/** The S3 view's less travelled paths: R2's extensions, overrides, paging of parts and uploads, SSE-C uploads. */
import { describe, expect, it } from 'vitest';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { AwsClient } from 'aws4fetch';
import { md5 } from '@noble/hashes/legacy.js';
import { CREDENTIALS, ENDPOINT, errorOf, setup } from './support.js';

const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

describe('reads', () => {
  it("response-* query parameters override the answer's headers", async () => {
    const { photos, client } = setup();
    await photos.put('r', 'x', { httpMetadata: { contentType: 'text/plain' } });
    const got = await client.send(
      new GetObjectCommand({
        Bucket: 'photos',
        Key: 'r',
        ResponseContentType: 'application/json',
        ResponseContentDisposition: 'attachment',
      }),
    );
    expect([got.ContentType, got.ContentDisposition]).toEqual(['application/json', 'attachment']);
    expect((await photos.head('r'))!.httpMetadata!.contentType).toBe('text/plain');
  });

  it("a 304 carries the object's ETag and no body; If-Modified-Since in the future is 304, in the past 200", async () => {
    const { photos, api } = setup();
    const o = await photos.put('m', 'x');
    const later = new Date(o.uploaded.getTime() + 60_000).toUTCString();
    const earlier = new Date(o.uploaded.getTime() - 60_000).toUTCString();
    const nm = await api.fetch(await signer.sign(`${ENDPOINT}/photos/m`, { headers: { 'if-modified-since': later } }));
    expect([nm.status, nm.headers.get('etag'), await nm.text()]).toEqual([304, o.httpEtag, '']);
    expect(
      (await api.fetch(await signer.sign(`${ENDPOINT}/photos/m`, { headers: { 'if-modified-since': earlier } })))
        .status,
    ).toBe(200);
  });
});

describe('R2 extensions', () => {
  it('cf-copy-destination-if-none-match: * refuses to copy over an existing object', async () => {
    const { photos, api } = setup();
    await photos.put('src', 'new');
    await photos.put('dst', 'old');
    const r = await api.fetch(
      await signer.sign(`${ENDPOINT}/photos/dst`, {
        method: 'PUT',
        headers: { 'x-amz-copy-source': '/photos/src', 'cf-copy-destination-if-none-match': '*' },
      }),
    );
    expect(await errorOf(r)).toMatchObject({ status: 412, code: 'PreconditionFailed' });
    expect(await (await photos.get('dst'))!.text()).toBe('old');
  });

  it("a copy's destination condition is the model's conditional put: refused, it logs as a refused PutObject does (ok, null)", async () => {
    const { photos, api } = setup();
    await photos.put('src', 'new');
    await photos.put('dst', 'old');
    photos.log.start();
    const conditional = { 'x-amz-copy-source': '/photos/src', 'cf-copy-destination-if-none-match': '*' };
    expect(
      (await api.fetch(await signer.sign(`${ENDPOINT}/photos/dst`, { method: 'PUT', headers: conditional }))).status,
    ).toBe(412);
    expect(
      (
        await api.fetch(
          await signer.sign(`${ENDPOINT}/photos/dst`, { method: 'PUT', body: 'x', headers: { 'if-none-match': '*' } }),
        )
      ).status,
    ).toBe(412);
    const [copy, put] = photos.log.all();
    expect(copy).toMatchObject({
      op: 'put',
      surface: 's3',
      status: 'ok',
      result: null,
      options: { operation: 'CopyObject' },
    });
    expect(put).toMatchObject({
      op: 'put',
      surface: 's3',
      status: 'ok',
      result: null,
      options: { operation: 'PutObject' },
    });
  });

  it('a conditional CompleteMultipartUpload that fails is 412 and aborts the upload', async () => {
    const { photos, client, api } = setup();
    await photos.put('k', 'exists');
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'k' }));
    const part = await client.send(
      new UploadPartCommand({ Bucket: 'photos', Key: 'k', UploadId, PartNumber: 1, Body: 'p' }),
    );
    const xml = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${part.ETag}</ETag></Part></CompleteMultipartUpload>`;
    const r = await api.fetch(
      await signer.sign(`${ENDPOINT}/photos/k?uploadId=${encodeURIComponent(UploadId!)}`, {
        method: 'POST',
        body: xml,
        headers: { 'if-none-match': '*' },
      }),
    );
    expect(await errorOf(r)).toMatchObject({ status: 412, code: 'PreconditionFailed' });
    await expect(
      client.send(new UploadPartCommand({ Bucket: 'photos', Key: 'k', UploadId, PartNumber: 2, Body: 'q' })),
    ).rejects.toMatchObject({
      name: 'NoSuchUpload',
    });
    expect(await (await photos.get('k'))!.text()).toBe('exists');
  });
});

describe('v1 listing markers', () => {
  it('a marker naming a delimiter group (as NextMarker does) resumes after the whole group, and at the first key past it', async () => {
    const { photos, client } = setup();
    // 'a0' is the first string after every 'a/…' key; the astral keys sort last in the group (UTF-8 order).
    for (const k of ['a/1', 'a/\u{10FFFF}', 'a/\u{10FFFF}z', 'a0', 'b/1', 'c']) await photos.put(k, 'x');
    const r = await client.send(new ListObjectsCommand({ Bucket: 'photos', Delimiter: '/', Marker: 'a/' }));
    expect(r.Contents!.map((o) => o.Key)).toEqual(['a0', 'c']);
    expect(r.CommonPrefixes).toEqual([{ Prefix: 'b/' }]);
    const plain = await client.send(new ListObjectsCommand({ Bucket: 'photos', Marker: 'a/' }));
    expect(plain.Contents!.map((o) => o.Key)).toEqual(['a/1', 'a/\u{10FFFF}', 'a/\u{10FFFF}z', 'a0', 'b/1', 'c']);
  });
});

describe('multipart listings', () => {
  it('ListParts pages with max-parts and part-number-marker', async () => {
    const { client } = setup();
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'p' }));
    for (const n of [3, 1, 2])
      await client.send(
        new UploadPartCommand({ Bucket: 'photos', Key: 'p', UploadId, PartNumber: n, Body: `part ${n}` }),
      );
    const first = await client.send(new ListPartsCommand({ Bucket: 'photos', Key: 'p', UploadId, MaxParts: 2 }));
    expect(first.Parts!.map((p) => p.PartNumber)).toEqual([1, 2]);
    expect([first.IsTruncated, first.NextPartNumberMarker]).toEqual([true, '2']);
    const rest = await client.send(
      new ListPartsCommand({ Bucket: 'photos', Key: 'p', UploadId, PartNumberMarker: first.NextPartNumberMarker }),
    );
    expect(rest.Parts!.map((p) => p.PartNumber)).toEqual([3]);
    expect(rest.IsTruncated).toBe(false);
  });

  it('ListMultipartUploads groups by delimiter and filters by prefix', async () => {
    const { client } = setup();
    for (const key of ['a/1', 'a/2', 'b', 'c/x/y'])
      await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: key }));
    const all = await client.send(new ListMultipartUploadsCommand({ Bucket: 'photos', Delimiter: '/' }));
    expect(all.Uploads!.map((u) => u.Key)).toEqual(['b']);
    expect(all.CommonPrefixes!.map((p) => p.Prefix)).toEqual(['a/', 'c/']);
    const underA = await client.send(new ListMultipartUploadsCommand({ Bucket: 'photos', Prefix: 'a/' }));
    expect(underA.Uploads!.map((u) => u.Key)).toEqual(['a/1', 'a/2']);
  });
});

describe('SSE-C through S3 and the binding', () => {
  const key = new Uint8Array(32).fill(5);
  const hexKey = Array.from(key, (b) => b.toString(16).padStart(2, '0')).join('');
  const sse = { SSECustomerAlgorithm: 'AES256', SSECustomerKey: b64(key), SSECustomerKeyMD5: b64(md5(key)) };

  it('an object put with a customer key through S3 is read by the binding with the same key, and not without it', async () => {
    const { photos, client } = setup();
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 's', Body: 'secret', ...sse }));
    const obj = await photos.get('s', { ssecKey: hexKey });
    expect(await obj!.text()).toBe('secret');
    expect(obj!.ssecKeyMd5).toBe(b64(md5(key))); // the binding reports it as S3 does: base64 of the binary md5
    await expect(client.send(new GetObjectCommand({ Bucket: 'photos', Key: 's' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 400 },
    });
    const got = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 's', ...sse }));
    expect(await got.Body!.transformToString()).toBe('secret');
  });

  it('a multipart upload with a customer key completes, and the binding needs the key to read it', async () => {
    const { photos, client } = setup();
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'mp', ...sse }));
    const part = await client.send(
      new UploadPartCommand({ Bucket: 'photos', Key: 'mp', UploadId, PartNumber: 1, Body: 'enc', ...sse }),
    );
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'photos',
        Key: 'mp',
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
      }),
    );
    expect(await (await photos.get('mp', { ssecKey: hexKey }))!.text()).toBe('enc');
    await expect(photos.get('mp')).rejects.toThrow();
  });
});

describe('integrity on parts and batch deletes', () => {
  it('UploadPart checks Content-MD5; DeleteObjects checks it too and deletes nothing on a mismatch', async () => {
    const { photos, client, api } = setup();
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'u' }));
    const bad = await api.fetch(
      await signer.sign(`${ENDPOINT}/photos/u?partNumber=1&uploadId=${encodeURIComponent(UploadId!)}`, {
        method: 'PUT',
        body: 'abc',
        headers: { 'content-md5': b64(md5(new TextEncoder().encode('abd'))) },
      }),
    );
    expect(await errorOf(bad)).toMatchObject({ status: 400, code: 'BadDigest' });
    await photos.put('keep', 'x');
    const xml = '<Delete><Object><Key>keep</Key></Object></Delete>';
    const del = await api.fetch(
      await signer.sign(`${ENDPOINT}/photos?delete`, {
        method: 'POST',
        body: xml,
        headers: { 'content-md5': b64(md5(new TextEncoder().encode('other'))) },
      }),
    );
    expect(await errorOf(del)).toMatchObject({ status: 400, code: 'BadDigest' });
    expect(await photos.head('keep')).not.toBeNull();
  });
});
