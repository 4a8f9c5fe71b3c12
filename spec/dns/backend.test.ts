/**
 * The DNS backend (lib/dns/backend.ts): the one owner of an account's zones and DNS settings. Every
 * view of the account reaches the same zones through it, a read does not make it, and the account's
 * backends capture, restore and reset the zones' records and the settings together.
 */
import { describe, expect, it } from 'vitest';
import { Account } from '../../lib/account/account.js';
import { accountState } from '../../lib/account/state.js';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { DnsApi } from '../../lib/dns-api/dns-api.js';
import { DNS } from '../../lib/dns/backend.js';
import { Bucket } from '../../lib/bucket/bucket.js';

const BASE = 'https://api.cloudflare.com/client/v4';
const AUTH = { authorization: 'Bearer any-token', 'content-type': 'application/json' };

/** PATCH the account's DNS settings through the API. */
const patchSettings = (api: DnsApi, body: unknown) =>
  api.fetch(`${BASE}/accounts/${api.account.id}/dns_settings`, {
    method: 'PATCH',
    headers: AUTH,
    body: JSON.stringify(body),
  });

describe('the DNS backend', () => {
  it('is not made by reading an account that never served zones', () => {
    const account = new Account();
    expect(account.zones).toEqual([]);
    expect(accountState(account).made(DNS)).toBeUndefined();
  });

  it('holds the zones every view of the account sees, in the order added', async () => {
    const account = new Account();
    const dns = new DnsApi({ account, zones: [{ name: 'b.example' }] });
    const cf = new CloudflareApi({ account });
    cf.addZone({ name: 'a.example' });
    const backend = accountState(account).backend(DNS);
    expect([...backend.zones.values()].map((z) => z.name)).toEqual(['b.example', 'a.example']);
    expect(account.zones.map((z) => z.name)).toEqual(['b.example', 'a.example']);
    // A zone the other view made is found by the router of this one.
    const id = cf.zone('a.example')!.id;
    const res = await dns.fetch(`${BASE}/zones/${id}`, { headers: AUTH });
    expect(((await res.json()) as { result: { name: string } }).result.name).toBe('a.example');
  });

  it("restores the zones' records and the account's DNS settings from the account's snapshot", async () => {
    const api = new DnsApi({
      zones: [{ name: 'example.com', records: [{ type: 'A', name: 'www', content: '192.0.2.1' }] }],
    });
    const state = accountState(api.account);
    const taken = state.backends.snapshot();
    api.seed('example.com', [{ type: 'A', name: 'api', content: '192.0.2.2' }]);
    api.addZone({ name: 'later.example' });
    expect((await patchSettings(api, { enforce_dns_only: true })).status).toBe(200);
    expect(state.backend(DNS).settings.enforceDnsOnly).toBe(true);

    state.backends.restore(taken);
    expect(api.zones.map((z) => z.name)).toEqual(['example.com']);
    expect(api.records('example.com').map((r) => r.name)).toEqual(['www.example.com']);
    expect(state.backend(DNS).settings.enforceDnsOnly).toBe(false);
  });

  it('resets by emptying every zone: the zones and the settings stay, as DnsApi#reset says', async () => {
    const api = new DnsApi({
      zones: [{ name: 'example.com', records: [{ type: 'A', name: 'www', content: '192.0.2.1' }] }],
    });
    expect((await patchSettings(api, { enforce_dns_only: true })).status).toBe(200);
    const backend = accountState(api.account).backend(DNS);
    backend.reset();
    expect(api.zones.map((z) => z.name)).toEqual(['example.com']);
    expect(api.records('example.com')).toEqual([]);
    expect(backend.settings.enforceDnsOnly).toBe(true);
  });

  it('brings a backend made after a snapshot back to how it was made', () => {
    const api = new DnsApi();
    const state = accountState(api.account);
    const taken = state.backends.snapshot();
    // The account had no R2 backend when the snapshot was taken: a bucket made since is gone again.
    api.account.addBucket('made-later', new Bucket());
    expect(api.account.buckets).toEqual(['made-later']);
    state.backends.restore(taken);
    expect(api.account.buckets).toEqual([]);
  });

  it("refuses another account's snapshot", () => {
    const a = accountState(new DnsApi().account).backend(DNS);
    const b = accountState(new DnsApi().account).backend(DNS);
    expect(() => a.restore(b.snapshot())).toThrow(TypeError);
    expect(() => a.restore({})).toThrow(TypeError);
  });
});
