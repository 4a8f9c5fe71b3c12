/**
 * ListParts and ListMultipartUploads go through the bucket's layer as every other S3 operation
 * does: logged on the bucket (`surface: 's3'`) and caught by its fault rules, as a `list` (the
 * binding has no operation for either: lib/bucket/layer.ts says why `list`). On memory and on
 * IndexedDB.
 */
import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import {
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import 'edge-doubles/vitest';
import { Bucket, IndexedDbStorage } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import { CREDENTIALS, sdk } from './support.js';

const storages = {
  memory: () => new Bucket({ log: true }),
  indexeddb: () =>
    new Bucket({ log: true, storage: new IndexedDbStorage({ name: 'photos', indexedDB: new IDBFactory() }) }),
};

/** A bucket served over S3 holding one upload of two parts at `big`, and one at `dir/x`; the log cleared. */
async function withUploads(
  kind: keyof typeof storages,
): Promise<{ photos: Bucket; client: S3Client; uploadId: string; other: string }> {
  const photos = storages[kind]();
  const client = sdk(new S3Api({ buckets: { photos }, credentials: [CREDENTIALS] }).fetch);
  const { UploadId: uploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'big' }));
  for (const PartNumber of [1, 2])
    await client.send(
      new UploadPartCommand({ Bucket: 'photos', Key: 'big', UploadId: uploadId, PartNumber, Body: 'part' }),
    );
  const { UploadId: other } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'dir/x' }));
  photos.log.clear();
  return { photos, client, uploadId: uploadId!, other: other! };
}

describe.each(Object.keys(storages) as (keyof typeof storages)[])('on %s storage', (kind) => {
  it('the call log records ListParts and ListMultipartUploads as a list, with the S3 operation and what was listed', async () => {
    const { photos, client, uploadId, other } = await withUploads(kind);
    await client.send(new ListMultipartUploadsCommand({ Bucket: 'photos' }));
    await client.send(new ListMultipartUploadsCommand({ Bucket: 'photos', Delimiter: '/', MaxUploads: 1 }));
    await client.send(new ListPartsCommand({ Bucket: 'photos', Key: 'big', UploadId: uploadId, MaxParts: 1 }));
    await client
      .send(new ListPartsCommand({ Bucket: 'photos', Key: 'big', UploadId: 'no-such-upload' }))
      .catch(() => {});

    expect(photos.log.all().map((c) => [c.op, c.surface, c.key, c.options, c.status])).toEqual([
      ['list', 's3', undefined, { operation: 'ListMultipartUploads' }, 'ok'],
      ['list', 's3', undefined, { operation: 'ListMultipartUploads' }, 'ok'],
      ['list', 's3', 'big', { operation: 'ListParts', uploadId }, 'ok'],
      ['list', 's3', 'big', { operation: 'ListParts', uploadId: 'no-such-upload' }, 'error'],
    ]);
    const [all, page, parts, missing] = photos.log.all();
    expect(all!.result).toEqual({
      uploads: [
        { key: 'big', uploadId },
        { key: 'dir/x', uploadId: other },
      ],
      delimitedPrefixes: [],
      truncated: false,
    });
    expect(page!.result).toEqual({ uploads: [{ key: 'big', uploadId }], delimitedPrefixes: [], truncated: true });
    expect(parts!.result).toEqual({ parts: [1], truncated: true });
    expect(missing!.error).toMatchObject({ code: 'NoSuchUpload' });
    expect(photos).toHaveReceived({
      op: 'list',
      options: { operation: 'ListParts' },
      result: { parts: [1] },
      times: 1,
    });
    const table = photos.log.table();
    expect(table).toMatch(/list \(s3\)\s+\{"operation":"ListMultipartUploads"\}\s+2 uploads\n/);
    expect(table).toMatch(/list \(s3\)\s+big\s+\{"operation":"ListParts".*\s+1 parts, truncated\n/);
    expect(table).toMatch(/NoSuchUpload The specified multipart upload does not exist\./);
  });

  it("a `list` fault fails them with R2's S3 answer; a rule with a key catches a ListParts of that key only", async () => {
    const { photos, client, uploadId } = await withUploads(kind);
    const listUploads = () =>
      client.send(new ListMultipartUploadsCommand({ Bucket: 'photos' })).catch((e: unknown) => e);
    const listParts = (Key = 'big') =>
      client.send(new ListPartsCommand({ Bucket: 'photos', Key, UploadId: uploadId })).catch((e: unknown) => e);

    // The SDK retries a 500 and a 429 (3 attempts): every attempt meets the fault.
    const internal = photos.faults.add({ op: 'list', times: Infinity });
    expect(await listUploads()).toMatchObject({ name: 'InternalError', $metadata: { httpStatusCode: 500 } });
    expect(await listParts()).toMatchObject({ name: 'InternalError', $metadata: { httpStatusCode: 500 } });
    internal.remove();

    const limited = photos.faults.add({ op: 'list', key: 'big', error: 'rateLimit', times: Infinity });
    expect(await listParts()).toMatchObject({ name: 'TooManyRequests', $metadata: { httpStatusCode: 429 } });
    expect(await listUploads()).toMatchObject({ Uploads: [{ Key: 'big' }, { Key: 'dir/x' }] }); // no key: not caught
    expect(await listParts('other')).toMatchObject({ name: 'NoSuchUpload' }); // another key: not caught
    limited.remove();

    expect(photos).toHaveReceived({
      op: 'list',
      options: { operation: 'ListParts' },
      injected: true,
      error: { code: 10058 },
      times: 3,
    });
    // A fault acts before the operation runs: the upload is untouched.
    expect(await listParts()).toMatchObject({ Parts: [{ PartNumber: 1 }, { PartNumber: 2 }] });
  });
});
