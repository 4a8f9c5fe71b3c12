import { afterEach, describe, expect, it, vi } from 'vitest';
import { DnsApi } from '../../lib/dns.js';
import { schemaErrors } from './support.js';

// Code under test that calls the global fetch, as a DDNS updater would.
async function updateDdns(zoneId: string, host: string, ip: string, token: string): Promise<string> {
  const base = `https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const found = await (await fetch(`${base}?type=A&name=${host}`, { headers })).json();
  const existing = found.result[0];
  const res = existing
    ? await fetch(`${base}/${existing.id}`, { method: 'PATCH', headers, body: JSON.stringify({ content: ip }) })
    : await fetch(base, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'A', name: host, content: ip, ttl: 1 }),
      });
  const body = await res.json();
  if (!body.success) throw new Error(body.errors[0].message);
  return body.result.id;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("vi.stubGlobal('fetch', api.fetch)", () => {
  it('a DDNS updater creates, then updates in place, and reports API errors', async () => {
    // README: stub-setup
    const api = new DnsApi({ zones: [{ name: 'example.com' }], credentials: [{ token: 'ddns-token' }] });
    vi.stubGlobal('fetch', api.fetch);
    const zoneId = api.zone('example.com')!.id;
    // README: end

    const first = await updateDdns(zoneId, 'home.example.com', '203.0.113.10', 'ddns-token');
    const second = await updateDdns(zoneId, 'home.example.com', '203.0.113.11', 'ddns-token');
    expect(second).toBe(first);
    expect(api.records('example.com').map((r) => [r.name, r.content])).toEqual([['home.example.com', '203.0.113.11']]);
    await expect(updateDdns(zoneId, 'home.example.com', '203.0.113.999', 'ddns-token')).rejects.toThrow(
      'Content for A record must be a valid IPv4 address.',
    );
    await expect(updateDdns(zoneId, 'home.example.com', '203.0.113.12', 'wrong')).rejects.toThrow();
  });

  it('fetch accepts a Request, a URL object and a string alike', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }] });
    vi.stubGlobal('fetch', api.fetch);
    const zoneId = api.zone('example.com')!.id;
    const url = `https://any-origin.test/client/v4/zones/${zoneId}/dns_records`;
    const headers = { 'x-auth-email': 'me@example.com', 'x-auth-key': 'k', 'content-type': 'application/json' };
    const viaRequest = await fetch(
      new Request(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'A', name: 'r', content: '198.51.100.1' }),
      }),
    );
    const viaUrl = await fetch(new URL(url), {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'A', name: 'u', content: '198.51.100.2' }),
    });
    const viaBytes = await fetch(url, {
      method: 'POST',
      headers,
      body: new TextEncoder().encode(JSON.stringify({ type: 'A', name: 'b', content: '198.51.100.3' })),
    });
    for (const res of [viaRequest, viaUrl, viaBytes]) {
      expect(res.status).toBe(200);
      expect(schemaErrors('dns-records_dns_response_single', await res.json())).toEqual([]);
    }
    expect(api.records('example.com').map((r) => r.name)).toEqual(['b.example.com', 'r.example.com', 'u.example.com']);
  });

  it('a string body without a content type is text/plain, as a real fetch sends it, and is refused', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }] });
    const url = `https://api.cloudflare.com/client/v4/zones/${api.zones[0]!.id}/dns_records`;
    const body = JSON.stringify({ type: 'A', name: 'x', content: '198.51.100.1' });
    const direct = await api.fetch(url, { method: 'POST', headers: { authorization: 'Bearer t' }, body });
    const viaRequest = await api.handle(
      new Request(url, { method: 'POST', headers: { authorization: 'Bearer t' }, body }),
    );
    for (const res of [direct, viaRequest]) {
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0]).toMatchObject({ code: 6003, error_chain: [{ code: 6105 }] });
    }
    expect(api.records('example.com')).toEqual([]);
  });
});
