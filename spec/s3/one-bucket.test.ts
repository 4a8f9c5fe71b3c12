/**
 * One bucket, two surfaces: what the S3 API writes is what the binding reads (and the other way
 * round), on memory and on IndexedDB, because both go through the bucket's layer
 * (lib/bucket/layer.ts): one storage transaction per operation, the bucket's faults and its call log.
 */
import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import 'edge-doubles/vitest';
import { Bucket, IndexedDbStorage } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import { fromModelError } from '../../lib/s3/errors.js';
import { R2ModelError } from '../../lib/bucket/errors.js';
import { CREDENTIALS, sdk } from './support.js';

const storages = {
  memory: () => ({ make: () => new Bucket({ log: true }), second: undefined }),
  indexeddb: () => {
    const indexedDB = new IDBFactory();
    const make = () => new Bucket({ log: true, storage: new IndexedDbStorage({ name: 'photos', indexedDB }) });
    return { make, second: make };
  },
};

function serve(bucket: Bucket) {
  const api = new S3Api({ buckets: { photos: bucket }, credentials: [CREDENTIALS] });
  return sdk(api.fetch);
}

/** Byte equality without a deep compare (a megabyte array element by element is slow to diff). */
const same = (a: Uint8Array, b: Uint8Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
const text = (r: { Body?: { transformToString(): Promise<string> } }) => r.Body!.transformToString();

describe.each(Object.keys(storages) as (keyof typeof storages)[])('on %s storage', (kind) => {
  it('what S3 writes, the binding reads, and a second Bucket on the same database sees', async () => {
    const { make, second } = storages[kind]();
    const photos = make();
    const client = serve(photos);
    await client.send(
      new PutObjectCommand({ Bucket: 'photos', Key: 'a.txt', Body: 'from s3', ContentType: 'text/plain' }),
    );
    const got = await photos.get('a.txt');
    expect(await got?.text()).toBe('from s3');
    expect(got?.httpMetadata?.contentType).toBe('text/plain');
    if (second) {
      const other = second();
      expect(await (await other.get('a.txt'))?.text()).toBe('from s3');
      await other.put('b.txt', 'from the other bucket');
    } else {
      await photos.put('b.txt', 'from the other bucket');
    }
    // Read back through S3: the bytes come from the storage, not from the layer's cache.
    expect(await text(await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'b.txt' })))).toBe(
      'from the other bucket',
    );
    expect(
      await text(await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt', Range: 'bytes=5-6' }))),
    ).toBe('s3');
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'photos' }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(['a.txt', 'b.txt']);
  });

  it('a body larger than a get reads at once is streamed from the storage, whole and in ranges', async () => {
    const { make } = storages[kind]();
    const photos = make();
    const client = serve(photos);
    // 1.5 MiB: six of IndexedDbStorage's 256 KiB chunk records, more than a get reads in its own transaction.
    const big = new Uint8Array(1.5 * 1024 * 1024).map((_, i) => (i * 7 + (i >> 10)) & 0xff);
    await photos.put('big', big);
    const whole = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'big' }));
    expect(same(await whole.Body!.transformToByteArray(), big)).toBe(true);
    const from = 300_000;
    const part = await client.send(
      new GetObjectCommand({ Bucket: 'photos', Key: 'big', Range: `bytes=${from}-${from + 1_000_000}` }),
    );
    expect(same(await part.Body!.transformToByteArray(), big.subarray(from, from + 1_000_001))).toBe(true);
  });

  it('a copy reads its source through the storage', async () => {
    const { make } = storages[kind]();
    const photos = make();
    const client = serve(photos);
    // Written through the binding: on IndexedDB its bytes are then only in the database.
    await photos.put('src', 'copied bytes');
    await client.send(new CopyObjectCommand({ Bucket: 'photos', Key: 'dst', CopySource: 'photos/src' }));
    expect(await (await photos.get('dst'))?.text()).toBe('copied bytes');
    expect(await text(await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'dst' })))).toBe('copied bytes');
  });

  it('multipart through S3 completes an object the binding reads', async () => {
    const { make } = storages[kind]();
    const photos = make();
    const client = serve(photos);
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'big' }));
    const part = await client.send(
      new UploadPartCommand({ Bucket: 'photos', Key: 'big', UploadId, PartNumber: 1, Body: 'only part' }),
    );
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'photos',
        Key: 'big',
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
      }),
    );
    expect(await (await photos.get('big'))?.text()).toBe('only part');
  });

  it("a fault armed on the bucket fails the S3 operation with R2's S3 answer, and nothing is stored", async () => {
    const { make } = storages[kind]();
    const photos = make();
    const client = serve(photos);
    // The SDK retries a 500 and a 429 (3 attempts): every attempt meets the fault.
    photos.faults.add({ op: 'put', times: 3 });
    const failed = await client
      .send(new PutObjectCommand({ Bucket: 'photos', Key: 'f', Body: 'x' }))
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ name: 'InternalError', $metadata: { httpStatusCode: 500 } });
    expect(await photos.head('f')).toBeNull();
    photos.faults.add({ op: 'get', key: 'f', error: 'rateLimit', times: 3 });
    await photos.put('f', 'x');
    const limited = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'f' })).catch((e: unknown) => e);
    // R2's per-key limit on the S3 API: 429 TooManyRequests (docs/sources/r2-s3.md#limits).
    expect(limited).toMatchObject({ name: 'TooManyRequests', $metadata: { httpStatusCode: 429 } });
    // A fault on another op or key lets the call through.
    await client.send(new HeadObjectCommand({ Bucket: 'photos', Key: 'f' }));
  });

  it('the call log records S3 calls with their surface, as the binding operations they perform', async () => {
    const { make } = storages[kind]();
    const photos = make();
    const client = serve(photos);
    await photos.put('w', 'binding');
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 's', Body: 'abc' }));
    await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 's' }));
    await client.send(new HeadObjectCommand({ Bucket: 'photos', Key: 's' }));
    await client.send(new ListObjectsV2Command({ Bucket: 'photos' }));
    await client.send(new CopyObjectCommand({ Bucket: 'photos', Key: 'c', CopySource: 'photos/s' }));
    await client.send(new DeleteObjectCommand({ Bucket: 'photos', Key: 's' }));
    expect(photos).toHaveReceived({ op: 'put', surface: 'binding', key: 'w', times: 1 });
    expect(photos).toHaveReceived({
      op: 'put',
      surface: 's3',
      key: 's',
      options: { operation: 'PutObject' },
      result: { size: 3 },
      times: 1,
    });
    expect(photos).toHaveReceived({ op: 'get', surface: 's3', key: 's', result: { size: 3 } });
    expect(photos).toHaveReceived({ op: 'head', surface: 's3', key: 's' });
    expect(photos).toHaveReceived({ op: 'list', surface: 's3', result: { objects: ['s', 'w'], truncated: false } });
    expect(photos).toHaveReceived({
      op: 'put',
      surface: 's3',
      key: 'c',
      options: { operation: 'CopyObject', source: { bucket: 'photos', key: 's' } },
    });
    expect(photos).toHaveReceived({ op: 'delete', surface: 's3', key: 's' });
    expect(photos.log.filter({ surface: 's3' }).map((c) => c.op)).toEqual([
      'put',
      'get',
      'head',
      'list',
      'put',
      'delete',
    ]);
    expect(photos.log.table()).toMatch(/put \(s3\)/);
  });
});

describe('typed model errors', () => {
  it('the binding shows a model error as workerd does: a plain Error, no code', async () => {
    const bucket = new Bucket();
    const e = (await bucket.put('k'.repeat(1025), 'x').catch((x: unknown) => x)) as Error;
    expect(e.constructor).toBe(Error);
    expect(e.message).toBe('put: The specified object name is not valid. (10020)');
    expect(e).not.toHaveProperty('code');
  });

  it("the S3 view phrases a model error from its reason and facts, not from the binding's text", () => {
    const mismatch = new R2ModelError('put', 'checksumMismatch', { alg: 'sha256', provided: 'aa', actual: 'bb' });
    expect(fromModelError(mismatch)).toMatchObject({
      status: 400,
      code: 'BadDigest',
      message: expect.stringContaining('SHA-256 checksum you specified'),
    });
    expect(fromModelError(new R2ModelError('head', 'invalidObjectName'))).toMatchObject({
      status: 400,
      code: 'InvalidObjectName',
    });
    // An Error whose text merely looks like R2's is not a model error.
    expect(fromModelError(new Error('put: The specified object name is not valid. (10020)'))).toBeUndefined();
  });
});
