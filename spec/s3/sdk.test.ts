import { describe, expect, it } from 'vitest';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  ListBucketsCommand,
  HeadBucketCommand,
  GetBucketLocationCommand,
} from '@aws-sdk/client-s3';
import { AwsClient } from 'aws4fetch';
import { CREDENTIALS, ENDPOINT, setup } from './support.js';

describe('the AWS SDK in process, against the S3 view of a Bucket', () => {
  it('puts through S3 and reads through the binding: same bytes, etag, metadata', async () => {
    const { photos, client } = setup();
    const put = await client.send(
      new PutObjectCommand({
        Bucket: 'photos',
        Key: 'cats/tom.txt',
        Body: 'meow',
        ContentType: 'text/plain',
        CacheControl: 'max-age=60',
        Metadata: { Owner: 'ada', 'x-Note': 'é' },
      }),
    );
    const obj = await photos.get('cats/tom.txt');
    expect(obj).not.toBeNull();
    expect(await obj!.text()).toBe('meow');
    expect(put.ETag).toBe(obj!.httpEtag);
    expect(obj!.etag).toBe('4a4be40c96ac6314e91d93f38043a634'); // md5('meow')
    expect(obj!.httpMetadata).toEqual({ contentType: 'text/plain', cacheControl: 'max-age=60' });
    expect(obj!.customMetadata).toEqual({ owner: 'ada', 'x-note': 'é' });
  });

  it('puts through the binding and reads through S3', async () => {
    const { photos, client } = setup();
    const written = await photos.put('a/b.bin', new Uint8Array([1, 2, 3, 4, 5]), {
      httpMetadata: { contentType: 'application/x-thing', contentLanguage: 'fr' },
      customMetadata: { k: 'v', accent: 'ça' },
    });
    const got = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a/b.bin' }));
    expect([...(await got.Body!.transformToByteArray())]).toEqual([1, 2, 3, 4, 5]);
    expect(got.ETag).toBe(written.httpEtag);
    expect(got.ContentType).toBe('application/x-thing');
    expect(got.ContentLanguage).toBe('fr');
    expect(got.ContentLength).toBe(5);
    expect(got.Metadata).toEqual({ k: 'v', accent: '=?UTF-8?B?w6dh?=' });
    expect(got.LastModified!.getTime()).toBe(Math.floor(written.uploaded.getTime() / 1000) * 1000);
    const head = await client.send(new HeadObjectCommand({ Bucket: 'photos', Key: 'a/b.bin' }));
    expect(head.ETag).toBe(written.httpEtag);
    expect(head.ContentLength).toBe(5);
  });

  it('answers a missing key with NoSuchKey, and HEAD with a bodiless 404', async () => {
    const { client } = setup();
    await expect(client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'nope' }))).rejects.toMatchObject({
      name: 'NoSuchKey',
      message: 'The specified key does not exist.',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(client.send(new HeadObjectCommand({ Bucket: 'photos', Key: 'nope' }))).rejects.toMatchObject({
      name: 'NotFound',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(client.send(new GetObjectCommand({ Bucket: 'nobucket', Key: 'k' }))).rejects.toMatchObject({
      name: 'NoSuchBucket',
    });
  });

  it('ranges: 206 with Content-Range, 416 past the end', async () => {
    const { photos, client } = setup();
    await photos.put('digits', '0123456789');
    const r = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'digits', Range: 'bytes=2-4' }));
    expect(await r.Body!.transformToString()).toBe('234');
    expect(r.ContentRange).toBe('bytes 2-4/10');
    expect(r.$metadata.httpStatusCode).toBe(206);
    const s = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'digits', Range: 'bytes=-3' }));
    expect(await s.Body!.transformToString()).toBe('789');
    await expect(
      client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'digits', Range: 'bytes=99-' })),
    ).rejects.toMatchObject({
      name: 'InvalidRange',
      $metadata: { httpStatusCode: 416 },
    });
  });

  it('lists with v1 and v2, delimiters and pages', async () => {
    const { photos, client } = setup();
    for (const k of ['nm/a.txt', 'nm/sub/c.txt', 'nm/sub/d.txt', 'nm/z.txt', 'other']) await photos.put(k, k);
    const v2 = await client.send(new ListObjectsV2Command({ Bucket: 'photos', Prefix: 'nm/', Delimiter: '/' }));
    expect(v2.Contents!.map((c) => c.Key)).toEqual(['nm/a.txt', 'nm/z.txt']);
    expect(v2.CommonPrefixes).toEqual([{ Prefix: 'nm/sub/' }]);
    expect(v2.KeyCount).toBe(3);
    expect(v2.IsTruncated).toBe(false);
    expect(v2.Contents![0]).toMatchObject({
      Size: 8,
      StorageClass: 'STANDARD',
      ETag: (await photos.head('nm/a.txt'))!.httpEtag,
    });

    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: 'photos', MaxKeys: 2, ContinuationToken: token }),
      );
      keys.push(...page.Contents!.map((c) => c.Key!));
      token = page.NextContinuationToken;
    } while (token);
    expect(keys).toEqual(['nm/a.txt', 'nm/sub/c.txt', 'nm/sub/d.txt', 'nm/z.txt', 'other']);

    const v1 = await client.send(
      new ListObjectsCommand({ Bucket: 'photos', Prefix: 'nm/', Delimiter: '/', MaxKeys: 2 }),
    );
    expect(v1.Contents!.map((c) => c.Key)).toEqual(['nm/a.txt']);
    expect(v1.CommonPrefixes).toEqual([{ Prefix: 'nm/sub/' }]);
    expect(v1.NextMarker).toBe('nm/sub/');
    expect(v1.IsTruncated).toBe(true);
    const rest = await client.send(
      new ListObjectsCommand({ Bucket: 'photos', Prefix: 'nm/', Delimiter: '/', Marker: v1.NextMarker }),
    );
    expect(rest.Contents!.map((c) => c.Key)).toEqual(['nm/z.txt']);
    expect(rest.CommonPrefixes ?? []).toEqual([]);
  });

  it('deletes one and many; DeleteObjects reports every key', async () => {
    const { photos, client } = setup();
    await photos.put('x', '1');
    await photos.put('y', '2');
    await client.send(new DeleteObjectCommand({ Bucket: 'photos', Key: 'x' }));
    expect(await photos.head('x')).toBeNull();
    const many = await client.send(
      new DeleteObjectsCommand({
        Bucket: 'photos',
        Delete: { Objects: [{ Key: 'y' }, { Key: 'missing' }], Quiet: true },
      }),
    );
    expect(many.Deleted!.map((d) => d.Key)).toEqual(['y', 'missing']);
    expect(await photos.head('y')).toBeNull();
  });

  it('copies with COPY, REPLACE and MERGE directives', async () => {
    const { photos, client } = setup();
    const src = await photos.put('src', 'body', {
      httpMetadata: { contentType: 'text/x' },
      customMetadata: { a: '1', b: '2' },
    });
    const copied = await client.send(new CopyObjectCommand({ Bucket: 'photos', Key: 'dst', CopySource: 'photos/src' }));
    expect(copied.CopyObjectResult!.ETag).toBe(src.httpEtag);
    expect(copied.CopySourceVersionId).toBe(src.version);
    expect(copied.VersionId).toBe((await photos.head('dst'))!.version);
    const dst = await photos.get('dst');
    expect(await dst!.text()).toBe('body');
    expect(dst!.customMetadata).toEqual({ a: '1', b: '2' });
    expect(dst!.httpMetadata).toEqual({ contentType: 'text/x' });

    await client.send(
      new CopyObjectCommand({
        Bucket: 'photos',
        Key: 'dst2',
        CopySource: '/photos/src',
        MetadataDirective: 'REPLACE',
        Metadata: { c: '3' },
      }),
    );
    expect((await photos.head('dst2'))!.customMetadata).toEqual({ c: '3' });

    await client.send(
      new CopyObjectCommand({
        Bucket: 'photos',
        Key: 'dst3',
        CopySource: 'photos/src',
        MetadataDirective: 'MERGE' as 'COPY',
        Metadata: { b: 'B' },
      }),
    );
    expect((await photos.head('dst3'))!.customMetadata).toEqual({ a: '1', b: 'B' });

    await expect(
      client.send(
        new CopyObjectCommand({ Bucket: 'photos', Key: 'd', CopySource: 'photos/src', CopySourceIfMatch: '"nope"' }),
      ),
    ).rejects.toMatchObject({ name: 'PreconditionFailed', $metadata: { httpStatusCode: 412 } });
    await expect(
      client.send(new CopyObjectCommand({ Bucket: 'photos', Key: 'd', CopySource: 'photos/none' })),
    ).rejects.toMatchObject({
      name: 'NoSuchKey',
    });
  });

  it('conditional reads: 304 and 412', async () => {
    const { photos, client } = setup();
    const o = await photos.put('c', 'v');
    await expect(
      client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'c', IfNoneMatch: o.httpEtag })),
    ).rejects.toMatchObject({
      $metadata: { httpStatusCode: 304 },
    });
    await expect(
      client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'c', IfMatch: '"other"' })),
    ).rejects.toMatchObject({
      name: 'PreconditionFailed',
      $metadata: { httpStatusCode: 412 },
    });
    const ok = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'c', IfMatch: o.httpEtag }));
    expect(await ok.Body!.transformToString()).toBe('v');
  });

  it('conditional puts (R2 extension): If-None-Match: * refuses to overwrite', async () => {
    const { photos, client } = setup();
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'once', Body: 'first', IfNoneMatch: '*' }));
    await expect(
      client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'once', Body: 'second', IfNoneMatch: '*' })),
    ).rejects.toMatchObject({
      name: 'PreconditionFailed',
    });
    expect(await (await photos.get('once'))!.text()).toBe('first');
  });

  it('bucket operations: ListBuckets, HeadBucket, GetBucketLocation', async () => {
    const { client } = setup();
    const list = await client.send(new ListBucketsCommand({}));
    expect(list.Buckets!.map((b) => b.Name)).toEqual(['photos']);
    expect(list.Buckets![0]!.CreationDate).toBeInstanceOf(Date);
    const head = await client.send(new HeadBucketCommand({ Bucket: 'photos' }));
    expect(head.BucketRegion).toBe('auto');
    const loc = await client.send(new GetBucketLocationCommand({ Bucket: 'photos' }));
    expect(loc.LocationConstraint).toBe('auto');
  });
});

describe('values written through the binding that HTTP headers cannot hold as they are', () => {
  it('a non-Latin-1 Content-Disposition goes out as its UTF-8 bytes; a line break is left out, not a 500', async () => {
    const { photos, api } = setup();
    await photos.put('f', 'x', {
      httpMetadata: { contentDisposition: 'attachment; filename="café ☕.txt"', contentLanguage: 'en\nfr' },
    });
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    const got = await api.fetch(await signer.sign(`${ENDPOINT}/photos/f`));
    expect(got.status).toBe(200);
    const raw = got.headers.get('content-disposition')!;
    expect(new TextDecoder().decode(Uint8Array.from(raw, (ch) => ch.charCodeAt(0)))).toBe(
      'attachment; filename="café ☕.txt"',
    );
    expect(got.headers.get('content-language')).toBeNull();
  });

  it('whitespace around a value is trimmed as Headers trims it, a line break at either end included; the other headers stay', async () => {
    const { photos, api } = setup();
    await photos.put('g', 'x', {
      httpMetadata: { contentType: ' text/plain\t', contentLanguage: '\r\nen\n', cacheControl: 'no-cache\0' },
    });
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    for (const method of ['GET', 'HEAD']) {
      const got = await api.fetch(await signer.sign(`${ENDPOINT}/photos/g`, { method }));
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('text/plain');
      expect(got.headers.get('content-language')).toBe('en');
      expect(got.headers.get('cache-control')).toBeNull();
      expect(got.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    }
  });
});
