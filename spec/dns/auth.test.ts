import { describe, expect, it } from 'vitest';
import { DnsApi, type ApiCredential } from '../../lib/dns.js';
import { BASE_URL } from './support.js';

const KEY = 'abcdef0123456789abcdef0123456789abcde';

function twoZones(credentials?: ApiCredential[]) {
  const api = new DnsApi({
    zones: [
      { name: 'alpha.example', plan: 'pro' },
      { name: 'beta.example', plan: 'pro' },
    ],
    ...(credentials ? { credentials } : {}),
  });
  const [alpha, beta] = api.zones as [{ id: string; name: string }, { id: string; name: string }];
  const call = async (zoneId: string, headers: Record<string, string>, method = 'GET', path = '', body?: unknown) => {
    const res = await api.fetch(`${BASE_URL}/zones/${zoneId}/dns_records${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: await res.json() };
  };
  return { api, alpha, beta, call };
}

describe('auth', () => {
  it('addCredential on a double that accepted any credential makes its table the only way in', async () => {
    const { api, alpha, call } = twoZones();
    expect((await call(alpha.id, { authorization: 'Bearer anything' })).status).toBe(200);
    api.addCredential({ token: 'added' });
    expect((await call(alpha.id, { authorization: 'Bearer added' })).status).toBe(200);
    const refused = await call(alpha.id, { authorization: 'Bearer anything' });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe(9109);
  });

  it('every route needs credentials, including zone look-ups and export', async () => {
    const { api, alpha } = twoZones([{ token: 't' }]);
    for (const path of [
      '/zones',
      `/zones/${alpha.id}`,
      `/zones/${alpha.id}/dns_records/export`,
      `/zones/${alpha.id}/dns_records/${'a'.repeat(32)}`,
    ]) {
      const res = await api.fetch(`${BASE_URL}${path}`);
      expect(res.status, path).toBe(400);
      expect((await res.json()).errors[0].code, path).toBe(9106);
    }
  });

  it("a credential's zone names match however the zone was written: capitals, trailing dot, Unicode (fuzz)", async () => {
    const api = new DnsApi({
      zones: [{ name: 'Sub.Example.NET.' }, { name: 'münchen.example' }],
      credentials: [
        { token: 'sub', zones: ['SUB.example.NET.'] },
        { token: 'idn', zones: ['münchen.example.'] },
      ],
    });
    const [sub, idn] = api.zones as [{ id: string; name: string }, { id: string; name: string }];
    const list = (zoneId: string, token: string) =>
      api
        .fetch(`${BASE_URL}/zones/${zoneId}/dns_records`, { headers: { authorization: `Bearer ${token}` } })
        .then((r) => r.status);
    expect(await list(sub.id, 'sub')).toBe(200);
    expect(await list(idn.id, 'idn')).toBe(200);
    expect(await list(idn.id, 'sub')).toBe(403);
  });

  it('a token limited to one zone: the other zone answers 403 10000 and /zones lists only its zone', async () => {
    const { api, alpha, beta, call } = twoZones([{ token: 'alpha-only', zones: ['alpha.example'] }, { token: 'all' }]);
    const auth = { authorization: 'Bearer alpha-only' };
    expect((await call(alpha.id, auth, 'POST', '', { type: 'A', name: 'www', content: '198.51.100.1' })).status).toBe(
      200,
    );
    const denied = await call(beta.id, auth, 'POST', '', { type: 'A', name: 'www', content: '198.51.100.1' });
    expect(denied).toMatchObject({
      status: 403,
      body: { success: false, errors: [{ code: 10000, message: 'Authentication error' }] },
    });
    expect(api.records('beta.example')).toEqual([]);
    const zones = await (await api.fetch(`${BASE_URL}/zones`, { headers: auth })).json();
    expect(zones.result.map((z: { name: string }) => z.name)).toEqual(['alpha.example']);
    const all = await (await api.fetch(`${BASE_URL}/zones`, { headers: { authorization: 'Bearer all' } })).json();
    expect(all.result.map((z: { name: string }) => z.name)).toEqual(['alpha.example', 'beta.example']);
  });

  it('a global key limited to some zones: another zone is the route error, as for a zone the account lacks', async () => {
    const { beta, call } = twoZones([{ email: 'me@example.com', key: KEY, zones: ['alpha.example'] }]);
    const r = await call(beta.id, { 'x-auth-email': 'me@example.com', 'x-auth-key': KEY });
    expect(r.status).toBe(404);
    expect(r.body.errors[0].code).toBe(7003);
  });

  it('no record of one zone is visible through another, by id or by listing', async () => {
    const { alpha, beta, call } = twoZones([{ token: 't' }]);
    const auth = { authorization: 'Bearer t' };
    const made = (await call(alpha.id, auth, 'POST', '', { type: 'TXT', name: 'secret', content: '"s"' })).body.result;
    for (const method of ['GET', 'PATCH', 'PUT', 'DELETE']) {
      const body = method === 'PATCH' || method === 'PUT' ? { type: 'TXT', name: 'secret', content: '"x"' } : undefined;
      const r = await call(beta.id, auth, method, `/${made.id}`, body);
      expect(r.status, method).toBe(404);
      expect(r.body.errors[0].code, method).toBe(81044);
    }
    expect((await call(beta.id, auth)).body.result).toEqual([]);
    const batch = await call(beta.id, auth, 'POST', '/batch', { deletes: [{ id: made.id }] });
    expect(batch.status).toBe(404);
    expect((await call(alpha.id, auth, 'GET', `/${made.id}`)).body.result.content).toBe('"s"');
  });

  it('malformed, unknown and half-sent credentials get their distinct errors', async () => {
    const { alpha, call } = twoZones([{ token: 'good' }, { email: 'me@example.com', key: KEY }]);
    const code = async (h: Record<string, string>) => {
      const r = await call(alpha.id, h);
      return [r.status, r.body.errors[0].code, r.body.errors[0].error_chain?.[0]?.code];
    };
    expect(await code({ authorization: 'Basic abc' })).toEqual([400, 6003, 6111]);
    expect(await code({ authorization: 'Bearer' })).toEqual([400, 6003, 6111]);
    expect(await code({ authorization: 'Bearer nope' })).toEqual([403, 9109, undefined]);
    expect(await code({ 'x-auth-email': 'me@example.com', 'x-auth-key': 'short' })).toEqual([400, 6003, 6103]);
    expect(await code({ 'x-auth-email': 'not-an-email', 'x-auth-key': KEY })).toEqual([400, 6003, 6102]);
    expect(await code({ 'x-auth-email': 'me@example.com', 'x-auth-key': 'f'.repeat(37) })).toEqual([
      403,
      9103,
      undefined,
    ]);
    expect(await code({ 'x-auth-email': 'me@example.com' })).toEqual([400, 9106, undefined]);
    // E-mail addresses compare without case.
    expect((await call(alpha.id, { 'x-auth-email': 'ME@example.com', 'x-auth-key': KEY })).status).toBe(200);
    // Either valid scheme is enough when both are sent, as the SDK does.
    expect(
      (await call(alpha.id, { authorization: 'Bearer nope', 'x-auth-email': 'me@example.com', 'x-auth-key': KEY }))
        .status,
    ).toBe(200);
  });

  it('an unknown token: 9109 "Invalid access token" on zones, records and the user; 1000 on /user/tokens/verify', async () => {
    const { api, alpha } = twoZones([{ token: 'good' }]);
    const get = async (path: string) => {
      const r = await api.fetch(`${BASE_URL}${path}`, { headers: { authorization: 'Bearer unknown-token' } });
      return [r.status, (await r.json()).errors];
    };
    const invalidAccess = [403, [{ code: 9109, message: 'Invalid access token' }]];
    expect(await get('/zones?name=alpha.example')).toEqual(invalidAccess);
    expect(await get(`/zones/${alpha.id}`)).toEqual(invalidAccess);
    expect(await get(`/zones/${alpha.id}/dns_records`)).toEqual(invalidAccess);
    expect(await get(`/zones/${alpha.id}/dns_records/${'0'.repeat(32)}`)).toEqual(invalidAccess);
    expect(await get('/user')).toEqual(invalidAccess);
    expect(await get('/user/tokens/verify')).toEqual([401, [{ code: 1000, message: 'Invalid API Token' }]]);
    // Malformed is still the header error, everywhere.
    const malformed = await api.fetch(`${BASE_URL}/user/tokens/verify`, {
      headers: { authorization: 'Bearer two words' },
    });
    expect((await malformed.json()).errors[0]).toMatchObject({ code: 6003, error_chain: [{ code: 6111 }] });
  });

  it('without a credentials table any well-formed credential passes; none at all still fails', async () => {
    const { alpha, call } = twoZones();
    expect((await call(alpha.id, { authorization: 'Bearer whatever' })).status).toBe(200);
    expect((await call(alpha.id, { 'x-auth-email': 'a@b.example', 'x-auth-key': 'k' })).status).toBe(200);
    expect((await call(alpha.id, { authorization: 'Token x' })).status).toBe(400);
    expect((await call(alpha.id, {})).status).toBe(400);
  });

  it('GET /user/tokens/verify answers for a valid token, 401 1000 otherwise (tools call it first)', async () => {
    const { api } = twoZones([{ token: 'good' }]);
    const verify = (h: Record<string, string>) => api.fetch(`${BASE_URL}/user/tokens/verify`, { headers: h });
    const ok = await verify({ authorization: 'Bearer good' });
    const body = await ok.json();
    expect(ok.status).toBe(200);
    expect(body.result).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/), status: 'active' });
    expect(body.messages[0].message).toBe('This API Token is valid and active');
    const bad = await verify({ authorization: 'Bearer bad' });
    expect(bad.status).toBe(401);
    expect((await bad.json()).errors[0]).toEqual({ code: 1000, message: 'Invalid API Token' });
  });
});
