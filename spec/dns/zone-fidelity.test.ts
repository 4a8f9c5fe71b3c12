/**
 * Zone objects and zone administration as production answers them (issue 35): the fields and plan
 * ids of a recorded zone (dns-lexicon's cassettes against the real API, 2025-08), a plan change
 * through `PATCH /zones/{id}` (the schema's `{ plan: { id } }`), and what a plan change sets.
 */
import { describe, expect, it } from 'vitest';
import { DnsApi, type DnsZoneInit } from '../../lib/dns/index.js';
import { BASE_URL } from './support.js';

const FREE = '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const PRO = 'a577b510288e82b26486fd1df47000ec';
const BUSINESS = '1ac039f6c29b691475c3d74fe588d1ae';
const ENTERPRISE = '94f3b7b768b0458b56d2cac4fe5ec0f9';

function setup(zones: DnsZoneInit[] = [{ name: 'example.com' }]) {
  const api = new DnsApi({ zones, credentials: [{ token: 'all' }] });
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await api.fetch(`${BASE_URL}${path}`, {
      method,
      headers: { authorization: 'Bearer all', ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, body: (await res.json()) as any };
  };
  return { api, call, zoneId: api.zones[0]!.id };
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
