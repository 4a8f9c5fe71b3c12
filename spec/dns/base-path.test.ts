import Cloudflare from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns.js';
import { runCli, type CliIo } from '../../lib/node/commands.js';

const AUTH = { authorization: 'Bearer base-path-token' };

// The SDK's generated tests point `baseURL` at a bare origin (a mock server on 127.0.0.1:4010);
// the API itself answers under /client/v4. The double answers under a configured base path.
describe('basePath', () => {
  it('defaults to /client/v4; a request outside it is a 404 in the envelope that names /client/v4/', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }] });
    expect(api.basePath).toBe('/client/v4');
    const zoneId = api.zones[0]!.id;
    const res = await api.fetch(`http://127.0.0.1:4010/zones/${zoneId}/dns_records`, { headers: AUTH });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toMatchObject({ result: null, success: false, messages: [] });
    expect(body.errors).toEqual([
      {
        code: 7000,
        message: `No route for that URI: /zones/${zoneId}/dns_records is not under /client/v4/, where this API answers (DnsApi basePath option).`,
      },
    ]);
    // Inside the base path, an unknown route is still the API's 7003 route error.
    const inside = await (await api.fetch(`http://x/client/v4/nothing`, { headers: AUTH })).json();
    expect(inside.errors[0].code).toBe(7003);
  });

  it("'' answers at the bare origin, as the SDK's generated tests configure it", async () => {
    // README: bare-origin
    const api = new DnsApi({ basePath: '', zones: [{ name: 'example.com' }] });
    const client = new Cloudflare({
      apiToken: 'base-path-token',
      apiEmail: null,
      apiKey: null,
      baseURL: 'http://127.0.0.1:4010',
      fetch: api.fetch,
      maxRetries: 0,
    });
    // README: end
    expect(api.basePath).toBe('');
    const zoneId = api.zones[0]!.id;
    const rec = await client.dns.records.create({
      zone_id: zoneId,
      type: 'A',
      name: 'www',
      content: '198.51.100.4',
      ttl: 1,
    });
    expect(rec.name).toBe('www.example.com');
    const listed = await client.dns.records.list({ zone_id: zoneId });
    expect(listed.result.map((r) => r.id)).toEqual([rec.id]);
    // The API's own path is now outside it.
    const res = await api.fetch(`http://127.0.0.1:4010/client/v4/zones/${zoneId}/dns_records`, { headers: AUTH });
    expect(res.status).toBe(404);
    expect((await res.json()).errors[0].code).toBe(7003);
  });

  it('another path is normalised (leading slash added, trailing slash dropped) and named in the error', async () => {
    const api = new DnsApi({ basePath: 'api/cf/', zones: [{ name: 'example.com' }] });
    expect(api.basePath).toBe('/api/cf');
    const zoneId = api.zones[0]!.id;
    const ok = await api.fetch(`http://x/api/cf/zones/${zoneId}/dns_records`, { headers: AUTH });
    expect(ok.status).toBe(200);
    const res = await api.fetch(`http://x/client/v4/zones/${zoneId}/dns_records`, { headers: AUTH });
    expect((await res.json()).errors[0].message).toContain('is not under /api/cf/,');
    // A prefix that only looks like the base path is outside it.
    expect((await api.fetch(`http://x/api/cfx/zones/${zoneId}/dns_records`, { headers: AUTH })).status).toBe(404);
    expect(() => new DnsApi({ basePath: '/a?b' })).toThrow('basePath must be a URL path');
  });

  it('dns serve: --base-path (default /client/v4) and --compat (default today) reach the double', async () => {
    const out: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => stopped };
    const zone = 'b'.repeat(32);
    const running = runCli(['dns', 'serve', '--port', '0', '--zone', `example.org=${zone}`, '--base-path', ''], io);
    for (let i = 0; i < 200 && out.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    const base = /listening on (\S+)/.exec(out[0]!)![1]!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const created = await fetch(`${base}/zones/${zone}/dns_records`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'TXT', name: '_acme-challenge', content: 'token', ttl: 120 }),
    });
    // Today's API keeps unquoted TXT as sent (the document mode would add quotes).
    expect((await created.json()).result.content).toBe('token');
    stop();
    expect(await running).toBe(0);

    const usage: string[] = [];
    await runCli(['dns', 'serve', '--help'], { out: (l) => usage.push(l), err: () => {}, stopped: () => stopped });
    expect(usage.join('\n')).toContain('--base-path');
    await expect(runCli(['dns', 'serve', '--compat', 'yesterday'], io)).rejects.toThrow(
      '--compat must be today or document',
    );
  });
});
