/** GET and HEAD with `partNumber`: one part of an object, served as a range. */
import { describe, expect, it } from 'vitest';
import { AwsClient } from 'aws4fetch';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { IDBFactory } from 'fake-indexeddb';
import { Bucket, IndexedDbStorage } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import { CREDENTIALS, ENDPOINT, errorOf, setup } from './support.js';

const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
const PART = 5 * 1024 * 1024;

/** A multipart object of parts sized `sizes`, each part's bytes all its part number. */
async function multipartObject(sizes: number[]) {
  const s = setup();
  const { UploadId } = await s.client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'mp' }));
  const Parts = [];
  for (const [i, size] of sizes.entries()) {
    const out = await s.client.send(
      new UploadPartCommand({
        Bucket: 'photos',
        Key: 'mp',
        UploadId,
        PartNumber: i + 1,
        Body: new Uint8Array(size).fill(i + 1),
      }),
    );
    Parts.push({ PartNumber: i + 1, ETag: out.ETag });
  }
  await s.client.send(
    new CompleteMultipartUploadCommand({ Bucket: 'photos', Key: 'mp', UploadId, MultipartUpload: { Parts } }),
  );
  return s;
}

const signed = async (api: ReturnType<typeof setup>['api'], path: string, init: RequestInit = {}) =>
  api.fetch(await signer.sign(`${ENDPOINT}${path}`, init));

describe('partNumber on a multipart object', () => {
  it('GET serves each part as a 206 with its Content-Range, the parts count and the whole etag', async () => {
    const sizes = [PART, PART, 10];
    const { client, photos } = await multipartObject(sizes);
    const whole = await photos.head('mp');
    let offset = 0;
    for (const [i, size] of sizes.entries()) {
      const out = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'mp', PartNumber: i + 1 }));
      const bytes = await out.Body!.transformToByteArray();
      expect(out.$metadata.httpStatusCode).toBe(206);
      expect(out.ContentRange).toBe(`bytes ${offset}-${offset + size - 1}/${2 * PART + 10}`);
      expect(out.ContentLength).toBe(size);
      expect(out.PartsCount).toBe(3);
      expect(out.ETag).toBe(`"${whole!.etag}"`);
      expect(bytes.length).toBe(size);
      expect(bytes.every((b) => b === i + 1)).toBe(true);
      offset += size;
    }
  });

  it('HEAD gives the same headers without a body', async () => {
    const { client } = await multipartObject([PART, 7]);
    const out = await client.send(new HeadObjectCommand({ Bucket: 'photos', Key: 'mp', PartNumber: 2 }));
    expect(out.$metadata.httpStatusCode).toBe(206);
    expect(out.ContentLength).toBe(7);
    expect(out.PartsCount).toBe(2);
    expect(out.ContentRange).toBe(`bytes ${PART}-${PART + 6}/${PART + 7}`);
  });

  it('a part past the last is 416 InvalidPartNumber', async () => {
    const { api } = await multipartObject([PART, 7]);
    expect(await errorOf(await signed(api, '/photos/mp?partNumber=3'))).toMatchObject({
      status: 416,
      code: 'InvalidPartNumber',
      message: 'The requested partnumber is not satisfiable',
    });
    expect((await signed(api, '/photos/mp?partNumber=3', { method: 'HEAD' })).status).toBe(416);
  });

  it('one part is the whole object, with a parts count of 1', async () => {
    const { api } = await multipartObject([12]);
    const res = await signed(api, '/photos/mp?partNumber=1');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 0-11/12');
    expect(res.headers.get('x-amz-mp-parts-count')).toBe('1');
    expect((await res.arrayBuffer()).byteLength).toBe(12);
  });
});

describe('part boundaries are kept with the object', () => {
  it('in IndexedDB: a bucket opened later serves the parts another completed', async () => {
    const indexedDB = new IDBFactory();
    const writer = new Bucket({ storage: new IndexedDbStorage({ name: 'parts', indexedDB }) });
    const upload = await writer.createMultipartUpload('mp');
    const parts = [
      await upload.uploadPart(1, new Uint8Array(PART).fill(1)),
      await upload.uploadPart(2, new Uint8Array(3).fill(2)),
    ];
    await upload.complete(parts);
    const reader = new Bucket({ storage: new IndexedDbStorage({ name: 'parts', indexedDB }) });
    expect((await reader.head('mp'))?.size).toBe(PART + 3); // opens the database: the records are read
    const api = new S3Api({ buckets: { photos: reader }, credentials: [CREDENTIALS] });
    const res = await signed(api, '/photos/mp?partNumber=2');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${PART}-${PART + 2}/${PART + 3}`);
    expect(res.headers.get('x-amz-mp-parts-count')).toBe('2');
    expect(res.headers.get('content-length')).toBe('3');
    // Not the bytes: the S3 view reads an object's chunks in memory, and an object read back from
    // IndexedDB has none until its body is read through the storage (a known gap of the S3 view).
  });
});

describe('partNumber on a single-part object', () => {
  it('part 1 is all of it (206 with Content-Range, no parts count); part 2 is 416', async () => {
    const { api, photos } = setup();
    await photos.put('k', '0123456789');
    const res = await signed(api, '/photos/k?partNumber=1');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 0-9/10');
    expect(res.headers.get('x-amz-mp-parts-count')).toBeNull();
    expect(await res.text()).toBe('0123456789');
    expect(await errorOf(await signed(api, '/photos/k?partNumber=2'))).toMatchObject({
      status: 416,
      code: 'InvalidPartNumber',
    });
  });
});

describe('partNumber refusals', () => {
  it('outside 1..10000 or not a number: 400 InvalidArgument, as UploadPart answers', async () => {
    const { api, photos } = setup();
    await photos.put('k', 'x');
    for (const n of ['0', '10001', '-1', 'abc', '']) {
      expect([n, await errorOf(await signed(api, `/photos/k?partNumber=${n}`))]).toMatchObject([
        n,
        { status: 400, code: 'InvalidArgument' },
      ]);
    }
  });

  it('with a Range header besides: 400 InvalidRequest', async () => {
    const { api, photos } = setup();
    await photos.put('k', 'abcdef');
    const res = await signed(api, '/photos/k?partNumber=1', { headers: { range: 'bytes=0-1' } });
    expect(await errorOf(res)).toMatchObject({
      status: 400,
      code: 'InvalidRequest',
      message: 'Cannot specify both Range header and partNumber query parameter',
    });
  });

  it('a missing key is still NoSuchKey, and a failed condition still 412', async () => {
    const { api, photos } = setup();
    expect(await errorOf(await signed(api, '/photos/none?partNumber=1'))).toMatchObject({
      status: 404,
      code: 'NoSuchKey',
    });
    await photos.put('k', 'x');
    const res = await signed(api, '/photos/k?partNumber=1', { headers: { 'if-match': '"nope"' } });
    expect(res.status).toBe(412);
  });
});
