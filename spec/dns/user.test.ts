import Cloudflare, { PermissionDeniedError } from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns.js';
import { BASE_URL } from './support.js';

const KEY = '0123456789abcdef0123456789abcdef01234';

function double() {
  return new DnsApi({
    zones: [
      { name: 'example.com', plan: 'pro' },
      { name: 'example.org', plan: 'enterprise' },
    ],
    credentials: [
      { email: 'Dev@example.com', key: KEY },
      { token: 'dns-only', zones: ['example.com'] },
      { token: 'with-user-read', zones: ['example.com'], user: 'owner@example.com' },
    ],
  });
}

const sdk = (api: DnsApi, auth: { apiToken?: string; apiKey?: string; apiEmail?: string }) =>
  new Cloudflare({
    apiToken: null,
    apiKey: null,
    apiEmail: null,
    ...auth,
    baseURL: BASE_URL,
    fetch: api.fetch,
    maxRetries: 0,
  });

// GET /user: tools (and the SDK's client.user.get()) check credentials here before touching records.
describe('GET /user', () => {
  it('a global key gets its user, in the fields the SDK types for client.user.get()', async () => {
    const api = double();
    const user = await sdk(api, { apiEmail: 'Dev@example.com', apiKey: KEY }).user.get();
    expect(user).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      email: 'Dev@example.com',
      first_name: null,
      last_name: null,
      telephone: null,
      country: null,
      zipcode: null,
      two_factor_authentication_enabled: false,
      two_factor_authentication_locked: false,
      has_pro_zones: true,
      has_business_zones: false,
      has_enterprise_zones: true,
      suspended: false,
      betas: [],
      organizations: [],
    });
    // E-mails match without case, and the id is stable per user.
    const again = await sdk(api, { apiEmail: 'dev@EXAMPLE.com', apiKey: KEY }).user.get();
    expect(again.id).toBe(user.id);
  });

  it("a token answers only with User Details Read (the credential's user); otherwise 403 9109", async () => {
    const api = double();
    const denied = await sdk(api, { apiToken: 'dns-only' })
      .user.get()
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect((denied as PermissionDeniedError).errors).toEqual([
      { code: 9109, message: 'Unauthorized to access requested resource' },
    ]);
    const user = await sdk(api, { apiToken: 'with-user-read' }).user.get();
    // Only the zones the token may see count for has_*_zones.
    expect(user).toMatchObject({ email: 'owner@example.com', has_pro_zones: true, has_enterprise_zones: false });
  });

  it('unknown credentials get the resource errors; without a credentials table keys see their user, tokens get 9109', async () => {
    const api = double();
    const unknown = await api.fetch(`${BASE_URL}/user`, {
      headers: { 'x-auth-email': 'dev@example.com', 'x-auth-key': 'f'.repeat(37) },
    });
    expect([unknown.status, (await unknown.json()).errors[0].code]).toEqual([403, 9103]);
    const open = new DnsApi({ zones: [{ name: 'example.com' }] });
    const byKey = await open.fetch(`${BASE_URL}/user`, {
      headers: { 'x-auth-email': 'a@b.example', 'x-auth-key': 'k' },
    });
    expect((await byKey.json()).result).toMatchObject({ email: 'a@b.example', has_pro_zones: false });
    const byToken = await open.fetch(`${BASE_URL}/user`, { headers: { authorization: 'Bearer t' } });
    expect([byToken.status, (await byToken.json()).errors[0].code]).toEqual([403, 9109]);
    const post = await open.fetch(`${BASE_URL}/user`, { method: 'POST', headers: { authorization: 'Bearer t' } });
    expect(post.status).toBe(405);
  });
});
