import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';

// Credentials, routes and request bodies (docs/sources/dns-api.md: routes, authentication,
// envelope, errors).
export const auth = defineGroup('auth and routing', (t) => {
  t.test('no credentials at all is 400 9106', async (c) => {
    expectError(
      await c.request('GET', c.url(), { auth: false }),
      400,
      9106,
      'Missing X-Auth-Key, X-Auth-Email or Authorization headers',
    );
  });

  t.test('an Authorization header that is not Bearer is 400 6003 with chain 6111', async (c) => {
    const r = await c.request('GET', c.url(), { auth: false, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expectError(r, 400, 6003, 'Invalid request headers');
    expect(r.body.errors[0].error_chain).toEqual([{ code: 6111, message: 'Invalid format for Authorization header' }]);
  });

  // Evidence: certbot's dns-cloudflare (9109 → "Did you enter a valid Cloudflare Token?") and users'
  // logs of zone look-ups; /user/tokens/verify answers 1000 for the same token.
  t.test('an unknown token is 403 9109 "Invalid access token" on records and zones', async (c) => {
    const auth = { auth: false, headers: { authorization: `Bearer ${'x'.repeat(40)}` } };
    expectError(await c.request('GET', c.url(), auth), 403, 9109, 'Invalid access token');
    expectError(
      await c.request('GET', `${c.target.baseUrl}/zones?name=${c.target.zoneName}`, auth),
      403,
      9109,
      'Invalid access token',
    );
  });

  t.test('an unknown token is 1000 "Invalid API Token" on /user/tokens/verify', async (c) => {
    const r = await c.request('GET', `${c.target.baseUrl}/user/tokens/verify`, {
      auth: false,
      headers: { authorization: `Bearer ${'x'.repeat(40)}` },
    });
    expectError(r, [400, 401, 403], 1000, 'Invalid API Token');
  });

  t.test('a malformed X-Auth-Key is 6003/6103; a malformed X-Auth-Email is 6003/6102', async (c) => {
    const key = await c.request('GET', c.url(), {
      auth: false,
      headers: { 'x-auth-email': 'someone@example.com', 'x-auth-key': 'not a key' },
    });
    expectError(key, 400, 6003);
    expect(key.body.errors[0].error_chain).toEqual([{ code: 6103, message: 'Invalid format for X-Auth-Key header' }]);
    const email = await c.request('GET', c.url(), {
      auth: false,
      headers: { 'x-auth-email': 'not-an-email', 'x-auth-key': 'a'.repeat(37) },
    });
    expectError(email, 400, 6003);
    expect(email.body.errors[0].error_chain).toEqual([
      { code: 6102, message: 'Invalid format for X-Auth-Email header' },
    ]);
  });

  t.test('a well-formed but unknown global key is 9103', async (c) => {
    const r = await c.request('GET', c.url(), {
      auth: false,
      headers: { 'x-auth-email': 'nobody@example.invalid', 'x-auth-key': '0123456789abcdef0123456789abcdef01234' },
    });
    expectError(r, [400, 403], 9103, 'Unknown X-Auth-Key or X-Auth-Email');
  });

  const foreign = t.target.foreignZoneId;
  t.test(
    'a zone a token may not use answers 403 10000, for the collection and for a record of it',
    async (c) => {
      expectError(await c.request('GET', c.url('', foreign)), 403, 10000, 'Authentication error');
      expectError(await c.request('GET', c.url('/0123456789abcdef0123456789abcdef', foreign)), 403, 10000);
      expectError(
        await c.request('POST', c.url('', foreign), { json: { type: 'A', name: 'x', content: '198.51.100.1' } }),
        403,
        10000,
      );
    },
    foreign ? {} : { skip: 'the target names no foreignZoneId its token is kept out of' },
  );

  t.test('an unknown path under dns_records is the 404 route error 7003', async (c) => {
    const r = await c.request('GET', c.url('/0123456789abcdef0123456789abcdef/extra'));
    expectError(r, 404, 7003);
    expect(r.body.errors[0].message).toMatch(
      /^Could not route to \/client\/v4\/zones\/.*, perhaps your object identifier is invalid\?$/,
    );
  });

  t.test('a malformed zone id is the 404 route error 7003', async (c) => {
    expectError(await c.request('GET', `${c.target.baseUrl}/zones/not-a-zone/dns_records`), 404, 7003);
  });

  t.test('a method the route does not have is 405', async (c) => {
    const r = await c.request('POST', c.url('/0123456789abcdef0123456789abcdef'), { json: {} });
    expect(r.status).toBe(405);
  });

  t.test('a malformed JSON body is 400 9207 "Request body is invalid."', async (c) => {
    const r = await c.request('POST', c.url(), {
      body: '{"type": "A",',
      headers: { 'content-type': 'application/json' },
    });
    expectError(r, 400, 9207, 'Request body is invalid.');
  });

  t.test('a non-JSON Content-Type on a JSON endpoint is 400 6003/6105', async (c) => {
    const r = await c.request('POST', c.url(), {
      body: JSON.stringify({ type: 'A', name: c.name(), content: '198.51.100.1' }),
      headers: { 'content-type': 'text/plain' },
    });
    expectError(r, 400, 6003);
    expect(r.body.errors[0].error_chain[0].code).toBe(6105);
  });

  t.test("GET /user with the target's token: the user (User Details Read) or 403 9109", async (c) => {
    const r = await c.request('GET', `${c.target.baseUrl}/user`);
    if (r.status === 200)
      expect(r.body.result).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{32}$/), email: expect.any(String) });
    else expectError(r, 403, 9109, 'Unauthorized to access requested resource');
  });

  t.test('zone look-ups: GET /zones?name= finds the zone, GET /zones/{id} returns it', async (c) => {
    const list = await c.request('GET', `${c.target.baseUrl}/zones?name=${c.target.zoneName}`);
    expect(list.status).toBe(200);
    expect(list.body.result.map((z: { id: string }) => z.id)).toEqual([c.target.zoneId]);
    const one = await c.request('GET', `${c.target.baseUrl}/zones/${c.target.zoneId}`);
    expect(one.body.result).toMatchObject({ id: c.target.zoneId, name: c.target.zoneName });
  });

  t.test('a zone carries vanity_name_servers, tenant and tenant_unit; the free plan is 0feeeeeeeeee…', async (c) => {
    const zone = (await c.request('GET', `${c.target.baseUrl}/zones/${c.target.zoneId}`)).body.result;
    expect(Array.isArray(zone.vanity_name_servers)).toBe(true);
    expect(zone).toHaveProperty('vanity_name_servers_ips');
    expect(zone.tenant).toHaveProperty('id');
    expect(zone.tenant).toHaveProperty('name');
    expect(zone.tenant_unit).toHaveProperty('id');
    // dns-lexicon's recordings (2020, 2025-08): the free plan's rate plan id.
    if (zone.plan.legacy_id === 'free') expect(zone.plan.id).toBe('0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee');
    else expect(zone.plan.id).toMatch(/^[0-9a-f]{32}$/);
  });

  t.test('GET /zones?page=1&per_page=100 (above the documented 50) answers 200 and echoes per_page', async (c) => {
    // dns-lexicon lists every zone so (2025-08); `name=` keeps the page to the target's zone.
    const r = await c.request('GET', `${c.target.baseUrl}/zones?name=${c.target.zoneName}&page=1&per_page=100`);
    expect(r.status).toBe(200);
    expect(r.body.result_info).toMatchObject({ page: 1, per_page: 100, total_pages: 1 });
    expect(r.body.result.map((z: { id: string }) => z.id)).toEqual([c.target.zoneId]);
  });
});
