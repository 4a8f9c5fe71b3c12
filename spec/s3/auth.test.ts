/** SigV4 as R2 checks it: header auth and presigned URLs, each failure with R2's code and status. */
import { describe, expect, it } from 'vitest';
import { AwsClient } from 'aws4fetch';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Bucket } from 'edge-doubles/bucket';
import { S3Api } from 'edge-doubles/s3';
import { CREDENTIALS, ENDPOINT, errorOf, sdk, setup } from './support.js';

const signer = (over: Partial<typeof CREDENTIALS> = {}) =>
  new AwsClient({ ...CREDENTIALS, ...over, service: 's3', region: 'auto' });

/** A request signed at `datetime` (ISO basic), sent to the double. */
async function send(api: S3Api, url: string, init: RequestInit & { aws?: Record<string, unknown> } = {}) {
  const req = await signer().sign(url, init as never);
  return api.fetch(req);
}

describe('header auth', () => {
  it('accepts aws4fetch and the SDK; refuses a wrong secret with SignatureDoesNotMatch and its debugging fields', async () => {
    const { api, photos } = setup();
    await photos.put('k', 'v');
    expect((await send(api, `${ENDPOINT}/photos/k`)).status).toBe(200);
    const bad = await (await signer({ secretAccessKey: 'wrong' }).sign(`${ENDPOINT}/photos/k`)).clone();
    const res = await errorOf(await api.fetch(bad));
    expect(res).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(res.message).toBe(
      'The request signature we calculated does not match the signature you provided. Check your secret access key and signing method.',
    );
    for (const el of [
      'StringToSign',
      'StringToSignBytes',
      'CanonicalRequest',
      'CanonicalRequestBytes',
      'SignatureProvided',
    ]) {
      expect(res.text).toContain(`<${el}>`);
    }
    const client = sdk(api.fetch, ENDPOINT, { ...CREDENTIALS, secretAccessKey: 'nope' });
    await expect(client.send(new GetObjectCommand({ Bucket: 'photos', Key: 'k' }))).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
      $metadata: { httpStatusCode: 403 },
    });
  });

  it("an unknown access key is R2's 401 Unauthorized, not AWS's InvalidAccessKeyId", async () => {
    const { api } = setup();
    const res = await errorOf(
      await api.fetch(await signer({ accessKeyId: 'ffffffffffffffffffffffffffffffff' }).sign(`${ENDPOINT}/photos/k`)),
    );
    expect(res).toMatchObject({ status: 401, code: 'Unauthorized', message: 'Unauthorized' });
  });

  it('no credentials at all: 400 InvalidArgument "Authorization"', async () => {
    const { api } = setup();
    expect(await errorOf(await api.fetch(`${ENDPOINT}/photos/k`))).toMatchObject({
      status: 400,
      code: 'InvalidArgument',
      message: 'Authorization',
    });
  });

  it('auth errors come before NoSuchBucket', async () => {
    const { api } = setup();
    const res = await errorOf(
      await api.fetch(await signer({ secretAccessKey: 'wrong' }).sign(`${ENDPOINT}/nobucket/k`)),
    );
    expect(res.code).toBe('SignatureDoesNotMatch');
  });

  it("checks in R2's order: payload hash header, date, skew, algorithm, scope", async () => {
    const { api } = setup();
    const base = await signer().sign(`${ENDPOINT}/photos/k`);
    const with_ = (edit: (h: Headers) => void) => {
      const h = new Headers(base.headers);
      edit(h);
      return api.fetch(new Request(base.url, { headers: h })).then(errorOf);
    };
    expect(await with_((h) => h.delete('x-amz-content-sha256'))).toMatchObject({
      status: 400,
      code: 'InvalidRequest',
      message: 'Missing x-amz-content-sha256',
    });
    expect(await with_((h) => h.delete('x-amz-date'))).toMatchObject({
      status: 400,
      message: 'No date provided in x-amz-date nor date header',
    });
    expect(
      await with_((h) => {
        h.delete('x-amz-date');
        h.set('date', 'Mon, 23 Nov 2026 08:00:00 GMT');
      }),
    ).toMatchObject({
      status: 400,
      message: "Date provided in 'date' header (Mon, 23 Nov 2026 08:00:00 GMT) didn't parse successfully",
    });
    const old = new Date(Date.now() - 3600_000).toISOString().replace(/[-:]|\.\d{3}/g, '');
    expect(await with_((h) => h.set('x-amz-date', old))).toMatchObject({ status: 403, code: 'RequestTimeTooSkewed' });
    expect(await with_((h) => h.set('authorization', 'Basic Zm9vOmJhcg=='))).toMatchObject({
      status: 400,
      message: 'Please use AWS4-HMAC-SHA256',
    });
    const auth = base.headers.get('authorization')!;
    expect(await with_((h) => h.set('authorization', auth.replace('/s3/', '/sqs/')))).toMatchObject({
      status: 400,
      message: 'Credential service should be s3, not sqs',
    });
    expect(
      await with_((h) => h.set('authorization', auth.replace(/Credential=([^/]+)\/\d{8}/, 'Credential=$1/19990101'))),
    ).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Credential signed date 19990101 does not match \d{8} from 'x-amz-date' header$/),
    });
    expect(await with_((h) => h.set('authorization', auth.replace('/auto/', '/eu-west-1/')))).toMatchObject({
      status: 400,
      code: 'InvalidRegionName',
    });
  });

  it('a signed payload hash that does not match the body: XAmzContentSHA256Mismatch; UNSIGNED-PAYLOAD is fine', async () => {
    const { api, photos } = setup();
    const req = await signer().sign(`${ENDPOINT}/photos/h`, {
      method: 'PUT',
      body: 'abc',
      headers: { 'x-amz-content-sha256': 'a'.repeat(64) },
    });
    expect(await errorOf(await api.fetch(req))).toMatchObject({ status: 400, code: 'XAmzContentSHA256Mismatch' });
    expect(await photos.head('h')).toBeNull();
    const ok = await signer().sign(`${ENDPOINT}/photos/h`, { method: 'PUT', body: 'abc' });
    expect(ok.headers.get('x-amz-content-sha256')).toBe('UNSIGNED-PAYLOAD');
    expect((await api.fetch(ok)).status).toBe(200);
  });

  it('signed streaming payloads are refused as R2 refuses them', async () => {
    const { api } = setup();
    const req = await signer().sign(`${ENDPOINT}/photos/s`, {
      method: 'PUT',
      body: 'x',
      headers: { 'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD' },
    });
    expect(await errorOf(await api.fetch(req))).toMatchObject({ status: 501, code: 'NotImplemented' });
  });

  it('without configured credentials any well-formed signature passes, malformed ones do not', async () => {
    const api = new S3Api({ buckets: { photos: new Bucket() } });
    expect((await api.fetch(await signer({ secretAccessKey: 'anything' }).sign(`${ENDPOINT}/photos/`))).status).toBe(
      200,
    );
    expect((await api.fetch(`${ENDPOINT}/photos/`)).status).toBe(400);
  });

  it('keys with reserved characters round-trip, signed by the SDK and by aws4fetch', async () => {
    const { api, photos, client } = setup();
    const key = "literal 100%/a+b (it's)!*.txt";
    await client.send(new PutObjectCommand({ Bucket: 'photos', Key: key, Body: 'sdk' }));
    expect(await (await photos.get(key))!.text()).toBe('sdk');
    const res = await send(api, `${ENDPOINT}/photos/${key.split('/').map(encodeURIComponent).join('/')}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('sdk');
  });
});

describe('presigned URLs', () => {
  it('a presigned PUT used by plain fetch, then read through the binding with the same etag', async () => {
    const { api, photos, client } = setup();
    const url = await getSignedUrl(
      client,
      new PutObjectCommand({ Bucket: 'photos', Key: 'up/avatar.png', ContentType: 'image/png' }),
      {
        expiresIn: 600,
      },
    );
    expect(url).toContain('X-Amz-Signature=');
    const res = await api.fetch(url, {
      method: 'PUT',
      body: new Uint8Array([137, 80, 78, 71]),
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status).toBe(200);
    const obj = await photos.get('up/avatar.png');
    expect([...(await obj!.bytes())]).toEqual([137, 80, 78, 71]);
    expect(res.headers.get('etag')).toBe(obj!.httpEtag);
    expect(obj!.httpMetadata!.contentType).toBe('image/png');
  });

  it('a presigned GET works until it expires: then 403 ExpiredRequest', async () => {
    let now = Date.UTC(2026, 0, 1, 12);
    const photos = new Bucket();
    const api = new S3Api({ buckets: { photos }, credentials: [CREDENTIALS], clock: () => now });
    await photos.put('p', 'presigned');
    const client = sdk(api.fetch);
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'photos', Key: 'p' }), {
      expiresIn: 60,
      signingDate: new Date(now),
    });
    expect(await (await api.fetch(url)).text()).toBe('presigned');
    now += 61_000;
    expect(await errorOf(await api.fetch(url))).toMatchObject({
      status: 403,
      code: 'ExpiredRequest',
      message: 'Request has expired',
    });
  });

  it('a changed key or signed header breaks the signature; X-Amz-Expires rules', async () => {
    const { api, client, photos } = setup();
    await photos.put('a', '1');
    await photos.put('b', '2');
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'photos', Key: 'a' }), { expiresIn: 60 });
    expect(await errorOf(await api.fetch(url.replace('/photos/a?', '/photos/b?')))).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
    });
    expect(await errorOf(await api.fetch(url.replace('X-Amz-Expires=60', 'X-Amz-Expires=700000')))).toMatchObject({
      status: 400,
      message: expect.stringContaining('X-Amz-Expires must be less than a week'),
    });
    expect(await errorOf(await api.fetch(url.replace('X-Amz-Expires=60', 'X-Amz-Expires=')))).toMatchObject({
      status: 400,
      message: 'X-Amz-Expires should be a number',
    });
    const stripped = new URL(url);
    stripped.searchParams.delete('X-Amz-Algorithm');
    stripped.searchParams.delete('X-Amz-Signature');
    expect(await errorOf(await api.fetch(stripped))).toMatchObject({
      status: 400,
      message: 'Required search parameters X-Amz-Algorithm,  X-Amz-Signature missing',
    });
  });

  it('an upper-cased X-Amz-Signature is refused: S3 compares the lower-case hex exactly (issue 26)', async () => {
    const { api, client, photos } = setup();
    await photos.put('a', '1');
    const url = new URL(
      await getSignedUrl(client, new GetObjectCommand({ Bucket: 'photos', Key: 'a' }), { expiresIn: 60 }),
    );
    const given = url.searchParams.get('X-Amz-Signature')!;
    expect(given).toMatch(/^[0-9a-f]{64}$/);
    expect((await api.fetch(url)).status).toBe(200);
    url.searchParams.set('X-Amz-Signature', given.toUpperCase());
    const res = await errorOf(await api.fetch(url));
    expect(res).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(res.text).toContain(`<SignatureProvided>${given.toUpperCase()}</SignatureProvided>`);
  });

  it('an upper-cased header signature is refused the same way', async () => {
    const { api, photos } = setup();
    await photos.put('a', '1');
    const req = await signer().sign(`${ENDPOINT}/photos/a`);
    const auth = req.headers.get('authorization')!;
    const upper = new Request(req, { headers: new Headers(req.headers) });
    upper.headers.set(
      'authorization',
      auth.replace(/Signature=([0-9a-f]{64})/, (_, sig: string) => `Signature=${sig.toUpperCase()}`),
    );
    expect(upper.headers.get('authorization')).not.toBe(auth);
    expect(await errorOf(await api.fetch(upper))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect((await api.fetch(req)).status).toBe(200);
  });

  it('aws4fetch query signing', async () => {
    const { api, photos } = setup();
    await photos.put('q', 'query-signed');
    const req = await signer().sign(`${ENDPOINT}/photos/q`, { aws: { signQuery: true } });
    expect(new URL(req.url).searchParams.get('X-Amz-Expires')).toBe('86400');
    expect(await (await api.fetch(req)).text()).toBe('query-signed');
  });
});

describe('temporary credentials', () => {
  it('a session token picks its own secret under the parent key id; a wrong token is refused', async () => {
    const temp = {
      accessKeyId: CREDENTIALS.accessKeyId,
      secretAccessKey: 'temporary-secret',
      sessionToken: 'session-token-1',
    };
    const photos = new Bucket();
    const api = new S3Api({ buckets: { photos }, credentials: [CREDENTIALS, temp] });
    await photos.put('t', 'temp');
    const tempSigner = new AwsClient({ ...temp, service: 's3', region: 'auto' });
    const ok = await api.fetch(await tempSigner.sign(`${ENDPOINT}/photos/t`));
    expect(await ok.text()).toBe('temp');
    const client = sdk(api.fetch, ENDPOINT, temp);
    const got = await client.send(new GetObjectCommand({ Bucket: 'photos', Key: 't' }));
    expect(await got.Body!.transformToString()).toBe('temp');
    const wrong = new AwsClient({ ...temp, sessionToken: 'other', service: 's3', region: 'auto' });
    expect(await errorOf(await api.fetch(await wrong.sign(`${ENDPOINT}/photos/t`)))).toMatchObject({
      status: 400,
      code: 'InvalidToken',
    });
    // The parent pair without a token still works.
    expect((await api.fetch(await signer().sign(`${ENDPOINT}/photos/t`))).status).toBe(200);
  });
});

describe("presigned PUTs signed with the SDK's default checksums", () => {
  it("carry the empty body's CRC32 in the URL, and R2 refuses the real body with 400 BadDigest", async () => {
    const photos = new Bucket();
    const api = new S3Api({ buckets: { photos }, credentials: [CREDENTIALS] });
    const defaults = new S3Client({
      region: 'auto',
      endpoint: ENDPOINT,
      forcePathStyle: true,
      credentials: CREDENTIALS,
    });
    const url = await getSignedUrl(defaults, new PutObjectCommand({ Bucket: 'photos', Key: 'crc' }), { expiresIn: 60 });
    expect(new URL(url).searchParams.get('x-amz-checksum-crc32')).toBe('AAAAAA==');
    const res = await api.fetch(url, { method: 'PUT', body: 'not empty' });
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'BadDigest' });
    expect(await photos.head('crc')).toBeNull();
    // With R2's documented setting the URL carries no checksum, and the upload works.
    const fixed = await getSignedUrl(sdk(undefined), new PutObjectCommand({ Bucket: 'photos', Key: 'crc' }), {
      expiresIn: 60,
    });
    expect((await api.fetch(fixed, { method: 'PUT', body: 'not empty' })).status).toBe(200);
  });
});
