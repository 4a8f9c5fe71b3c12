/**
 * Only what was signed is obeyed: an `x-amz-*` header outside SignedHeaders gets S3's 403
 * AccessDenied with `HeadersNotSigned` (sigv4.ts says why and where from), and a presigned URL's
 * query cannot be extended with a second signature.
 */
import { describe, expect, it } from 'vitest';
import { AwsClient } from 'aws4fetch';
import { Bucket } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import { CREDENTIALS, ENDPOINT, errorOf, setup } from './support.js';
import { rawSigned } from './raw.js';

const aws = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
const NOT_SIGNED = {
  status: 403,
  code: 'AccessDenied',
  message: 'There were headers present in the request which were not signed',
};

function withOther() {
  const s = setup();
  const other = s.api.addBucket('other');
  return { ...s, other };
}

describe('presigned URLs', () => {
  it("an unsigned x-amz-copy-source does not turn a presigned PUT into a copy of another bucket's object", async () => {
    const { api, photos, other } = withOther();
    await other.put('secret.txt', 'secret');
    const { target } = await rawSigned({ method: 'PUT', path: '/photos/k', presign: true });
    const res = await api.fetch(`${ENDPOINT}${target}`, {
      method: 'PUT',
      headers: { 'x-amz-copy-source': '/other/secret.txt' },
    });
    const e = await errorOf(res);
    expect(e).toMatchObject(NOT_SIGNED);
    expect(e.error?.HeadersNotSigned).toBe('x-amz-copy-source');
    expect(await photos.head('k')).toBeNull();
  });

  it('injected x-amz-meta-* and x-amz-acl are refused, all named; the same headers signed are stored', async () => {
    const { api, photos } = setup();
    const { target } = await rawSigned({ method: 'PUT', path: '/photos/k', presign: true });
    const e = await errorOf(
      await api.fetch(`${ENDPOINT}${target}`, {
        method: 'PUT',
        body: 'x',
        headers: { 'x-amz-meta-owner': 'mallory', 'x-amz-acl': 'private' },
      }),
    );
    expect(e).toMatchObject(NOT_SIGNED);
    expect(e.error?.HeadersNotSigned).toBe('x-amz-acl, x-amz-meta-owner');
    expect(await photos.head('k')).toBeNull();
    const signed = await aws.sign(`${ENDPOINT}/photos/k`, {
      method: 'PUT',
      body: 'x',
      headers: { 'x-amz-meta-owner': 'alice' },
      aws: { signQuery: true },
    });
    expect(new URL(signed.url).searchParams.get('X-Amz-SignedHeaders')).toContain('x-amz-meta-owner');
    expect((await api.fetch(signed)).status).toBe(200);
    expect((await photos.head('k'))!.customMetadata).toEqual({ owner: 'alice' });
  });

  it('a second X-Amz-Signature is covered by the signature (403); X-AMZ-SIGNATURE is not the signature parameter', async () => {
    const { api, photos } = setup();
    await photos.put('k', 'v');
    const { target } = await rawSigned({ path: '/photos/k', presign: true });
    expect((await api.fetch(`${ENDPOINT}${target}`)).status).toBe(200);
    expect(await errorOf(await api.fetch(`${ENDPOINT}${target}&X-Amz-Signature=0000`))).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
    });
    expect(
      await errorOf(
        await api.fetch(`${ENDPOINT}${target.replace('X-Amz-Signature=', 'X-Amz-Signature=0000&X-Amz-Signature=')}`),
      ),
    ).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
    });
    expect(await errorOf(await api.fetch(`${ENDPOINT}${target}&X-AMZ-SIGNATURE=0000`))).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
    });
    expect(
      await errorOf(await api.fetch(`${ENDPOINT}${target.replace('X-Amz-Signature=', 'X-AMZ-SIGNATURE=')}`)),
    ).toMatchObject({
      status: 400,
      code: 'InvalidArgument',
      message: 'Required search parameter X-Amz-Signature missing',
    });
  });
});

describe('header auth', () => {
  it('an x-amz-* header added after signing is refused; a wrong signature is still reported first', async () => {
    const { api, photos } = setup();
    const signed = await aws.sign(`${ENDPOINT}/photos/k`, { method: 'PUT', body: 'x' });
    const h = new Headers(signed.headers);
    h.set('x-amz-meta-injected', '1');
    const e = await errorOf(await api.fetch(new Request(signed.url, { method: 'PUT', body: 'x', headers: h })));
    expect(e).toMatchObject(NOT_SIGNED);
    expect(e.error?.HeadersNotSigned).toBe('x-amz-meta-injected');
    h.set('authorization', h.get('authorization')!.replace(/Signature=\w+/, `Signature=${'0'.repeat(64)}`));
    expect(
      (await errorOf(await api.fetch(new Request(signed.url, { method: 'PUT', body: 'x', headers: h })))).code,
    ).toBe('SignatureDoesNotMatch');
    expect(await photos.head('k')).toBeNull();
  });

  it('without configured credentials the rule still holds (which headers are signed needs no key); x-amz-content-sha256 may go unsigned', async () => {
    const photos = new Bucket();
    const api = new S3Api({ buckets: { photos } });
    const date = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const headers = {
      authorization: `AWS4-HMAC-SHA256 Credential=any/${date.slice(0, 8)}/auto/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`,
      'x-amz-date': date,
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
    };
    expect((await api.fetch(`${ENDPOINT}/photos/k`, { method: 'PUT', body: 'x', headers })).status).toBe(200);
    const e = await errorOf(
      await api.fetch(`${ENDPOINT}/photos/k2`, {
        method: 'PUT',
        body: 'x',
        headers: { ...headers, 'x-amz-copy-source': '/photos/k' },
      }),
    );
    expect(e).toMatchObject(NOT_SIGNED);
    expect(e.error?.HeadersNotSigned).toBe('x-amz-copy-source');
    expect((await photos.list()).objects.map((o) => o.key)).toEqual(['k']);
  });
  it('a header sent twice is signed and read as one value, joined as Headers joins it', async () => {
    const { api, photos } = setup();
    const signed = await aws.sign(`${ENDPOINT}/photos/twice`, {
      method: 'PUT',
      body: 'x',
      headers: [
        ['x-amz-meta-tag', 'a'],
        ['x-amz-meta-tag', 'b'],
      ],
    });
    expect(signed.headers.get('authorization')).toContain('x-amz-meta-tag');
    expect((await api.fetch(signed)).status).toBe(200);
    expect((await photos.head('twice'))?.customMetadata).toEqual({ tag: 'a, b' });
  });
});
