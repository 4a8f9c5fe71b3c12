/**
 * Public access over `/r2/buckets/{bucket}/domains/...` (issue 18 point 6;
 * docs/sources/r2-api.md#public-access, docs r2/buckets/public-buckets): the managed r2.dev domain
 * (off on a new bucket, `{ bucketId, domain, enabled }`, PUT `{ enabled }`), custom domains (POST,
 * list, get, PUT, DELETE with the SDK's shapes), and what a public host answers: the object,
 * ranges, its 404.
 *
 * The custom-domain tests need a zone of the account (`target.zone`); they connect subdomains named
 * after the test's prefix and remove them at cleanup (harness.ts). What production does not
 * establish (our 10040/409/404 answers, statuses active at once, how the r2.dev hex is derived, a
 * host serving no bucket, an SSE-C object at a public host) is declared in differences.ts.
 */
import { expect } from '../../runner.js';
import { defineGroup, expectError, type R2ApiClient } from '../harness.js';
import { publicSkip, publishManaged } from './public-host.js';

const R2_DEV = /^pub-[0-9a-f]{32}\.r2\.dev$/;

/** A subdomain of the target's zone for this test: `<prefix>-<label>.<zone>`. */
const sub = (c: R2ApiClient, label: string) => `${c.prefix}-${label}.${c.target.zone!.name}`;

export const domains = defineGroup('domains', (t) => {
  t.test(
    'r2.dev is off on a new bucket; PUT {enabled} turns it on and off and answers { bucketId, domain, enabled }',
    async (c) => {
      const name = await c.make();
      const first = await c.request('GET', c.url(`/${name}/domains/managed`));
      expect(first.status, first.text).toBe(200);
      expect(first.body.result).toMatchObject({ enabled: false, bucketId: expect.any(String) });
      expect(first.body.result.domain).toMatch(R2_DEV);
      const on = await c.setManaged(name, true);
      expect(on.body?.errors, on.text).toEqual([]);
      expect(on.body.result).toEqual({ ...first.body.result, enabled: true });
      expect((await c.request('GET', c.url(`/${name}/domains/managed`))).body.result.enabled).toBe(true);
      expect((await c.setManaged(name, false)).body.result).toEqual(first.body.result);
    },
  );

  t.test(
    'a body without a boolean enabled is 400 10040',
    async (c) => {
      const name = await c.make();
      expectError(await c.setManaged(name, 'yes'), 400, 10040);
      expect((await c.request('GET', c.url(`/${name}/domains/managed`))).body.result.enabled).toBe(false);
    },
    { difference: 'unestablished-domain-body' },
  );

  t.test(
    "an unknown bucket's /domains are 404 10006",
    async (c) => {
      expectError(await c.request('GET', c.url(`/${c.name('missing')}/domains/managed`)), 404, 10006);
      expectError(await c.request('GET', c.url(`/${c.name('missing')}/domains/custom`)), 404, 10006);
    },
    { difference: 'unestablished-config-not-found' },
  );

  t.test(
    'a bucket made again under its name has the same r2.dev host',
    async (c) => {
      const name = await c.make();
      const before = (await c.request('GET', c.url(`/${name}/domains/managed`))).body.result.domain;
      expect((await c.delete(name)).status).toBe(200);
      await c.make();
      expect((await c.request('GET', c.url(`/${name}/domains/managed`))).body.result.domain).toBe(before);
    },
    { difference: 'unestablished-r2dev-hex' },
  );

  const skipPublic = publicSkip(t.target);
  t.test(
    "the r2.dev host serves the bucket's objects: the body, its Content-Type and quoted ETag, a Range as 206; a missing key is 404",
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'cat.txt', '0123456789');
      const origin = await publishManaged(c, name, 'cat.txt');
      const got = await t.target.publicFetch!(`${origin}/cat.txt`);
      expect([got.status, await got.text()]).toEqual([200, '0123456789']);
      expect(got.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
      expect(got.headers.get('content-length')).toBe('10');
      const part = await t.target.publicFetch!(`${origin}/cat.txt`, { headers: { range: 'bytes=2-4' } });
      expect([part.status, await part.text(), part.headers.get('content-range')]).toEqual([206, '234', 'bytes 2-4/10']);
      const missing = await t.target.publicFetch!(`${origin}/no-such-key`);
      await missing.arrayBuffer();
      expect(missing.status).toBe(404);
    },
    skipPublic ? { skip: skipPublic } : {},
  );

  t.test(
    'a host that serves no bucket (r2.dev disabled) is 404',
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'cat.txt', 'meow');
      const origin = await publishManaged(c, name, 'cat.txt');
      expect((await c.setManaged(name, false)).status).toBe(200);
      const res = await t.target.publicFetch!(`${origin}/cat.txt`);
      expect([res.status, await res.text()]).toEqual([404, '404 Not Found']);
    },
    skipPublic ? { skip: skipPublic } : { difference: 'unestablished-public-no-bucket' },
  );

  t.test(
    'an object written with SSE-C is 400 with no body at a public host',
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'plain.txt', 'x');
      const s3 = t.target.s3!;
      const { AwsClient } = await import('aws4fetch');
      const aws = new AwsClient({ ...s3.credentials, service: 's3', region: 'auto' });
      // A fixed 32-byte key (0x07 × 32) and its MD5, both base64 (S3's SSE-C headers).
      const ssec = {
        'x-amz-server-side-encryption-customer-algorithm': 'AES256',
        'x-amz-server-side-encryption-customer-key': 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=',
        'x-amz-server-side-encryption-customer-key-md5': 'y4HAEFCYWuvAXWFTtA1Qpg==',
      };
      const url = `${s3.endpoint}/${name}/secret.txt`;
      const put = await (s3.fetch ?? fetch)(await aws.sign(url, { method: 'PUT', headers: ssec, body: 'classified' }));
      expect(put.status, await put.text()).toBe(200);
      try {
        const origin = await publishManaged(c, name, 'plain.txt');
        const res = await t.target.publicFetch!(`${origin}/secret.txt`);
        expect([res.status, await res.text()]).toEqual([400, '']);
      } finally {
        await (s3.fetch ?? fetch)(await aws.sign(url, { method: 'DELETE' }));
      }
    },
    skipPublic || !t.target.s3
      ? { skip: skipPublic ?? 'the target has no S3 endpoint (s3)' }
      : { difference: 'unestablished-public-ssec' },
  );

  const skipZone = t.target.zone ? undefined : 'the target has no zone (zone)';
  t.test(
    "custom domains: POST connects one of the account's zone, list/get show it, PUT changes it, DELETE removes it",
    async (c) => {
      const name = await c.make();
      const domain = sub(c, 'cdn');
      const { id: zoneId, name: zoneName } = t.target.zone!;
      const added = await c.addDomain(name, { domain, zoneId, enabled: true, minTLS: '1.2' });
      expect(added.body?.errors, added.text).toEqual([]);
      expect(added.body.result).toMatchObject({ domain, enabled: true, zoneId, minTLS: '1.2' });
      const list = await c.request('GET', c.url(`/${name}/domains/custom`));
      expect(list.body.result.domains).toEqual([
        expect.objectContaining({ domain, enabled: true, zoneId, zoneName, minTLS: '1.2', status: expect.any(Object) }),
      ]);
      expect((await c.request('GET', c.url(`/${name}/domains/custom/${domain}`))).body.result).toMatchObject({
        domain,
        zoneId,
        zoneName,
      });
      const updated = await c.request('PUT', c.url(`/${name}/domains/custom/${domain}`), {
        json: { enabled: false, minTLS: '1.3' },
      });
      expect(updated.body.result).toMatchObject({ domain, enabled: false, minTLS: '1.3' });
      const removed = await c.request('DELETE', c.url(`/${name}/domains/custom/${domain}`));
      expect(removed.body.result).toEqual({ domain });
      expect((await c.request('GET', c.url(`/${name}/domains/custom`))).body.result.domains).toEqual([]);
    },
    skipZone ? { skip: skipZone } : {},
  );

  t.test(
    'a custom domain is active at once and serves the bucket while enabled',
    async (c) => {
      const name = await c.make();
      const domain = sub(c, 'img');
      expect((await c.addDomain(name, { domain, zoneId: t.target.zone!.id, enabled: true })).status).toBe(200);
      expect((await c.request('GET', c.url(`/${name}/domains/custom/${domain}`))).body.result.status).toEqual({
        ownership: 'active',
        ssl: 'active',
      });
      if (!t.target.publicFetch || !t.target.putObject) return;
      await c.putObject(name, 'dog.txt', 'woof');
      const served = await t.target.publicFetch(`https://${domain}/dog.txt`);
      expect([served.status, await served.text()]).toEqual([200, 'woof']);
      expect(
        (await c.request('PUT', c.url(`/${name}/domains/custom/${domain}`), { json: { enabled: false } })).status,
      ).toBe(200);
      const off = await t.target.publicFetch(`https://${domain}/dog.txt`);
      await off.arrayBuffer();
      expect(off.status).toBe(404);
    },
    skipZone ? { skip: skipZone } : { difference: 'unestablished-domain-active-at-once' },
  );

  t.test(
    "a domain outside the account's zones, or outside the zone zoneId names, is 400 10040",
    async (c) => {
      const name = await c.make();
      expectError(
        await c.addDomain(name, {
          domain: `${c.prefix}.not-a-zone-of-this-account.invalid`,
          zoneId: t.target.zone!.id,
          enabled: true,
        }),
        400,
        10040,
      );
      expect((await c.request('GET', c.url(`/${name}/domains/custom`))).body.result.domains).toEqual([]);
    },
    skipZone ? { skip: skipZone } : { difference: 'unestablished-domain-outside-zones' },
  );

  t.test(
    'a custom domain without zoneId is refused (the schema and the SDK require it) and nothing is added',
    async (c) => {
      const name = await c.make();
      const r = await c.addDomain(name, { domain: `${c.prefix}-nozone.${t.target.zone!.name}`, enabled: true });
      expect([r.status, r.body?.success], r.text).toEqual([400, false]);
      expect((await c.request('GET', c.url(`/${name}/domains/custom`))).body.result.domains).toEqual([]);
    },
    skipZone ? { skip: skipZone } : {},
  );

  t.test(
    'a domain already connected to another bucket is 409',
    async (c) => {
      const first = await c.make('a');
      const second = await c.make('b');
      const domain = sub(c, 'shared');
      expect((await c.addDomain(first, { domain, zoneId: t.target.zone!.id, enabled: true })).status).toBe(200);
      const again = await c.addDomain(second, { domain, zoneId: t.target.zone!.id, enabled: true });
      expectError(again, 409, 10040);
      expect((await c.request('GET', c.url(`/${second}/domains/custom`))).body.result.domains).toEqual([]);
    },
    skipZone ? { skip: skipZone } : { difference: 'unestablished-domain-taken' },
  );

  t.test(
    'a custom domain the bucket does not have is 404 on GET, PUT and DELETE',
    async (c) => {
      const name = await c.make();
      const domain = sub(c, 'nothere');
      expectError(await c.request('GET', c.url(`/${name}/domains/custom/${domain}`)), 404, 10040);
      expectError(
        await c.request('PUT', c.url(`/${name}/domains/custom/${domain}`), { json: { enabled: false } }),
        404,
        10040,
      );
      expectError(await c.request('DELETE', c.url(`/${name}/domains/custom/${domain}`)), 404, 10040);
    },
    skipZone ? { skip: skipZone } : { difference: 'unestablished-unknown-domain' },
  );
});
