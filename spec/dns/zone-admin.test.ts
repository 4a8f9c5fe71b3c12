/**
 * Zone administration over the API (issue 28 point 5, lib/dns/zone-admin.ts) through the official
 * `cloudflare` SDK against `startDnsServer({ dnsPort })`: a zone made through the API is answered
 * over the DNS port with the records made in it; edited (paused, type), its DNS settings and DNSSEC
 * status read back; deleted, its records go and the DNS port stops answering for it.
 */
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../lib/node/account-server.js';
import { query, udp } from './wire/client.js';

describe('zones over the API, seen over DNS', () => {
  let server: Awaited<ReturnType<typeof startDnsServer>> & { dnsPort: number };
  let client: Cloudflare;
  let accountId: string;

  beforeAll(async () => {
    server = await startDnsServer({ dnsPort: 0 });
    accountId = server.api.account.id;
    client = new Cloudflare({
      apiToken: 'zone-admin-token-0123456789',
      apiKey: null,
      apiEmail: null,
      baseURL: server.baseURL,
      maxRetries: 0,
    });
  });
  afterAll(() => server?.close());

  it('create, records, edit, settings, DNSSEC, delete', async () => {
    const zone = await client.zones.create({ name: 'made.example', account: { id: accountId }, type: 'full' });
    expect(zone).toMatchObject({
      name: 'made.example',
      status: 'active',
      paused: false,
      type: 'full',
      account: { id: accountId },
    });
    await client.dns.records.create({
      zone_id: zone.id,
      type: 'A',
      name: 'www.made.example',
      content: '198.51.100.7',
      ttl: 300,
    });
    const answered = await udp(server.dnsPort, query('www.made.example', 'A'));
    expect(answered.rcode).toBe('NOERROR');
    expect(answered.answers.map((a: { data: unknown }) => a.data)).toEqual(['198.51.100.7']);

    await expect(client.zones.create({ name: 'made.example', account: { id: accountId } })).rejects.toMatchObject({
      status: 400,
    });

    expect(await client.zones.edit({ zone_id: zone.id, paused: true })).toMatchObject({ paused: true });
    expect((await client.zones.get({ zone_id: zone.id })).paused).toBe(true);

    const settings = await client.dns.settings.zone.get({ zone_id: zone.id });
    expect(settings).toMatchObject({
      ns_ttl: 86400,
      zone_mode: 'standard',
      nameservers: { type: 'cloudflare.standard' },
    });
    expect(
      await client.dns.settings.zone.edit({ zone_id: zone.id, ns_ttl: 3600, soa: { min_ttl: 600 } }),
    ).toMatchObject({ ns_ttl: 3600, soa: { min_ttl: 600 } });
    await expect(client.dns.settings.zone.edit({ zone_id: zone.id, ns_ttl: 5 })).rejects.toMatchObject({ status: 400 });

    expect(await client.dns.dnssec.get({ zone_id: zone.id })).toMatchObject({ status: 'disabled' });
    expect(await client.dns.dnssec.edit({ zone_id: zone.id, status: 'active' })).toMatchObject({ status: 'pending' });
    expect(await client.dns.dnssec.edit({ zone_id: zone.id, status: 'disabled' })).toMatchObject({
      status: 'disabled',
    });
    await client.dns.dnssec.delete({ zone_id: zone.id });
    expect(await client.dns.dnssec.get({ zone_id: zone.id })).toMatchObject({ status: 'disabled' });

    expect(await client.zones.delete({ zone_id: zone.id })).toEqual({ id: zone.id });
    expect(server.api.zones.map((z) => z.name)).not.toContain('made.example');
    const gone = await udp(server.dnsPort, query('www.made.example', 'A'));
    expect(gone.rcode).toBe('REFUSED');
    await expect(client.zones.get({ zone_id: zone.id })).rejects.toMatchObject({ status: expect.any(Number) });
  }, 30_000);

  it('a zone in another account, or a name that is not a domain, is refused and nothing is made', async () => {
    await expect(client.zones.create({ name: 'other.example', account: { id: 'f'.repeat(32) } })).rejects.toMatchObject(
      { status: 403 },
    );
    await expect(client.zones.create({ name: 'not a domain', account: { id: accountId } })).rejects.toMatchObject({
      status: 400,
    });
    expect(server.api.zones.map((z) => z.name)).toEqual([]);
  });
});
