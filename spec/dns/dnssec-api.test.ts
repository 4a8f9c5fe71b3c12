/**
 * `GET/PATCH/DELETE /zones/{id}/dnssec` and `GET /zones/{id}/dnssec/zsk` (issue 36), through the
 * official SDK where it has the call: every field Cloudflare answers, computed from the zone's keys
 * (the DS a registrar takes), the states and their transitions
 * (developers.cloudflare.com/dns/dnssec/dnssec-states/), and what is refused.
 */
import Cloudflare from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns.js';
import { dnskeyRdata, dsDigest, keyTag } from '../../lib/dns/dnssec-keys.js';
import { BASE_URL } from './support.js';

function setup(zones = [{ name: 'example.com' }]) {
  const api = new DnsApi({ zones, credentials: [{ token: 't' }] });
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await api.fetch(`${BASE_URL}${path}`, {
      method,
      headers: { authorization: 'Bearer t', ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field
    return { status: res.status, body: (await res.json()) as any };
  };
  const sdk = new Cloudflare({ apiToken: 't', baseURL: BASE_URL, fetch: api.fetch, maxRetries: 0 });
  return { api, call, sdk, zone_id: api.zones[0]!.id };
}

const FIELDS = [
  'algorithm',
  'digest',
  'digest_algorithm',
  'digest_type',
  'dnssec_multi_signer',
  'dnssec_presigned',
  'dnssec_use_nsec3',
  'ds',
  'flags',
  'key_tag',
  'key_type',
  'modified_on',
  'public_key',
  'status',
];

describe('DNSSEC details', () => {
  it('never enabled: disabled, modified_on null, no key fields (null), every field present', async () => {
    const { sdk, zone_id } = setup();
    const d = await sdk.dns.dnssec.get({ zone_id });
    expect(Object.keys(d)).toEqual(FIELDS);
    expect(d).toMatchObject({ status: 'disabled', modified_on: null, ds: null, public_key: null, key_tag: null });
    expect(await sdk.dns.dnssec.zsk.list({ zone_id })).toMatchObject({ result: [] });
  });

  it('enabling answers pending with the KSK, its key tag and a DS a registrar takes (RFC 4034 App. B, RFC 4509)', async () => {
    const { sdk, zone_id } = setup();
    const d = await sdk.dns.dnssec.edit({ zone_id, status: 'active' });
    expect(Object.keys(d)).toEqual(FIELDS);
    expect(d).toMatchObject({
      status: 'pending',
      algorithm: '13',
      digest_algorithm: 'SHA256',
      digest_type: '2',
      flags: 257,
      key_type: 'ECDSAP256SHA256',
    });
    const rdata = dnskeyRdata(257, d.public_key!);
    expect(d.key_tag).toBe(keyTag(rdata));
    expect(d.digest).toBe(dsDigest('example.com', rdata));
    expect(d.ds).toBe(`example.com. 3600 IN DS ${d.key_tag} 13 2 ${d.digest}`);
    expect(Date.parse(d.modified_on!)).toBeGreaterThan(0);
    expect(await sdk.dns.dnssec.get({ zone_id })).toEqual(d);
    // Enabling again keeps the keys.
    expect((await sdk.dns.dnssec.edit({ zone_id, status: 'active' })).ds).toBe(d.ds);
  });

  it("the zsk route: the zone-signing key in the API reference's shape, the DNSKEY the nameservers serve", async () => {
    const { api, sdk, zone_id } = setup();
    await sdk.dns.dnssec.edit({ zone_id, status: 'active' });
    const page = await sdk.dns.dnssec.zsk.list({ zone_id });
    expect(page.result).toHaveLength(1);
    const zsk = page.result[0]!;
    expect(zsk).toMatchObject({
      DNSKEY: {
        Algorithm: 13,
        Flags: 256,
        Protocol: 3,
        Hdr: { Class: 1, Name: 'example.com.', Rrtype: 48, Ttl: 3600 },
      },
      Location: 'database',
      Name: 'zsk_default',
      Tag: 'active',
      SigningKey: { privkey: null },
    });
    expect(zsk.SigningKey!.pubkey).toBe(`256 3 13 ${zsk.DNSKEY!.PublicKey}`);
    const served = (await api.resolve('example.com', 'DNSKEY')).answers.map((r) =>
      Buffer.from(r.data as Uint8Array).toString('base64'),
    );
    expect(served).toContain(Buffer.from(dnskeyRdata(256, zsk.DNSKEY!.PublicKey!)).toString('base64'));
  });

  it('pending → active once the registrar publishes the DS; disabling → pending-disabled → disabled once it is gone', async () => {
    const { api, sdk, zone_id } = setup();
    const enabled = await sdk.dns.dnssec.edit({ zone_id, status: 'active' });
    api.dsAtRegistrar('example.com');
    const active = await sdk.dns.dnssec.get({ zone_id });
    expect(active.status).toBe('active');
    expect(active.ds).toBe(enabled.ds);
    expect((await sdk.dns.dnssec.edit({ zone_id, status: 'disabled' })).status).toBe('pending-disabled');
    // The DS is still published: deleting is refused, nothing changes.
    await expect(sdk.dns.dnssec.delete({ zone_id })).rejects.toMatchObject({ status: 400 });
    expect((await sdk.dns.dnssec.get({ zone_id })).ds).toBe(enabled.ds);
    api.dsAtRegistrar('example.com', false);
    expect((await sdk.dns.dnssec.get({ zone_id })).status).toBe('disabled');
    // Disabled keeps the keys (the zone is still signed); enabling again brings the same DS back.
    expect((await sdk.dns.dnssec.get({ zone_id })).ds).toBe(enabled.ds);
    expect((await sdk.dns.dnssec.edit({ zone_id, status: 'active' })).ds).toBe(enabled.ds);
  });

  it('disabled before the DS was ever published goes straight to disabled; DELETE then drops the keys (modified_on null)', async () => {
    const { call, sdk, zone_id } = setup();
    const first = await sdk.dns.dnssec.edit({ zone_id, status: 'active' });
    await expect(sdk.dns.dnssec.delete({ zone_id })).rejects.toMatchObject({ status: 400 });
    expect((await sdk.dns.dnssec.edit({ zone_id, status: 'disabled' })).status).toBe('disabled');
    const deleted = await call('DELETE', `/zones/${zone_id}/dnssec`);
    expect([deleted.status, deleted.body.result]).toEqual([200, '']);
    expect(await sdk.dns.dnssec.get({ zone_id })).toMatchObject({ status: 'disabled', modified_on: null, ds: null });
    expect(await sdk.dns.dnssec.zsk.list({ zone_id })).toMatchObject({ result: [] });
    // Enabled again after a delete: new keys.
    expect((await sdk.dns.dnssec.edit({ zone_id, status: 'active' })).ds).not.toBe(first.ds);
  });

  it('a parent zone of the account holding the matching DS makes the child active', async () => {
    const { api, sdk } = setup([{ name: 'example.com' }, { name: 'child.example.com' }]);
    const child = api.zone('child.example.com')!.id;
    const d = await sdk.dns.dnssec.edit({ zone_id: child, status: 'active' });
    api.seed('example.com', [{ type: 'NS', name: 'child', content: 'ada.ns.cloudflare.com' }]);
    const ds = { key_tag: d.key_tag, algorithm: 13, digest_type: 2, digest: 'AB'.repeat(32) };
    api.seed('example.com', [{ type: 'DS', name: 'child', data: ds }]);
    expect((await sdk.dns.dnssec.get({ zone_id: child })).status).toBe('pending');
    api.seed('example.com', [{ type: 'DS', name: 'child', data: { ...ds, digest: d.digest!.toLowerCase() } }]);
    expect((await sdk.dns.dnssec.get({ zone_id: child })).status).toBe('active');
  });

  it('a status that is neither active nor disabled is 1002 Invalid or missing "status" (production, 2018), and nothing changes', async () => {
    const { call, sdk, zone_id } = setup();
    for (const status of ['on', 'pending', 1, null]) {
      const r = await call('PATCH', `/zones/${zone_id}/dnssec`, { status, dnssec_multi_signer: true });
      expect([r.status, r.body.errors], JSON.stringify(status)).toEqual([
        400,
        [{ code: 1002, message: 'Invalid or missing "status"' }],
      ]);
    }
    expect(await sdk.dns.dnssec.get({ zone_id })).toMatchObject({ status: 'disabled', dnssec_multi_signer: false });
  });
});
