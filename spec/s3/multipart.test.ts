/** Multipart through S3 with R2's rules, sharing upload ids with the binding. */
import { describe, expect, it } from 'vitest';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { setup } from './support.js';

const MiB = 1024 * 1024;

function pattern(size: number, seed = 7): Uint8Array {
  const b = new Uint8Array(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
}

/** R2's multipart etag: md5 of the concatenated binary part md5s, then "-N". */
function multipartEtag(parts: Uint8Array[]): string {
  const all = new Uint8Array(parts.length * 16);
  parts.forEach((p, i) => all.set(md5(p), i * 16));
  return `${bytesToHex(md5(all))}-${parts.length}`;
}

describe('multipart uploads through S3', () => {
  it('@aws-sdk/lib-storage uploads 11 MiB in parts; the binding reads the same bytes and etag', async () => {
    const { photos, client } = setup();
    const body = pattern(11 * MiB);
    const upload = new Upload({
      client,
      params: { Bucket: 'photos', Key: 'big.bin', Body: body, ContentType: 'application/x-big' },
      partSize: 5 * MiB,
    });
    const done = await upload.done();
    const obj = await photos.get('big.bin');
    expect(obj!.size).toBe(11 * MiB);
    expect(Buffer.from(await obj!.arrayBuffer()).equals(Buffer.from(body))).toBe(true);
    const expected = multipartEtag([
      body.subarray(0, 5 * MiB),
      body.subarray(5 * MiB, 10 * MiB),
      body.subarray(10 * MiB),
    ]);
    expect(obj!.etag).toBe(expected);
    expect(done.ETag).toBe(`"${expected}"`);
    expect(obj!.httpMetadata!.contentType).toBe('application/x-big');
  });

  it('create, upload, list parts and uploads, complete; parts are sorted by R2, quotes optional', async () => {
    const { photos, client } = setup();
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'm', Metadata: { a: 'b' } }),
    );
    const p1 = pattern(5 * MiB, 1);
    const p2 = pattern(100, 2);
    const r1 = await client.send(
      new UploadPartCommand({ Bucket: 'photos', Key: 'm', UploadId, PartNumber: 1, Body: p1 }),
    );
    const r2 = await client.send(
      new UploadPartCommand({ Bucket: 'photos', Key: 'm', UploadId, PartNumber: 2, Body: p2 }),
    );
    expect(r1.ETag).toBe(`"${bytesToHex(md5(p1))}"`);

    const parts = await client.send(new ListPartsCommand({ Bucket: 'photos', Key: 'm', UploadId }));
    expect(parts.Parts!.map((p) => [p.PartNumber, p.ETag, p.Size])).toEqual([
      [1, r1.ETag, 5 * MiB],
      [2, r2.ETag, 100],
    ]);
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: 'photos' }));
    expect(uploads.Uploads!.map((u) => [u.Key, u.UploadId])).toEqual([['m', UploadId]]);

    const done = await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'photos',
        Key: 'm',
        UploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 2, ETag: r2.ETag!.slice(1, -1) },
            { PartNumber: 1, ETag: r1.ETag },
          ],
        },
      }),
    );
    expect(done.ETag).toBe(`"${multipartEtag([p1, p2])}"`);
    const obj = await photos.head('m');
    expect(obj!.customMetadata).toEqual({ a: 'b' });
    expect(obj!.size).toBe(5 * MiB + 100);
    expect((await client.send(new ListMultipartUploadsCommand({ Bucket: 'photos' }))).Uploads ?? []).toEqual([]);
    // Completing twice: the upload is gone.
    await expect(
      client.send(
        new CompleteMultipartUploadCommand({
          Bucket: 'photos',
          Key: 'm',
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: r1.ETag }] },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload', $metadata: { httpStatusCode: 404 } });
  });

  it('an upload begun by the binding is finished through S3, and the other way round', async () => {
    const { photos, client } = setup();
    const begun = await photos.createMultipartUpload('from-worker');
    const part = await client.send(
      new UploadPartCommand({
        Bucket: 'photos',
        Key: 'from-worker',
        UploadId: begun.uploadId,
        PartNumber: 1,
        Body: 'tail',
      }),
    );
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'photos',
        Key: 'from-worker',
        UploadId: begun.uploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
      }),
    );
    expect(await (await photos.get('from-worker'))!.text()).toBe('tail');

    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'from-s3' }));
    const handle = photos.resumeMultipartUpload('from-s3', UploadId!);
    const uploaded = await handle.uploadPart(1, 'abc');
    const obj = await handle.complete([uploaded]);
    expect(obj.size).toBe(3);
  });

  it("R2's part rules at Complete: EntityTooSmall, unequal sizes, duplicates, unknown parts", async () => {
    const { client } = setup();
    const start = async (key: string) =>
      (await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: key }))).UploadId!;
    const put = async (key: string, UploadId: string, PartNumber: number, Body: Uint8Array | string) =>
      (await client.send(new UploadPartCommand({ Bucket: 'photos', Key: key, UploadId, PartNumber, Body }))).ETag!;
    const complete = (key: string, UploadId: string, Parts: { PartNumber: number; ETag: string }[]) =>
      client.send(
        new CompleteMultipartUploadCommand({ Bucket: 'photos', Key: key, UploadId, MultipartUpload: { Parts } }),
      );

    const small = await start('small');
    const s1 = await put('small', small, 1, 'hello');
    const s2 = await put('small', small, 2, 'world');
    await expect(
      complete('small', small, [
        { PartNumber: 1, ETag: s1 },
        { PartNumber: 2, ETag: s2 },
      ]),
    ).rejects.toMatchObject({
      name: 'EntityTooSmall',
      $metadata: { httpStatusCode: 400 },
    });

    const uneven = await start('uneven');
    const u1 = await put('uneven', uneven, 1, pattern(5 * MiB));
    const u2 = await put('uneven', uneven, 2, pattern(5 * MiB + 1));
    await expect(
      complete('uneven', uneven, [
        { PartNumber: 1, ETag: u1 },
        { PartNumber: 2, ETag: u2 },
      ]),
    ).rejects.toMatchObject({
      name: 'InvalidPart',
      message: 'All non-trailing parts must have the same length.',
    });
    await expect(
      complete('uneven', uneven, [
        { PartNumber: 1, ETag: u1 },
        { PartNumber: 1, ETag: u1 },
      ]),
    ).rejects.toMatchObject({
      name: 'InvalidPart',
      message: 'There was a problem with the multipart upload.',
    });
    await expect(complete('uneven', uneven, [{ PartNumber: 3, ETag: u1 }])).rejects.toMatchObject({
      name: 'InvalidPart',
      message: 'One or more of the specified parts could not be found.',
    });

    await client.send(new AbortMultipartUploadCommand({ Bucket: 'photos', Key: 'uneven', UploadId: uneven }));
    await client.send(new AbortMultipartUploadCommand({ Bucket: 'photos', Key: 'uneven', UploadId: uneven })); // twice is fine
    await expect(put('uneven', uneven, 3, 'x')).rejects.toMatchObject({ name: 'NoSuchUpload' });
    await expect(
      client.send(
        new UploadPartCommand({ Bucket: 'photos', Key: 'small', UploadId: small, PartNumber: 10001, Body: 'x' }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidArgument',
      message: 'Part number must be an integer between 1 and 10000, inclusive.',
    });
  });

  it('UploadPartCopy copies a range of an existing object into a part', async () => {
    const { photos, client } = setup();
    await photos.put('source', '0123456789');
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'photos', Key: 'assembled' }));
    const copied = await client.send(
      new UploadPartCopyCommand({
        Bucket: 'photos',
        Key: 'assembled',
        UploadId,
        PartNumber: 1,
        CopySource: 'photos/source',
        CopySourceRange: 'bytes=2-5',
      }),
    );
    expect(copied.CopyPartResult!.ETag).toBe(`"${bytesToHex(md5(new TextEncoder().encode('2345')))}"`);
    await expect(
      client.send(
        new UploadPartCopyCommand({
          Bucket: 'photos',
          Key: 'assembled',
          UploadId,
          PartNumber: 1,
          CopySource: 'photos/source',
          CopySourceRange: 'bytes=0-',
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidArgument', message: 'Invalid x-amz-copy-source-range: bytes=0-' });
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'photos',
        Key: 'assembled',
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: copied.CopyPartResult!.ETag }] },
      }),
    );
    expect(await (await photos.get('assembled'))!.text()).toBe('2345');
  });
});
