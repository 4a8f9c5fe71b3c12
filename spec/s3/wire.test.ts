/** What clients put on the wire beyond the plain case: virtual-hosted URLs, SDK checksum defaults, aws-chunked bodies. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { FetchHttpHandler } from '@smithy/fetch-http-handler';
import { AwsClient } from 'aws4fetch';
import { CREDENTIALS, ENDPOINT, errorOf, setup } from './support.js';

describe('addressing', () => {
  it('virtual-hosted style: the bucket in the host name (the SDK without forcePathStyle)', async () => {
    const { api, photos } = setup();
    const client = new S3Client({
      region: 'auto',
      endpoint: ENDPOINT,
      credentials: CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: new FetchHttpHandler({
        customFetch: async (input, init) => {
          const req = new Request(input as RequestInfo, init);
          expect(new URL(req.url).hostname.startsWith('photos.')).toBe(true);
          return api.fetch(req);
        },
      }),
    });
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'vh/key.txt', Body: 'virtual' }));
    expect(await (await photos.get('vh/key.txt'))!.text()).toBe('virtual');
    const got = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'vh/key.txt' }));
    expect(await got.Body!.transformToString()).toBe('virtual');
  });

  it("an unknown bucket on R2's own host name is NoSuchBucket", async () => {
    const { api } = setup();
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    const res = await api.fetch(await signer.sign(ENDPOINT.replace('https://', 'https://other.') + '/k'));
    expect(await errorOf(res)).toMatchObject({ status: 404, code: 'NoSuchBucket' });
  });
});

describe('the SDK with its default checksums (WHEN_SUPPORTED)', () => {
  const defaults = (fetch: typeof globalThis.fetch) =>
    new S3Client({
      region: 'auto',
      endpoint: ENDPOINT,
      forcePathStyle: true,
      credentials: CREDENTIALS,
      requestHandler: new FetchHttpHandler({ customFetch: fetch }),
    });

  it('a CRC32 header on a known-length body is verified and the object stored', async () => {
    const { api, photos } = setup();
    const seen: string[] = [];
    const client = defaults(async (input, init) => {
      const req = new Request(input as RequestInfo, init);
      req.headers.forEach((_, k) => k.startsWith('x-amz-checksum-') && seen.push(k));
      return api.fetch(req);
    });
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'crc', Body: 'checked' }));
    expect(seen).toContain('x-amz-checksum-crc32');
    expect(await (await photos.get('crc'))!.text()).toBe('checked');
  });

  it('a stream body goes as aws-chunked with a trailing checksum: the framing is removed, not stored', async () => {
    const { api, photos } = setup();
    let encoding: string | null = null;
    const client = defaults(async (input, init) => {
      const req = new Request(input as RequestInfo, init);
      encoding = req.headers.get('content-encoding');
      return api.fetch(req);
    });
    const body = Readable.from([Buffer.from('streamed '), Buffer.from('bytes')]);
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: 'chunked', Body: body, ContentLength: 14 }));
    expect(encoding).toContain('aws-chunked');
    const obj = await photos.get('chunked');
    expect(await obj!.text()).toBe('streamed bytes');
    expect(obj!.httpMetadata!.contentEncoding).toBeUndefined();
  });

  it('a wrong x-amz-checksum-crc32 is 400 BadDigest and nothing is stored', async () => {
    const { api, photos } = setup();
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    const res = await api.fetch(
      await signer.sign(`${ENDPOINT}/photos/bad`, {
        method: 'PUT',
        body: 'abc',
        headers: { 'x-amz-checksum-crc32': 'AAAAAA==' },
      }),
    );
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'BadDigest' });
    expect(await photos.head('bad')).toBeNull();
  });

  it('x-amz-checksum-sha256 is kept where the binding shows it (checksums.sha256)', async () => {
    const { api, photos } = setup();
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    const sha = 'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='; // sha256('abc')
    const res = await api.fetch(
      await signer.sign(`${ENDPOINT}/photos/sha`, {
        method: 'PUT',
        body: 'abc',
        headers: { 'x-amz-checksum-sha256': sha },
      }),
    );
    expect(res.status).toBe(200);
    const obj = await photos.head('sha');
    expect(obj!.checksums.toJSON().sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('R2 host names', () => {
  it('a jurisdiction endpoint is path-style; a bucket label before the account id is virtual-hosted', async () => {
    const { api, photos } = setup();
    await photos.put('j', 'jurisdiction');
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    const account = '0123456789abcdef0123456789abcdef';
    const path = await api.fetch(await signer.sign(`https://${account}.eu.r2.cloudflarestorage.com/photos/j`));
    expect(await path.text()).toBe('jurisdiction');
    const virtual = await api.fetch(await signer.sign(`https://photos.${account}.eu.r2.cloudflarestorage.com/j`));
    expect(await virtual.text()).toBe('jurisdiction');
  });
});

describe('header screening on bucket operations', () => {
  it('x-amz-expected-bucket-owner is 501 on listings and HeadBucket too', async () => {
    const { api } = setup();
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    for (const [url, method] of [
      [`${ENDPOINT}/photos?list-type=2`, 'GET'],
      [`${ENDPOINT}/photos`, 'HEAD'],
      [`${ENDPOINT}/photos?location`, 'GET'],
    ] as const) {
      const res = await api.fetch(
        await signer.sign(url, { method, headers: { 'x-amz-expected-bucket-owner': '123' } }),
      );
      expect([url, method, res.status]).toEqual([url, method, 501]);
    }
  });
});
