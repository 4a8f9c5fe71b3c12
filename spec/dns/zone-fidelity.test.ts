/**
 * Zone objects and zone administration as production answers them (issue 35): the fields and plan
 * ids of a recorded zone (dns-lexicon's cassettes against the real API, 2025-08), a plan change
 * through `PATCH /zones/{id}` (the schema's `{ plan: { id } }`), and what a plan change sets.
 */
import Cloudflare from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { DnsApi, type DnsZoneInit } from '../../lib/dns.js';
import { BASE_URL } from './support.js';

const FREE = '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const PRO = 'a577b510288e82b26486fd1df47000ec';
const BUSINESS = '1ac039f6c29b691475c3d74fe588d1ae';
const ENTERPRISE = '94f3b7b768b0458b56d2cac4fe5ec0f9';

function setup(zones: DnsZoneInit[] = [{ name: 'example.com' }]) {
  const api = new DnsApi({
    zones,
    credentials: [{ token: 'all' }, { token: 'elsewhere', accounts: ['0123456789abcdef0123456789abcdef'] }],
  });
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await api.fetch(`${BASE_URL}${path}`, {
      method,
      headers: { authorization: 'Bearer all', ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions
    return { status: res.status, body: (await res.json()) as any };
  };
  const sdk = new Cloudflare({
    apiToken: 'all',
    apiKey: null,
    apiEmail: null,
    baseURL: BASE_URL,
    fetch: api.fetch,
    maxRetries: 0,
  });
  return { api, call, sdk, zoneId: api.zones[0]!.id };
}

describe('a zone as GET /zones answers it', () => {
  it("has the recorded free zone's fields: vanity name servers, tenant and tenant unit, in the recorded order", async () => {
    const { call, zoneId } = setup();
    const zone = (await call('GET', `/zones/${zoneId}`)).body.result;
    expect(zone).toMatchObject({
      vanity_name_servers: [],
      vanity_name_servers_ips: null,
      tenant: { id: null, name: null },
      tenant_unit: { id: null },
      owner: { id: null, type: 'user', email: null },
    });
    expect(Object.keys(zone)).toEqual([
      'id',
      'name',
      'status',
      'paused',
      'type',
      'development_mode',
      'name_servers',
      'original_name_servers',
      'original_registrar',
      'original_dnshost',
      'modified_on',
      'created_on',
      'activated_on',
      'vanity_name_servers',
      'vanity_name_servers_ips',
      'meta',
      'owner',
      'account',
      'tenant',
      'tenant_unit',
      'permissions',
      'plan',
    ]);
    const listed = (await call('GET', '/zones')).body.result[0];
    expect(listed).toEqual(zone);
  });

  it("names each plan by production's rate plan id, with its short name as legacy_id", async () => {
    const { call } = setup([
      { name: 'free.example', plan: 'free' },
      { name: 'pro.example', plan: 'pro' },
      { name: 'business.example', plan: 'business' },
      { name: 'enterprise.example', plan: 'enterprise' },
    ]);
    const plans = (await call('GET', '/zones')).body.result.map(
      (z: { name: string; plan: { id: string; name: string; legacy_id: string } }) => [z.name, z.plan],
    );
    expect(plans).toEqual([
      ['business.example', expect.objectContaining({ id: BUSINESS, name: 'Business Website', legacy_id: 'business' })],
      [
        'enterprise.example',
        expect.objectContaining({ id: ENTERPRISE, name: 'Enterprise Website', legacy_id: 'enterprise' }),
      ],
      ['free.example', expect.objectContaining({ id: FREE, name: 'Free Website', legacy_id: 'free' })],
      ['pro.example', expect.objectContaining({ id: PRO, name: 'Pro Website', legacy_id: 'pro' })],
    ]);
    // The recorded free plan, field for field.
    expect(plans[2][1]).toEqual({
      id: FREE,
      name: 'Free Website',
      price: 0,
      currency: 'USD',
      frequency: '',
      is_subscribed: false,
      can_subscribe: false,
      legacy_id: 'free',
      legacy_discount: false,
      externally_managed: false,
    });
  });
});

describe('PATCH /zones/{id} with a plan', () => {
  it('changes the plan to a known rate plan id and answers the zone with it; the quotas follow', async () => {
    const { call, zoneId } = setup([{ name: 'example.com', plan: 'free' }]);
    const tagged = { type: 'TXT', name: 't.example.com', content: '"x"', tags: ['env:prod'] };
    // Free zones take no tags (9300 with the quota 0) ...
    const before = await call('POST', `/zones/${zoneId}/dns_records`, tagged);
    expect(before.body.errors).toEqual([{ code: 9300, message: 'DNS record has 1 tags, exceeding the quota of 0.' }]);
    const r = await call('PATCH', `/zones/${zoneId}`, { plan: { id: PRO } });
    expect(r.status).toBe(200);
    expect(r.body.result.plan).toMatchObject({ id: PRO, name: 'Pro Website', legacy_id: 'pro', is_subscribed: true });
    expect((await call('GET', `/zones/${zoneId}`)).body.result.plan.id).toBe(PRO);
    // ... a Pro zone takes 20.
    expect((await call('POST', `/zones/${zoneId}/dns_records`, tagged)).status).toBe(200);
    const back = await call('PATCH', `/zones/${zoneId}`, { plan: { id: FREE } });
    expect(back.body.result.plan).toMatchObject({ id: FREE, legacy_id: 'free', is_subscribed: false });
  });

  it("keeps a zone's own quota overrides across a plan change", async () => {
    const { call, zoneId } = setup([{ name: 'example.com', plan: 'free', limits: { records: 3 } }]);
    await call('PATCH', `/zones/${zoneId}`, { plan: { id: ENTERPRISE } });
    for (let i = 0; i < 3; i++)
      expect(
        (
          await call('POST', `/zones/${zoneId}/dns_records`, {
            type: 'A',
            name: `a${i}.example.com`,
            content: '192.0.2.1',
          })
        ).status,
      ).toBe(200);
    const over = await call('POST', `/zones/${zoneId}/dns_records`, {
      type: 'A',
      name: 'a9.example.com',
      content: '192.0.2.1',
    });
    expect(over.body.errors[0].code).toBe(81045);
    expect((await call('GET', `/zones/${zoneId}`)).body.result.plan.legacy_id).toBe('enterprise');
  });

  it('refuses an unknown plan id or a plan that is not an object, and changes nothing', async () => {
    const { call, zoneId } = setup([{ name: 'example.com', plan: 'pro' }]);
    for (const plan of [{ id: 'f'.repeat(32) }, { id: 'pro' }, 'pro', { id: 7 }, null]) {
      const r = await call('PATCH', `/zones/${zoneId}`, { plan, paused: true });
      expect(r.status, JSON.stringify(plan)).toBe(400);
      expect(r.body.success).toBe(false);
    }
    const zone = (await call('GET', `/zones/${zoneId}`)).body.result;
    expect(zone.plan.id).toBe(PRO);
    expect(zone.paused).toBe(false);
  });
});

describe('POST /zones without an account id', () => {
  it("makes the zone in the caller's account, as the API does (the SDK makes account.id optional)", async () => {
    const { api, call, sdk } = setup();
    const accountId = api.account.id;
    const viaSdk = await sdk.zones.create({ name: 'sdk.example', account: {} });
    expect(viaSdk).toMatchObject({ name: 'sdk.example', account: { id: accountId } });
    const noAccount = await call('POST', '/zones', { name: 'bare.example' });
    expect(noAccount.status).toBe(200);
    expect(noAccount.body.result).toMatchObject({ name: 'bare.example', account: { id: accountId } });
    const nullId = await call('POST', '/zones', { name: 'null-id.example', account: { id: null } });
    expect(nullId.body.result.account.id).toBe(accountId);
    expect((await call('GET', '/zones?per_page=50')).body.result.map((z: { name: string }) => z.name)).toEqual([
      'bare.example',
      'example.com',
      'null-id.example',
      'sdk.example',
    ]);
  });

  it('still refuses another account, a malformed account or id, and a missing name', async () => {
    const { api, call } = setup();
    expect(
      (await call('POST', '/zones', { name: 'x.example', account: { id: '0123456789abcdef0123456789abcdef' } })).body
        .errors[0].code,
    ).toBe(9109);
    for (const body of [
      { name: 'x.example', account: 'acc' },
      { name: 'x.example', account: [] },
      { name: 'x.example', account: { id: 12345 } },
      { account: { id: api.account.id } },
    ]) {
      const r = await call('POST', '/zones', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(api.zones.map((z) => z.name)).toEqual(['example.com']);
  });

  it('a token limited to other accounts cannot make a zone in this one, with or without the id', async () => {
    const { api } = setup();
    for (const account of [undefined, {}, { id: api.account.id }]) {
      const res = await api.fetch(`${BASE_URL}/zones`, {
        method: 'POST',
        headers: { authorization: 'Bearer elsewhere', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x.example', ...(account ? { account } : {}) }),
      });
      expect(res.status, JSON.stringify(account)).toBe(403);
    }
    expect(api.zones).toHaveLength(1);
  });
});

describe('GET and PATCH /zones/{id}/dns_settings', () => {
  it('answers every field the SDK types as required, with the defaults of a zone that set none', async () => {
    const { call, sdk, zoneId } = setup();
    const settings = await sdk.dns.settings.zone.get({ zone_id: zoneId });
    expect(Object.keys(settings)).toEqual([
      'flatten_all_cnames',
      'foundation_dns',
      'internal_dns',
      'multi_provider',
      'nameservers',
      'ns_ttl',
      'secondary_overrides',
      'soa',
      'zone_mode',
    ]);
    expect(settings).toMatchObject({
      flatten_all_cnames: false,
      internal_dns: {},
      nameservers: { type: 'cloudflare.standard' },
      zone_mode: 'standard',
    });
    expect((await call('GET', `/zones/${zoneId}/dns_settings`)).body.result).toEqual(settings);
  });

  it('keeps what PATCH set: flatten_all_cnames, internal_dns and nameservers with ns_set', async () => {
    const { sdk, zoneId } = setup([{ name: 'example.com', plan: 'pro' }]);
    const edited = await sdk.dns.settings.zone.edit({
      zone_id: zoneId,
      flatten_all_cnames: true,
      internal_dns: { reference_zone_id: 'e'.repeat(32) },
      nameservers: { type: 'custom.account', ns_set: 2 },
    });
    const want = {
      flatten_all_cnames: true,
      internal_dns: { reference_zone_id: 'e'.repeat(32) },
      nameservers: { type: 'custom.account', ns_set: 2 },
    };
    expect(edited).toMatchObject(want);
    expect(await sdk.dns.settings.zone.get({ zone_id: zoneId })).toMatchObject(want);
    // A later PATCH of another field keeps them.
    expect(await sdk.dns.settings.zone.edit({ zone_id: zoneId, ns_ttl: 3600 })).toMatchObject({
      ...want,
      ns_ttl: 3600,
    });
    expect(await sdk.dns.settings.zone.edit({ zone_id: zoneId, flatten_all_cnames: false })).toMatchObject({
      flatten_all_cnames: false,
    });
  });

  it('flatten_all_cnames is what resolution follows: a DNS-only CNAME is answered as its target', async () => {
    const { api, call, zoneId } = setup([{ name: 'example.com', plan: 'pro' }]);
    await call('POST', `/zones/${zoneId}/dns_records`, { type: 'A', name: 'target.example.com', content: '192.0.2.9' });
    await call('POST', `/zones/${zoneId}/dns_records`, { type: 'CNAME', name: 'www', content: 'target.example.com' });
    const types = async () => (await api.resolve('www.example.com', 'A')).answers.map((a) => a.type);
    expect(await types()).toEqual(['CNAME', 'A']);
    await call('PATCH', `/zones/${zoneId}/dns_settings`, { flatten_all_cnames: true });
    expect(await types()).toEqual(['A']);
  });

  it("takes soa.mname null as the Cloudflare-assigned primary again (the schema's nullable mname)", async () => {
    const { call, zoneId } = setup();
    const assigned = (await call('GET', `/zones/${zoneId}/dns_settings`)).body.result.soa.mname;
    const set = await call('PATCH', `/zones/${zoneId}/dns_settings`, { soa: { mname: 'ns1.example.net' } });
    expect(set.body.result.soa.mname).toBe('ns1.example.net');
    const cleared = await call('PATCH', `/zones/${zoneId}/dns_settings`, { soa: { mname: null, min_ttl: 600 } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.result.soa).toMatchObject({ mname: assigned, min_ttl: 600 });
    // rname is not nullable: null is still refused.
    expect((await call('PATCH', `/zones/${zoneId}/dns_settings`, { soa: { rname: null } })).status).toBe(400);
  });

  it("refuses mistyped fields (the schema's types) and changes nothing", async () => {
    const { call, zoneId } = setup();
    const before = (await call('GET', `/zones/${zoneId}/dns_settings`)).body.result;
    for (const body of [
      { flatten_all_cnames: 'yes' },
      { internal_dns: 'not-an-object' },
      { internal_dns: [] },
      { internal_dns: { reference_zone_id: 12345 } },
      { nameservers: { type: 'custom.account', ns_set: 6 } },
      { nameservers: { type: 'custom.account', ns_set: '1' } },
      { nameservers: { type: 'vanity' } },
      { nameservers: { type: 'custom' } },
      { nameservers: 'cloudflare.standard' },
      { ns_ttl: 3600, flatten_all_cnames: 1 },
    ]) {
      const r = await call('PATCH', `/zones/${zoneId}/dns_settings`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0].code, JSON.stringify(body)).toBe(1004);
    }
    expect((await call('GET', `/zones/${zoneId}/dns_settings`)).body.result).toEqual(before);
  });
});

describe('PATCH /zones/{id}/dnssec', () => {
  it('takes dnssec_use_nsec3 as a boolean and shows it; refuses anything else', async () => {
    const { call, sdk, zoneId } = setup();
    expect((await sdk.dns.dnssec.get({ zone_id: zoneId })).dnssec_use_nsec3).toBe(false);
    expect((await sdk.dns.dnssec.edit({ zone_id: zoneId, dnssec_use_nsec3: true })).dnssec_use_nsec3).toBe(true);
    expect((await sdk.dns.dnssec.get({ zone_id: zoneId })).dnssec_use_nsec3).toBe(true);
    for (const v of ['yes', 1, null]) {
      const r = await call('PATCH', `/zones/${zoneId}/dnssec`, { dnssec_use_nsec3: v });
      expect(r.status, JSON.stringify(v)).toBe(400);
      expect(r.body.errors[0].code).toBe(1004);
    }
    expect((await sdk.dns.dnssec.get({ zone_id: zoneId })).dnssec_use_nsec3).toBe(true);
  });
});

describe('POST /zones/{id}/dns_records/scan/review', () => {
  it('refuses accepts or rejects that are not lists with 9207, as a batch does, and makes nothing', async () => {
    const { call, zoneId } = setup();
    for (const body of [{ accepts: 'not-an-array' }, { accepts: { type: 'TXT' } }, { rejects: 'x' }]) {
      const r = await call('POST', `/zones/${zoneId}/dns_records/scan/review`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors, JSON.stringify(body)).toEqual([{ code: 9207, message: 'Request body is invalid.' }]);
    }
    expect((await call('GET', `/zones/${zoneId}/dns_records`)).body.result).toEqual([]);
    const ok = await call('POST', `/zones/${zoneId}/dns_records/scan/review`, {
      accepts: [{ type: 'TXT', name: 'found.example.com', content: '"x"' }],
    });
    expect(ok.body.result.accepts).toHaveLength(1);
  });
});
