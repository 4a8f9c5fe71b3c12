/** Bucket-level operations on the double's own set of buckets. */
import { describe, expect, it } from 'vitest';
import { CreateBucketCommand, DeleteBucketCommand, ListBucketsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { AwsClient } from 'aws4fetch';
import { Bucket } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import { CREDENTIALS, ENDPOINT, errorOf, sdk, setup } from './support.js';

describe('buckets', () => {
  it('CreateBucket adds a bucket reachable through api.bucket(); DeleteBucket refuses a non-empty one', async () => {
    const { api, client } = setup();
    await client.send(new CreateBucketCommand({ Bucket: 'fresh' }));
    await client.send(new PutObjectCommand({ Bucket: 'fresh', Key: 'k', Body: 'v' }));
    expect(await (await api.bucket('fresh')!.get('k'))!.text()).toBe('v');
    // R2's code for a name already taken (its error-code reference, 10073), not AWS's BucketAlreadyExists.
    await expect(client.send(new CreateBucketCommand({ Bucket: 'fresh' }))).rejects.toMatchObject({
      name: 'BucketConflict',
      message: 'Bucket name already exists.',
      $metadata: { httpStatusCode: 409 },
    });
    await expect(client.send(new DeleteBucketCommand({ Bucket: 'fresh' }))).rejects.toMatchObject({
      name: 'BucketNotEmpty',
      $metadata: { httpStatusCode: 409 },
    });
    await api.bucket('fresh')!.delete('k');
    await client.send(new DeleteBucketCommand({ Bucket: 'fresh' }));
    expect(api.bucket('fresh')).toBeUndefined();
    await expect(client.send(new CreateBucketCommand({ Bucket: 'Bad_Name' }))).rejects.toMatchObject({
      name: 'InvalidBucketName',
    });
  });

  it("ListBuckets pages with R2's max-keys / continuation-token extension", async () => {
    const api = new S3Api({
      buckets: { a: new Bucket(), b: new Bucket(), c: new Bucket() },
      credentials: [CREDENTIALS],
    });
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    const first = await api.fetch(await signer.sign(`${ENDPOINT}/?max-keys=2`));
    const text = await first.text();
    expect(text).toContain('<Name>a</Name><CreationDate>');
    expect(text).not.toContain('<Name>c</Name>');
    expect(first.headers.get('cf-is-truncated')).toBe('true');
    const token = first.headers.get('cf-next-continuation-token')!;
    const rest = await api.fetch(await signer.sign(`${ENDPOINT}/?continuation-token=${encodeURIComponent(token)}`));
    const names = [...(await rest.text()).matchAll(/<Name>(.*?)<\/Name>/g)].map((m) => m[1]);
    expect(names).toEqual(['c']);
    const all = await sdk(api.fetch).send(new ListBucketsCommand({}));
    expect(all.Buckets!.map((b) => b.Name)).toEqual(['a', 'b', 'c']);
    expect(all.Owner?.ID).toMatch(/^[0-9a-f]{32}$/);
  });

  it('refuses anything but an edge-doubles Bucket, and answers unknown routes with S3 errors', async () => {
    expect(() => new S3Api({ buckets: { x: {} as Bucket } })).toThrow(TypeError);
    const { api } = setup();
    const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
    expect(await errorOf(await api.fetch(await signer.sign(`${ENDPOINT}/`, { method: 'DELETE' })))).toMatchObject({
      status: 404,
      code: 'RouteNotFound',
    });
    expect(await errorOf(await api.fetch(await signer.sign(`${ENDPOINT}/photos/k?torrent`)))).toMatchObject({
      status: 501,
      message: 'GetObjectTorrent not implemented',
    });
  });
});
