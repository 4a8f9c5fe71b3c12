/**
 * One account, many surfaces: an `Account` owns zones, buckets and credentials; `DnsApi` and
 * `createEnv` are views over it. The API shows it as the real one does: zones carry their account,
 * `GET /zones` filters by it, `GET /accounts[/{id}]` answers it, tokens can be limited to it.
 */
import Cloudflare from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { Account, Bucket, DnsApi, ManualClock, createEnv, type AccountOptions } from '../../lib/index.js';

const BASE = 'https://api.cloudflare.com/client/v4';
const ACME = 'a'.repeat(32);
const OTHER = 'f'.repeat(32);
const KEY = 'abcdef0123456789abcdef0123456789abcde';
const quiet = { onWarning: () => {} };

const sdk = (api: DnsApi, token = 'all') =>
  new Cloudflare({ apiToken: token, apiEmail: null, apiKey: null, fetch: api.fetch, maxRetries: 0 });

async function get(api: DnsApi, path: string, headers: Record<string, string> = { authorization: 'Bearer all' }) {
  const res = await api.fetch(`${BASE}${path}`, { headers });
  return { status: res.status, body: await res.json() };
}

describe('Account shared between views', () => {
  it('the docs example (docs/dns-api.md): one account behind the DNS API and the Worker', async () => {
    // README: account-shared
    const account = new Account({ name: 'Acme', credentials: [{ token: 'ci', accounts: ['Acme'] }] });
    const api = new DnsApi({ account, zones: [{ name: 'example.com' }] });
    const files = account.addBucket('files', new Bucket());
    const { env } = createEnv<{ FILES: Bucket }>(
      { compatibility_date: '2025-01-01', r2_buckets: [{ binding: 'FILES', bucket_name: 'files' }] },
      { account },
    );
    // env.FILES is `files`; GET /zones?account.id=<another id> lists nothing.
    // README: end
    expect(env.FILES).toBe(files);
    expect(
      (await get(api, `/zones?account.id=${account.id}`, { authorization: 'Bearer ci' })).body.result,
    ).toHaveLength(1);
    expect((await get(api, `/zones?account.id=${OTHER}`, { authorization: 'Bearer ci' })).body.result).toEqual([]);
  });

  it('two DnsApi over one account see the same zones and records; each alone keeps a private account', async () => {
    const account = new Account({ name: 'Team' });
    const a = new DnsApi({ account, zones: [{ name: 'alpha.example' }] });
    const b = new DnsApi({ account });
    b.addZone({ name: 'beta.example' });
    expect(account.zones.map((z) => z.name)).toEqual(['alpha.example', 'beta.example']);
    expect(a.zones).toEqual(b.zones);
    const created = await sdk(a).dns.records.create({
      zone_id: a.zones[0]!.id,
      type: 'A',
      name: 'www',
      content: '198.51.100.1',
      ttl: 1,
    });
    expect(b.records('alpha.example').map((r) => r.id)).toEqual([created.id]);
    // Without an account, each DnsApi has its own.
    const lone = new DnsApi({ zones: [{ name: 'alpha.example' }] });
    expect(lone.zones[0]!.id).not.toBe(a.zones[0]!.id);
    expect((await get(lone, '/zones')).body.result).toHaveLength(1);
  });

  it('credentials belong to the account: given to both, DnsApi refuses; added later, every view accepts them', async () => {
    const account = new Account({ credentials: [{ token: 'first' }] });
    expect(() => new DnsApi({ account, credentials: [{ token: 'x' }] })).toThrow(/give credentials to the Account/);
    const a = new DnsApi({ account, zones: [{ name: 'alpha.example' }] });
    const b = new DnsApi({ account });
    expect((await get(b, '/zones', { authorization: 'Bearer later' })).status).toBe(403);
    a.addCredential({ token: 'later' });
    expect((await get(b, '/zones', { authorization: 'Bearer later' })).status).toBe(200);
    account.addCredential({ token: 'third' });
    expect((await get(a, '/zones', { authorization: 'Bearer third' })).status).toBe(200);
  });

  it("createEnv({ account }) binds the account's buckets by bucket name; buckets it lacks are made and added", async () => {
    const account = new Account();
    const files = account.addBucket('files', new Bucket());
    const config = {
      compatibility_date: '2025-01-01',
      r2_buckets: [
        { binding: 'FILES', bucket_name: 'files' },
        { binding: 'CACHE', bucket_name: 'cache-prod', preview_bucket_name: 'cache' },
      ],
    };
    const first = createEnv<{ FILES: unknown; CACHE: unknown }>(config, { ...quiet, account });
    expect(first.env.FILES).toBe(files);
    expect(first.buckets.get('files')).toBe(files);
    expect(account.buckets).toEqual(['files', 'cache']);
    const cache = account.bucket('cache')!;
    expect(first.env.CACHE).toBe(cache);
    // A second Worker of the account sees what the first wrote.
    await files.put('k', 'v');
    const second = createEnv<{ FILES: typeof files; CACHE: unknown }>(config, { ...quiet, account });
    expect(second.env.CACHE).toBe(cache);
    expect(await (await second.env.FILES.get('k'))!.text()).toBe('v');
    // Without an account, every createEnv makes fresh buckets, as before.
    const fresh = createEnv<{ FILES: unknown }>(config, quiet);
    expect(fresh.env.FILES).not.toBe(files);
    expect(account.buckets).toEqual(['files', 'cache']);
  });

  it('refuses bad account ids, bad and taken bucket names', () => {
    expect(() => new Account({ id: 'ABC' })).toThrow(/32 lowercase hex/);
    expect(() => new Account({ name: ' ' })).toThrow(/non-empty/);
    const account = new Account();
    for (const bad of ['Files', 'ab', '-files', 'files-', 'a'.repeat(64), 'with_underscore']) {
      expect(() => account.addBucket(bad, new Bucket()), bad).toThrow(/invalid/);
    }
    const files = account.addBucket('files', new Bucket());
    expect(() => account.addBucket('files', new Bucket())).toThrow(/already exists/);
    expect(() => account.addBucket('other', files)).toThrow(/another name/);
    expect(account.buckets).toEqual(['files']);
  });
});

describe('the account in the API', () => {
  const build = (credentials?: AccountOptions['credentials']) => {
    const clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5));
    const account = new Account({ id: ACME, name: 'Acme', clock, ...(credentials ? { credentials } : {}) });
    const api = new DnsApi({ account, clock, zones: [{ name: 'alpha.example' }, { name: 'beta.example' }] });
    return { account, api, alpha: api.zones[0]!, beta: api.zones[1]! };
  };

  it('zones carry their account as { id, name }', async () => {
    const { api, account, alpha } = build();
    const zone = await sdk(api).zones.get({ zone_id: alpha.id });
    expect(zone.account).toEqual({ id: account.id, name: 'Acme' });
    expect((await get(api, '/zones')).body.result.map((z: { account: unknown }) => z.account)).toEqual([
      { id: account.id, name: 'Acme' },
      { id: account.id, name: 'Acme' },
    ]);
  });

  it('GET /zones honours account.id and account.name: another account lists nothing', async () => {
    const { api, account } = build();
    const client = sdk(api);
    const names = async (query: Parameters<typeof client.zones.list>[0]) => {
      const out: string[] = [];
      for await (const z of client.zones.list(query)) out.push(z.name);
      return out;
    };
    expect(await names({ account: { id: account.id } })).toEqual(['alpha.example', 'beta.example']);
    expect(await names({ account: { id: OTHER } })).toEqual([]);
    expect(await names({ account: { id: OTHER }, name: 'alpha.example' })).toEqual([]);
    expect(await names({ account: { name: 'Acme' }, name: 'beta.example' })).toEqual(['beta.example']);
    expect(await names({ account: { name: 'Other' } })).toEqual([]);
    const raw = await get(api, `/zones?account.id=${OTHER}`);
    expect(raw.body).toMatchObject({ success: true, result: [], result_info: { count: 0, total_count: 0 } });
  });

  it("GET /accounts and GET /accounts/{id} answer the account in the SDK's shape", async () => {
    const { api, account } = build();
    const client = sdk(api);
    const expected = {
      id: account.id,
      name: 'Acme',
      type: 'standard',
      created_on: '2026-01-02T03:04:05Z',
      settings: { enforce_twofactor: false },
    };
    const listed = [];
    for await (const a of client.accounts.list()) listed.push(a);
    expect(listed).toEqual([expected]);
    expect(await client.accounts.get({ account_id: account.id })).toEqual(expected);
    const page = await get(api, '/accounts?name=Acme');
    expect(page.body).toEqual({
      result: [expected],
      success: true,
      errors: [],
      messages: [],
      result_info: { page: 1, per_page: 20, count: 1, total_count: 1, total_pages: 1 },
    });
    expect((await get(api, '/accounts?name=Other')).body.result).toEqual([]);
    expect((await get(api, '/accounts?direction=sideways')).status).toBe(400);
  });

  it("another account's id is 403 9109; an id that is not 32 hex is the route error", async () => {
    const { api } = build();
    expect(await get(api, `/accounts/${OTHER}`)).toEqual({
      status: 403,
      body: {
        result: null,
        success: false,
        errors: [{ code: 9109, message: 'Unauthorized to access requested resource' }],
        messages: [],
      },
    });
    const bad = await get(api, '/accounts/not-an-id');
    expect(bad.status).toBe(404);
    expect(bad.body.errors[0]).toEqual({
      code: 7003,
      message: 'Could not route to /client/v4/accounts/not-an-id, perhaps your object identifier is invalid?',
    });
    expect((await get(api, '/accounts', {})).body.errors[0].code).toBe(9106);
    expect(
      (await api.fetch(`${BASE}/accounts`, { method: 'POST', headers: { authorization: 'Bearer all' } })).status,
    ).toBe(405);
  });

  it('a token limited to another account reaches none of this one: zones 10000, the account 9109, lists empty', async () => {
    const { api, account, alpha } = build([
      { token: 'all' },
      { token: 'elsewhere', accounts: [OTHER] },
      { token: 'by-id', accounts: [ACME] },
      { token: 'by-name', accounts: ['Acme'] },
      { token: 'alpha-here', accounts: [ACME], zones: ['alpha.example'] },
      { email: 'me@example.com', key: KEY, accounts: [OTHER] },
    ]);
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    expect(await get(api, `/zones/${alpha.id}`, as('elsewhere'))).toMatchObject({
      status: 403,
      body: { errors: [{ code: 10000, message: 'Authentication error' }] },
    });
    expect((await get(api, `/zones/${alpha.id}/dns_records`, as('elsewhere'))).status).toBe(403);
    expect((await get(api, '/zones', as('elsewhere'))).body.result).toEqual([]);
    expect((await get(api, '/accounts', as('elsewhere'))).body.result).toEqual([]);
    expect((await get(api, `/accounts/${account.id}`, as('elsewhere'))).body.errors[0].code).toBe(9109);
    for (const token of ['by-id', 'by-name']) {
      expect((await get(api, `/zones/${alpha.id}`, as(token))).status, token).toBe(200);
      expect((await get(api, '/zones', as(token))).body.result, token).toHaveLength(2);
      expect((await get(api, `/accounts/${account.id}`, as(token))).status, token).toBe(200);
    }
    // Account and zone limits together: both must allow.
    expect((await get(api, '/zones', as('alpha-here'))).body.result.map((z: { name: string }) => z.name)).toEqual([
      'alpha.example',
    ]);
    // A global key limited to another account gets the route error for this account's zones, as for any zone it does not own.
    const key = await get(api, `/zones/${alpha.id}`, { 'x-auth-email': 'me@example.com', 'x-auth-key': KEY });
    expect(key.status).toBe(404);
    expect(key.body.errors[0].code).toBe(7003);
  });
});
