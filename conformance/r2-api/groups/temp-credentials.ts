/**
 * R2's temporary access credentials (issue 28, point 4; lib/r2-api/temp-credentials.ts,
 * lib/s3/temporary-access.ts): minted through `POST /accounts/{id}/r2/temp-access-credentials`
 * from the target's S3 key pair, then used on its S3 endpoint with `X-Amz-Security-Token`. A write
 * inside the minted prefix lands; outside it, or with a read-only permission, R2 answers 403
 * AccessDenied (its documented answer for a request beyond a token's permission: r2/api/tokens,
 * r2/api/error-codes). Expiry is checked on the double's clock in spec/r2-api/temp-credentials.test.ts
 * (waiting out a real TTL here would cost the suite seconds); its answer is declared.
 */
import { expect } from '../../runner.js';
import { defineGroup, expectError, type R2ApiClient } from '../harness.js';

async function mint(c: R2ApiClient, body: Record<string, unknown>) {
  return c.request('POST', `${c.target.baseUrl}/accounts/${c.target.accountId}/r2/temp-access-credentials`, {
    json: body,
  });
}

/** One S3 request with minted credentials: status and the error's code. */
async function s3With(
  c: R2ApiClient,
  creds: { accessKeyId: string; secretAccessKey: string; sessionToken: string },
  method: string,
  path: string,
  body?: string,
) {
  const s3 = c.target.s3!;
  const { AwsClient } = await import('aws4fetch');
  const aws = new AwsClient({ ...creds, service: 's3', region: 'auto' });
  const signed = await aws.sign(`${s3.endpoint}/${path}`, { method, ...(body !== undefined ? { body } : {}) });
  const res = await (s3.fetch ?? fetch)(signed);
  const text = await res.text();
  return { status: res.status, code: /<Code>(\w+)<\/Code>/.exec(text)?.[1], text };
}

export const tempCredentials = defineGroup('temporary credentials', (t) => {
  const skip = t.target.s3 ? undefined : 'the target has no S3 endpoint (s3)';

  t.test(
    "minted for a prefix: S3 writes inside it land, writes outside it and a read-only credential's writes are 403 AccessDenied",
    async (c) => {
      const bucket = await c.make();
      const parentAccessKeyId = c.target.s3!.credentials.accessKeyId;
      const rw = await mint(c, {
        bucket,
        parentAccessKeyId,
        permission: 'object-read-write',
        ttlSeconds: 900,
        prefixes: ['in/'],
      });
      expect(rw.body?.errors, rw.text).toEqual([]);
      const creds = rw.body.result as { accessKeyId: string; secretAccessKey: string; sessionToken: string };
      expect(Object.keys(creds).sort()).toEqual(['accessKeyId', 'secretAccessKey', 'sessionToken']);

      const inside = await s3With(c, creds, 'PUT', `${bucket}/in/a.txt`, 'inside');
      expect(inside.status, inside.text).toBe(200);
      c.track(bucket, 'in/a.txt');
      const outside = await s3With(c, creds, 'PUT', `${bucket}/out/a.txt`, 'outside');
      expect([outside.status, outside.code], outside.text).toEqual([403, 'AccessDenied']);

      const ro = (await mint(c, { bucket, parentAccessKeyId, permission: 'object-read-only', ttlSeconds: 900 })).body
        .result;
      const read = await s3With(c, ro, 'GET', `${bucket}/in/a.txt`);
      expect([read.status, read.text]).toEqual([200, 'inside']);
      const write = await s3With(c, ro, 'PUT', `${bucket}/in/b.txt`, 'no');
      expect([write.status, write.code], write.text).toEqual([403, 'AccessDenied']);
    },
    skip ? { skip } : {},
  );

  t.test(
    'a listing under prefix-scoped credentials must ask for a prefix inside the grant',
    async (c) => {
      const bucket = await c.make();
      const creds = (
        await mint(c, {
          bucket,
          parentAccessKeyId: c.target.s3!.credentials.accessKeyId,
          permission: 'object-read-only',
          ttlSeconds: 900,
          prefixes: ['in/'],
        })
      ).body.result;
      expect((await s3With(c, creds, 'GET', `${bucket}?list-type=2&prefix=in/`)).status).toBe(200);
      const all = await s3With(c, creds, 'GET', `${bucket}?list-type=2`);
      expect([all.status, all.code], all.text).toEqual([403, 'AccessDenied']);
    },
    skip ? { skip } : { difference: 'unestablished-temp-credentials-scope' },
  );

  t.test(
    'refused at minting: a bucket the account lacks (10006); a parent key the account does not have, a permission or TTL outside the schema (10040)',
    async (c) => {
      const bucket = await c.make();
      const good = {
        bucket,
        parentAccessKeyId: c.target.s3!.credentials.accessKeyId,
        permission: 'object-read-only',
        ttlSeconds: 60,
      };
      expectError(await mint(c, { ...good, bucket: c.name('missing') }), 404, 10006);
      expectError(await mint(c, { ...good, parentAccessKeyId: 'edt-no-such-access-key' }), 400, 10040);
      expectError(await mint(c, { ...good, permission: 'everything' }), 400, 10040);
      expectError(await mint(c, { ...good, ttlSeconds: 604801 }), 400, 10040);
    },
    skip ? { skip } : { difference: 'unestablished-temp-credentials-errors' },
  );
});
