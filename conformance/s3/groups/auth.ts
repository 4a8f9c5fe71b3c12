import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';

/** ISO basic date (`YYYYMMDDTHHMMSSZ`) `ms` before now. */
const amzDate = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().replace(/[-:]|\.\d{3}/g, '');

// SigV4 as R2 checks it (docs/sources/r2-s3.md#authentication).
export const auth = defineGroup('auth', (t) => {
  t.test('a request with no credentials is 400 InvalidArgument "Authorization"', async (c) => {
    const r = await c.send(c.key(), { sign: 'none' });
    expect([r.status, r.error?.Code, r.error?.Message]).toEqual([400, 'InvalidArgument', 'Authorization']);
  });

  t.test("an unknown access key is 401 Unauthorized (not AWS's InvalidAccessKeyId)", async (c) => {
    const r = await c.send(c.key(), {
      credentials: {
        accessKeyId: 'ffffffffffffffffffffffffffffffff',
        secretAccessKey: c.target.credentials.secretAccessKey,
      },
    });
    expect([r.status, r.error?.Code]).toEqual([401, 'Unauthorized']);
  });

  t.test('a wrong secret is 403 SignatureDoesNotMatch with the canonical request and string to sign', async (c) => {
    const r = await c.send(c.key(), { credentials: { ...c.target.credentials, secretAccessKey: 'f'.repeat(64) } });
    expect([r.status, r.error?.Code]).toEqual([403, 'SignatureDoesNotMatch']);
    expect(r.error?.Message).toBe(
      'The request signature we calculated does not match the signature you provided. Check your secret access key and signing method.',
    );
    expect(Object.keys(r.error ?? {})).toEqual(
      expect.arrayContaining(['CanonicalRequest', 'StringToSign', 'SignatureProvided']),
    );
  });

  t.test('no x-amz-content-sha256 is 400 "Missing x-amz-content-sha256"', async (c) => {
    const r = await c.send(c.key(), {
      edit: (req) => {
        const h = new Headers(req.headers);
        h.delete('x-amz-content-sha256');
        return new Request(req.url, { headers: h });
      },
    });
    expect([r.status, r.error?.Code, r.error?.Message]).toEqual([
      400,
      'InvalidRequest',
      'Missing x-amz-content-sha256',
    ]);
  });

  t.test('an x-amz-date an hour old is 403 RequestTimeTooSkewed', async (c) => {
    const r = await c.send(c.key(), {
      edit: (req) => {
        const h = new Headers(req.headers);
        h.set('x-amz-date', amzDate(3600_000));
        return new Request(req.url, { headers: h });
      },
    });
    expect([r.status, r.error?.Code]).toEqual([403, 'RequestTimeTooSkewed']);
  });

  t.test('Authorization: Basic is 400 "Please use AWS4-HMAC-SHA256"', async (c) => {
    const r = await c.send(c.key(), {
      sign: 'none',
      headers: {
        authorization: 'Basic Zm9vOmJhcg==',
        'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
        'x-amz-date': amzDate(0),
      },
    });
    expect([r.status, r.error?.Message]).toEqual([400, 'Please use AWS4-HMAC-SHA256']);
  });

  t.test('a credential scoped to another service is 400 "Credential service should be s3, not sqs"', async (c) => {
    const r = await c.send(c.key(), {
      edit: (req) => {
        const h = new Headers(req.headers);
        h.set('authorization', h.get('authorization')!.replace('/s3/aws4_request', '/sqs/aws4_request'));
        return new Request(req.url, { headers: h });
      },
    });
    expect([r.status, r.error?.Message]).toEqual([400, 'Credential service should be s3, not sqs']);
  });

  t.test(
    "a region outside R2's is 400 InvalidRegionName",
    async (c) => {
      const r = await c.send(c.key(), {
        edit: (req) => {
          const h = new Headers(req.headers);
          h.set('authorization', h.get('authorization')!.replace('/auto/s3/', '/eu-west-1/s3/'));
          return new Request(req.url, { headers: h });
        },
      });
      expect([r.status, r.error?.Code]).toEqual([400, 'InvalidRegionName']);
    },
    { difference: 'miniflare-region-unchecked' },
  );

  t.test(
    "a signed payload hash that is not the body's is 400 XAmzContentSHA256Mismatch, and nothing is stored",
    async (c) => {
      const key = c.key();
      const r = await c.send(key, { method: 'PUT', body: 'abc', headers: { 'x-amz-content-sha256': 'a'.repeat(64) } });
      expect([r.status, r.error?.Code]).toEqual([400, 'XAmzContentSHA256Mismatch']);
      expect((await c.send(key, { method: 'HEAD' })).status).toBe(404);
    },
  );

  t.test('a presigned GET works; expired (signed an hour ago for 60 s) it is 403 ExpiredRequest', async (c) => {
    const key = c.key();
    await c.client.send(new c.sdk.PutObjectCommand({ Bucket: c.bucket, Key: key, Body: 'x' }));
    const fresh = await c.presign(new c.sdk.GetObjectCommand({ Bucket: c.bucket, Key: key }), { expiresIn: 60 });
    const ok = await c.raw(new Request(fresh));
    expect([ok.status, ok.text]).toEqual([200, 'x']);
    const old = await c.presign(new c.sdk.GetObjectCommand({ Bucket: c.bucket, Key: key }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 3600_000),
    });
    const r = await c.raw(new Request(old));
    expect([r.status, r.error?.Code, r.error?.Message]).toEqual([403, 'ExpiredRequest', 'Request has expired']);
  });

  t.test(
    'presigned URL parameter rules: expiry over a week, expiry not a number, missing parameters, edited key',
    async (c) => {
      const key = c.key();
      const url = await c.presign(new c.sdk.GetObjectCommand({ Bucket: c.bucket, Key: key }), { expiresIn: 60 });
      const week = await c.raw(new Request(url.replace('X-Amz-Expires=60', 'X-Amz-Expires=700000')));
      expect([week.status, week.error?.Message]).toEqual([
        400,
        'X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less than 604800 seconds',
      ]);
      const nan = await c.raw(new Request(url.replace('X-Amz-Expires=60', 'X-Amz-Expires=')));
      expect([nan.status, nan.error?.Message]).toEqual([400, 'X-Amz-Expires should be a number']);
      const u = new URL(url);
      u.searchParams.delete('X-Amz-Algorithm');
      u.searchParams.delete('X-Amz-Signature');
      const missing = await c.raw(new Request(u));
      expect([missing.status, missing.error?.Message]).toEqual([
        400,
        'Required search parameters X-Amz-Algorithm,  X-Amz-Signature missing',
      ]);
      const edited = await c.raw(new Request(url.replace(encodeURIComponent(key.split('/').pop()!), 'other')));
      expect([edited.status, edited.error?.Code]).toEqual([403, 'SignatureDoesNotMatch']);
    },
  );

  t.test(
    'a presigned URL whose X-Amz-Signature is upper-cased is 403 SignatureDoesNotMatch: the hex is compared exactly (issue 26)',
    async (c) => {
      const key = c.key();
      await c.client.send(new c.sdk.PutObjectCommand({ Bucket: c.bucket, Key: key, Body: 'x' }));
      const url = new URL(
        await c.presign(new c.sdk.GetObjectCommand({ Bucket: c.bucket, Key: key }), { expiresIn: 60 }),
      );
      const given = url.searchParams.get('X-Amz-Signature')!;
      expect(given).toMatch(/^[0-9a-f]{64}$/);
      url.searchParams.set('X-Amz-Signature', given.toUpperCase());
      const r = await c.raw(new Request(url));
      expect([r.status, r.error?.Code]).toEqual([403, 'SignatureDoesNotMatch']);
    },
  );

  t.test(
    'a presigned PUT with a signed Content-Type stores the body; another Content-Type breaks the signature',
    async (c) => {
      const key = c.key('upload.png');
      const url = await c.presign(
        new c.sdk.PutObjectCommand({ Bucket: c.bucket, Key: key, ContentType: 'image/png' }),
        {
          expiresIn: 60,
          signableHeaders: new Set(['content-type']),
        },
      );
      expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
      const wrong = await c.raw(
        new Request(url, { method: 'PUT', body: 'png', headers: { 'content-type': 'image/gif' } }),
      );
      expect([wrong.status, wrong.error?.Code]).toEqual([403, 'SignatureDoesNotMatch']);
      const ok = await c.raw(
        new Request(url, { method: 'PUT', body: 'png', headers: { 'content-type': 'image/png' } }),
      );
      expect(ok.status).toBe(200);
      const head = await c.send(key, { method: 'HEAD' });
      expect([head.headers.get('content-type'), head.headers.get('etag')]).toEqual([
        'image/png',
        ok.headers.get('etag'),
      ]);
    },
  );

  t.test(
    "a presigned PUT whose URL carries the empty body's CRC32 (the SDK default) is 400 for a real body",
    async (c) => {
      const key = c.key();
      const r = await c.send(key, {
        method: 'PUT',
        sign: 'query',
        query: 'x-amz-checksum-crc32=AAAAAA%3D%3D',
        body: 'not empty',
      });
      expect(r.status).toBe(400);
      expect((await c.send(key, { method: 'HEAD' })).status).toBe(404);
    },
    { difference: 'miniflare-checksums-ignored' },
  );

  t.test(
    'auth errors come before NoSuchBucket',
    async (c) => {
      const r = await c.raw(new Request(c.url(c.key()).replace(`/${c.bucket}/`, '/edge-doubles-no-such-bucket/')));
      expect([r.status, r.error?.Code]).toEqual([400, 'InvalidArgument']);
    },
    { difference: 'miniflare-bucket-before-auth' },
  );
});
