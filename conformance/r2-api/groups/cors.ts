/**
 * A bucket's CORS policy over `/r2/buckets/{bucket}/cors` (issue 18 point 3;
 * docs/sources/r2-api.md#cors, docs r2/buckets/cors): none on a new bucket (404 10059), a PUT replacing
 * the whole policy, the rule shape read back as sent, S3-shaped rules refused (workers-sdk#8486), the
 * same policy read through the S3 endpoint, and the policy deciding what a public host answers a
 * browser ("CORS headers are returned only when the Origin matches exactly"; the rules apply to the
 * S3 endpoint and to public buckets).
 */
import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';
import { publicSkip, publishManaged } from './public-host.js';

const APP = 'https://app.example.com';
/** One rule with every field of the API's shape (the SDK's CORSUpdateParams.Rule). */
const RULE = {
  id: 'app',
  allowed: { origins: [APP], methods: ['GET', 'PUT'], headers: ['content-type'] },
  exposeHeaders: ['ETag'],
  maxAgeSeconds: 3600,
};

export const cors = defineGroup('cors', (t) => {
  t.test('a new bucket has no policy: GET is 404 10059', async (c) => {
    const name = await c.make();
    expectError(await c.request('GET', c.url(`/${name}/cors`)), 404, 10059);
  });

  t.test('a PUT sets the policy, read back as sent; a second PUT replaces it whole; DELETE clears it', async (c) => {
    const name = await c.make();
    const put = await c.request('PUT', c.url(`/${name}/cors`), {
      json: { rules: [RULE, { allowed: { origins: ['*'], methods: ['HEAD'] } }] },
    });
    expect(put.body?.errors, put.text).toEqual([]);
    expect(put.status).toBe(200);
    expect((await c.request('GET', c.url(`/${name}/cors`))).body.result.rules).toEqual([
      RULE,
      { allowed: { origins: ['*'], methods: ['HEAD'] } },
    ]);
    expect((await c.request('PUT', c.url(`/${name}/cors`), { json: { rules: [RULE] } })).status).toBe(200);
    expect((await c.request('GET', c.url(`/${name}/cors`))).body.result.rules).toEqual([RULE]);
    const del = await c.request('DELETE', c.url(`/${name}/cors`));
    expect(del.body?.errors, del.text).toEqual([]);
    expectError(await c.request('GET', c.url(`/${name}/cors`)), 404, 10059);
  });

  t.test(
    'DELETE on a bucket without a policy succeeds',
    async (c) => {
      const name = await c.make();
      const del = await c.request('DELETE', c.url(`/${name}/cors`));
      expect([del.status, del.body?.success], del.text).toEqual([200, true]);
    },
    { difference: 'unestablished-cors-delete-none' },
  );

  t.test(
    'a PUT of {} is a policy with no rules (rules is optional in the schema and the SDK), replacing the one there',
    async (c) => {
      const name = await c.make();
      expect((await c.request('PUT', c.url(`/${name}/cors`), { json: { rules: [RULE] } })).status).toBe(200);
      const put = await c.request('PUT', c.url(`/${name}/cors`), { json: {} });
      expect(put.body?.errors, put.text).toEqual([]);
      expect(put.status).toBe(200);
      expect((await c.request('GET', c.url(`/${name}/cors`))).body.result.rules ?? []).toEqual([]);
    },
  );

  t.test(
    'an S3-shaped rule (AllowedOrigins... in rules) is 400 10040 and the policy stays (workers-sdk#8486)',
    async (c) => {
      const name = await c.make();
      expect((await c.request('PUT', c.url(`/${name}/cors`), { json: { rules: [RULE] } })).status).toBe(200);
      expectError(
        await c.request('PUT', c.url(`/${name}/cors`), {
          json: { rules: [{ AllowedOrigins: [APP], AllowedMethods: ['GET'] }] },
        }),
        400,
        10040,
      );
      expect((await c.request('GET', c.url(`/${name}/cors`))).body.result.rules).toEqual([RULE]);
    },
  );

  t.test(
    'values the API cannot take are 400 10040: maxAgeSeconds over 86400, a method outside GET|PUT|POST|DELETE|HEAD',
    async (c) => {
      const name = await c.make();
      expectError(
        await c.request('PUT', c.url(`/${name}/cors`), { json: { rules: [{ ...RULE, maxAgeSeconds: 86401 }] } }),
        400,
        10040,
      );
      expectError(
        await c.request('PUT', c.url(`/${name}/cors`), {
          json: { rules: [{ allowed: { origins: [APP], methods: ['PATCH'] } }] },
        }),
        400,
        10040,
      );
      expectError(await c.request('GET', c.url(`/${name}/cors`)), 404, 10059);
    },
    { difference: 'unestablished-cors-refusal' },
  );

  t.test(
    "an unknown bucket's /cors is 404 10006",
    async (c) => {
      expectError(await c.request('GET', c.url(`/${c.name('missing')}/cors`)), 404, 10006);
      expectError(await c.request('PUT', c.url(`/${c.name('missing')}/cors`), { json: { rules: [RULE] } }), 404, 10006);
    },
    { difference: 'unestablished-config-not-found' },
  );

  t.test(
    "the S3 endpoint's GetBucketCors reads the policy the API set (R2 docs: one policy for both)",
    async (c) => {
      const name = await c.make();
      expect((await c.request('PUT', c.url(`/${name}/cors`), { json: { rules: [RULE] } })).status).toBe(200);
      const got = await c.s3(name, 'cors');
      expect(got.status, got.text).toBe(200);
      for (const element of [
        `<AllowedOrigin>${APP}</AllowedOrigin>`,
        '<AllowedMethod>PUT</AllowedMethod>',
        '<AllowedHeader>content-type</AllowedHeader>',
        '<ExposeHeader>ETag</ExposeHeader>',
        '<MaxAgeSeconds>3600</MaxAgeSeconds>',
      ]) {
        expect(got.text).toContain(element);
      }
    },
    t.target.s3 ? {} : { skip: 'the target has no S3 endpoint (s3)' },
  );

  const skipPublic = publicSkip(t.target);
  t.test(
    'a public host applies the policy: an exact Origin match gets Access-Control-Allow-Origin and the exposed headers, another origin none; an allowed preflight is answered',
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'page.txt', 'hello');
      expect((await c.request('PUT', c.url(`/${name}/cors`), { json: { rules: [RULE] } })).status).toBe(200);
      const origin = await publishManaged(c, name, 'page.txt');
      const allowed = await t.target.publicFetch!(`${origin}/page.txt`, { headers: { origin: APP } });
      expect([allowed.status, await allowed.text()]).toEqual([200, 'hello']);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
      expect(allowed.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('etag');
      const other = await t.target.publicFetch!(`${origin}/page.txt`, {
        headers: { origin: 'https://other.example.com' },
      });
      await other.arrayBuffer();
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const pre = await t.target.publicFetch!(`${origin}/page.txt`, {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'GET' },
      });
      await pre.arrayBuffer();
      expect(pre.headers.get('access-control-allow-origin')).toBe(APP);
      expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
    },
    skipPublic ? { skip: skipPublic } : {},
  );

  t.test(
    'a preflight no rule allows, at a public host, is 403 with no body',
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'page.txt', 'hello');
      expect((await c.request('PUT', c.url(`/${name}/cors`), { json: { rules: [RULE] } })).status).toBe(200);
      const origin = await publishManaged(c, name, 'page.txt');
      const refused = await t.target.publicFetch!(`${origin}/page.txt`, {
        method: 'OPTIONS',
        headers: { origin: 'https://other.example.com', 'access-control-request-method': 'GET' },
      });
      expect([refused.status, await refused.text(), refused.headers.get('access-control-allow-origin')]).toEqual([
        403,
        '',
        null,
      ]);
    },
    skipPublic ? { skip: skipPublic } : { difference: 'unestablished-public-preflight-refusal' },
  );
});
