/** Bucket CORS: rules set through S3, preflights answered from them, headers on matching requests. */
import { describe, expect, it } from 'vitest';
import { DeleteBucketCorsCommand, GetBucketCorsCommand, PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { AwsClient } from 'aws4fetch';
import { CREDENTIALS, ENDPOINT, errorOf, setup } from './support.js';

const signer = new AwsClient({ ...CREDENTIALS, service: 's3', region: 'auto' });
const APP = 'https://app.example';

async function withRules() {
  const s = setup();
  await s.client.send(
    new PutBucketCorsCommand({
      Bucket: 'photos',
      CORSConfiguration: {
        CORSRules: [
          {
            AllowedOrigins: [APP],
            AllowedMethods: ['GET', 'PUT'],
            AllowedHeaders: ['content-type', 'x-amz-*'],
            ExposeHeaders: ['ETag'],
            MaxAgeSeconds: 600,
          },
        ],
      },
    }),
  );
  return s;
}

describe('bucket CORS', () => {
  it('GetBucketCors returns what PutBucketCors set; DeleteBucketCors removes it (then 404 NoSuchCORSConfiguration)', async () => {
    const { client } = await withRules();
    const got = await client.send(new GetBucketCorsCommand({ Bucket: 'photos' }));
    expect(got.CORSRules).toEqual([
      {
        AllowedOrigins: [APP],
        AllowedMethods: ['GET', 'PUT'],
        AllowedHeaders: ['content-type', 'x-amz-*'],
        ExposeHeaders: ['ETag'],
        MaxAgeSeconds: 600,
      },
    ]);
    await client.send(new DeleteBucketCorsCommand({ Bucket: 'photos' }));
    await expect(client.send(new GetBucketCorsCommand({ Bucket: 'photos' }))).rejects.toMatchObject({
      name: 'NoSuchCORSConfiguration',
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('a browser preflight for a presigned PUT from an allowed origin is answered, unsigned', async () => {
    const { api } = await withRules();
    const res = await api.fetch(`${ENDPOINT}/photos/upload.png?X-Amz-Signature=x`, {
      method: 'OPTIONS',
      headers: {
        origin: APP,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'Content-Type',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, PUT');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(res.headers.get('access-control-max-age')).toBe('600');
  });

  it('a preflight from another origin, for another method or header, is refused with 403', async () => {
    const { api } = await withRules();
    const ask = (origin: string, method: string, headers = '') =>
      api.fetch(`${ENDPOINT}/photos/k`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': method,
          ...(headers ? { 'access-control-request-headers': headers } : {}),
        },
      });
    expect((await ask('https://evil.example', 'PUT')).status).toBe(403);
    expect((await ask(APP, 'DELETE')).status).toBe(403);
    expect((await ask(APP, 'PUT', 'x-custom')).status).toBe(403);
    const none = setup();
    expect(
      (
        await none.api.fetch(`${ENDPOINT}/photos/k`, {
          method: 'OPTIONS',
          headers: { origin: APP, 'access-control-request-method': 'GET' },
        })
      ).status,
    ).toBe(403);
  });

  it("a matching request's answer carries Access-Control-Allow-Origin and the exposed ETag; others carry none", async () => {
    const { api, photos } = await withRules();
    await photos.put('k', 'v');
    const ok = await api.fetch(await signer.sign(`${ENDPOINT}/photos/k`, { headers: { origin: APP } }));
    expect([ok.headers.get('access-control-allow-origin'), ok.headers.get('access-control-expose-headers')]).toEqual([
      APP,
      'ETag',
    ]);
    expect(await ok.text()).toBe('v');
    const other = await api.fetch(
      await signer.sign(`${ENDPOINT}/photos/k`, { headers: { origin: 'https://evil.example' } }),
    );
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const missing = await api.fetch(await signer.sign(`${ENDPOINT}/photos/none`, { headers: { origin: APP } }));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('refuses configurations with unknown elements or methods', async () => {
    const { api } = setup();
    const put = async (xml: string) =>
      errorOf(await api.fetch(await signer.sign(`${ENDPOINT}/photos?cors`, { method: 'PUT', body: xml })));
    expect(
      await put(
        '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><Bogus/></CORSRule></CORSConfiguration>',
      ),
    ).toMatchObject({
      status: 400,
      code: 'MalformedXML',
    });
    expect(
      await put(
        '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PATCH</AllowedMethod></CORSRule></CORSConfiguration>',
      ),
    ).toMatchObject({
      status: 400,
      code: 'InvalidRequest',
    });
  });
});

describe('bucket CORS: values echoed as headers', () => {
  it('an ExposeHeader no header can carry is refused when set (MalformedXML, or a TypeError from setBucketCors), so later answers never 500', async () => {
    const { api } = setup();
    const xml = `<CORSConfiguration><CORSRule><AllowedOrigin>${APP}</AllowedOrigin><AllowedMethod>GET</AllowedMethod><ExposeHeader>x-😀</ExposeHeader></CORSRule></CORSConfiguration>`;
    const e = await errorOf(
      await api.fetch(await signer.sign(`${ENDPOINT}/photos?cors`, { method: 'PUT', body: xml })),
    );
    expect(e).toMatchObject({ status: 400, code: 'MalformedXML' });
    expect(() =>
      api.setBucketCors('photos', [{ origins: [APP], methods: ['GET'], headers: [], expose: ['x-\u0100'] }]),
    ).toThrow(TypeError);
    const res = await api.fetch(await signer.sign(`${ENDPOINT}/photos/none`, { headers: { origin: APP } }));
    expect(res.status).toBe(404);
  });
});
