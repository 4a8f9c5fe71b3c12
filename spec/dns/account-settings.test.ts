/**
 * The account's DNS settings and internal DNS views (lib/dns/account-settings.ts; cloudflare/api-schemas
 * 2026-08-14), through the official `cloudflare` SDK in process: the defaults, a PATCH and its
 * refusals, the zone defaults a zone made afterwards starts with, the views' CRUD, filters and
 * rules, and the account's snapshot holding both.
 */
import Cloudflare from 'cloudflare';
import { beforeEach, describe, expect, it } from 'vitest';
import { CloudflareApi, DnsApi, ManualClock } from 'edge-doubles';
import { timestamp } from '../../lib/dns/present.js';

const START = Date.UTC(2030, 0, 1);
const BASE = 'https://api.cloudflare.com/client/v4';

let clock: ManualClock;
let api: CloudflareApi;
let client: Cloudflare;
let account_id: string;
let zoneA: string;
let zoneB: string;

beforeEach(() => {
  clock = new ManualClock(START);
  api = new CloudflareApi({ clock, zones: [{ name: 'corp.example' }, { name: 'lab.example' }] });
  [zoneA, zoneB] = api.account.zones.map((z) => z.id) as [string, string];
  account_id = api.account.id;
  client = new Cloudflare({
    apiToken: 'any-token',
    apiKey: null,
    apiEmail: null,
    baseURL: BASE,
    fetch: api.fetch,
    maxRetries: 0,
  });
});

/** A raw request, for the answers the SDK throws on. */
async function call(method: string, path: string, body?: unknown) {
  const res = await api.fetch(
    new Request(`${BASE}/accounts/${account_id}${path}`, {
      method,
      headers: { authorization: 'Bearer any-token', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return {
    status: res.status,
    body: (await res.json()) as { result: unknown; errors: { code: number; message: string }[] },
  };
}

describe('GET|PATCH /accounts/{id}/dns_settings', () => {
  it('answers every zone default the schema requires, a new account its defaults', async () => {
    expect(await client.dns.settings.account.get({ account_id })).toEqual({
      zone_defaults: {
        flatten_all_cnames: false,
        foundation_dns: false,
        internal_dns: {},
        multi_provider: false,
        nameservers: { type: 'cloudflare.standard' },
        ns_ttl: 86400,
        secondary_overrides: false,
        soa: {
          expire: 604800,
          min_ttl: 1800,
          mname: null,
          refresh: 10000,
          retry: 2400,
          rname: 'dns.cloudflare.com',
          ttl: 3600,
        },
        zone_mode: 'standard',
      },
      enforce_dns_only: false,
    });
  });

  it('a PATCH changes what it names and keeps the rest; GET reads it back', async () => {
    const patched = await client.dns.settings.account.edit({
      account_id,
      enforce_dns_only: true,
      zone_defaults: { ns_ttl: 3600, soa: { ttl: 600 }, nameservers: { type: 'cloudflare.standard.random' } },
    });
    expect(patched.enforce_dns_only).toBe(true);
    expect(patched.zone_defaults).toMatchObject({
      ns_ttl: 3600,
      nameservers: { type: 'cloudflare.standard.random' },
      soa: { ttl: 600, expire: 604800, mname: null },
      zone_mode: 'standard',
    });
    await client.dns.settings.account.edit({ account_id, zone_defaults: { zone_mode: 'dns_only' } });
    expect((await client.dns.settings.account.get({ account_id })).zone_defaults).toMatchObject({
      ns_ttl: 3600,
      zone_mode: 'dns_only',
      soa: { ttl: 600 },
    });
  });

  it('refuses a value outside the schema with 400 1004, changing nothing', async () => {
    const before = await client.dns.settings.account.get({ account_id });
    for (const body of [
      { enforce_dns_only: 'yes' },
      { zone_defaults: { ns_ttl: 10 } },
      { zone_defaults: { nameservers: { type: 'custom.zone' } } },
      { zone_defaults: { soa: { retry: 1 } } },
      { zone_defaults: { soa: { serial: 1 } } },
      { zone_defaults: { zone_mode: 'other' } },
      { zone_defaults: { ns_ttl: 3600, multi_provider: 'no' } },
      { zone_defaults: [] },
    ]) {
      const r = await call('PATCH', '/dns_settings', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0]!.code).toBe(1004);
    }
    expect(await client.dns.settings.account.get({ account_id })).toEqual(before);
  });

  it('a zone made afterwards starts with the zone defaults; a zone made before keeps its own', async () => {
    await client.dns.settings.account.edit({
      account_id,
      zone_defaults: { ns_ttl: 7200, flatten_all_cnames: true, soa: { refresh: 20000 } },
    });
    const made = await client.zones.create({ name: 'new.example', account: { id: account_id } });
    const settings = await client.dns.settings.zone.get({ zone_id: made.id });
    expect(settings).toMatchObject({ ns_ttl: 7200, flatten_all_cnames: true, soa: { refresh: 20000 } });
    // The zone's own first name server stays its SOA mname (the default's null: "Cloudflare-assigned").
    expect(settings.soa!.mname).toMatch(/\.ns\.cloudflare\.com$/);
    const helper = api.addZone({ name: 'helper.example' });
    expect(await client.dns.settings.zone.get({ zone_id: helper.id })).toMatchObject({ ns_ttl: 7200 });
    expect(await client.dns.settings.zone.get({ zone_id: zoneA })).toMatchObject({
      ns_ttl: 86400,
      flatten_all_cnames: false,
    });
  });
});

describe('/accounts/{id}/dns_settings/views', () => {
  it('create, get, edit, list and delete a view', async () => {
    const made = await client.dns.settings.account.views.create({ account_id, name: 'office', zones: [zoneA] });
    expect(made).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'office',
      zones: [zoneA],
      created_time: timestamp(START),
      modified_time: timestamp(START),
    });
    expect(await client.dns.settings.account.views.get(made.id, { account_id })).toEqual(made);
    clock.advance(1000);
    const edited = await client.dns.settings.account.views.edit(made.id, { account_id, zones: [zoneA, zoneB] });
    expect(edited).toMatchObject({ name: 'office', zones: [zoneA, zoneB], modified_time: timestamp(START + 1000) });
    const listed = await client.dns.settings.account.views.list({ account_id });
    expect(listed.result).toEqual([edited]);
    expect(await client.dns.settings.account.views.delete(made.id, { account_id })).toEqual({ id: made.id });
    expect((await client.dns.settings.account.views.list({ account_id })).result).toEqual([]);
    const gone = await call('GET', `/dns_settings/views/${made.id}`);
    expect(gone.status).toBe(404);
  });

  it('filters by name (exact, contains, starts, ends), zone id and zone name, with match any or all; orders and pages', async () => {
    await client.dns.settings.account.views.create({ account_id, name: 'office-east', zones: [zoneA] });
    clock.advance(1);
    await client.dns.settings.account.views.create({ account_id, name: 'lab', zones: [zoneB] });
    clock.advance(1);
    const empty = await client.dns.settings.account.views.create({ account_id, name: 'empty-east', zones: [] });
    const names = async (query: Record<string, unknown>) =>
      (await client.dns.settings.account.views.list({ account_id, ...query })).result.map((v) => v.name);
    expect(await names({ name: { contains: 'east' } })).toEqual(['office-east', 'empty-east']);
    expect(await names({ name: { startswith: 'off' } })).toEqual(['office-east']);
    expect(await names({ name: { endswith: 'ab' } })).toEqual(['lab']);
    expect(await names({ name: { exact: 'lab' } })).toEqual(['lab']);
    expect(await names({ zone_id: zoneA })).toEqual(['office-east']);
    expect(await names({ zone_name: 'lab.example' })).toEqual(['lab']);
    expect(await names({ name: { contains: 'east' }, zone_id: zoneB, match: 'any' })).toEqual([
      'office-east',
      'lab',
      'empty-east',
    ]);
    expect(await names({ name: { contains: 'east' }, zone_id: zoneB, match: 'all' })).toEqual([]);
    expect(await names({ order: 'name' })).toEqual(['empty-east', 'lab', 'office-east']);
    expect(await names({ order: 'created_on', direction: 'desc' })).toEqual(['empty-east', 'lab', 'office-east']);
    const page = await call('GET', '/dns_settings/views?per_page=2&page=2');
    expect(page.body).toMatchObject({
      result: [expect.objectContaining({ id: empty.id })],
      result_info: { page: 2, per_page: 2, count: 1, total_count: 3, total_pages: 2 },
    });
  });

  it('refuses a name taken, a zone not of the account, two zones of one name, a missing name or zones', async () => {
    await client.dns.settings.account.views.create({ account_id, name: 'office', zones: [zoneA] });
    const twin = api.addZone({ name: 'corp.example', id: 'c'.repeat(32) }).id;
    for (const body of [
      { name: 'office', zones: [] },
      { name: 'other', zones: ['f'.repeat(32)] },
      { name: 'other', zones: [zoneA, twin] },
      { zones: [zoneA] },
      { name: 'other' },
      { name: '', zones: [] },
      { name: 'other', zones: 'zoneA' },
    ]) {
      const r = await call('POST', '/dns_settings/views', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0]!.code).toBe(1004);
    }
    expect((await client.dns.settings.account.views.list({ account_id })).result.map((v) => v.name)).toEqual([
      'office',
    ]);
    const other = await client.dns.settings.account.views.create({ account_id, name: 'other', zones: [twin] });
    const renamed = await call('PATCH', `/dns_settings/views/${other.id}`, { name: 'office' });
    expect(renamed.status).toBe(400);
    expect((await call('GET', '/dns_settings/views/not-a-view-id')).body.errors[0]!.code).toBe(7003);
  });
});

describe("the account DNS state is the account's", () => {
  it('a snapshot holds the settings and the views; restore brings them back', async () => {
    const snap = api.snapshot();
    await client.dns.settings.account.edit({ account_id, enforce_dns_only: true });
    await client.dns.settings.account.views.create({ account_id, name: 'office', zones: [zoneA] });
    api.restore(snap);
    expect((await client.dns.settings.account.get({ account_id })).enforce_dns_only).toBe(false);
    expect((await client.dns.settings.account.views.list({ account_id })).result).toEqual([]);
  });

  it('DnsApi serves them too, over the same account', async () => {
    const dns = new DnsApi({ account: api.account });
    const res = await dns.fetch(
      new Request(`${BASE}/accounts/${account_id}/dns_settings/views`, {
        headers: { authorization: 'Bearer any-token' },
      }),
    );
    expect(res.status).toBe(200);
  });
});
