/**
 * Issue 35 point 5: an MX or SRV record whose target is a proxied name is answered with a name
 * Cloudflare inserts, `_dc-mx.<hash>.<zone>` or `dc-<hash>.<zone>`, which resolves to the origin and
 * never appears in the records API
 * (developers.cloudflare.com/dns/manage-dns-records/troubleshooting/unexpected-dns-records/).
 */
import { describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns.js';

function zone() {
  return new DnsApi({
    zones: [
      {
        name: 'example.com',
        records: [
          { type: 'A', name: '@', content: '192.0.2.1', proxied: true },
          { type: 'AAAA', name: '@', content: '2001:db8::1', proxied: true },
          { type: 'MX', name: '@', content: 'example.com', priority: 10 },
          { type: 'A', name: 'mail', content: '192.0.2.25' },
          { type: 'MX', name: 'plain', content: 'mail.example.com', priority: 5 },
          { type: 'A', name: 'web', content: '192.0.2.80', proxied: true },
          { type: 'MX', name: 'web', content: 'web.example.com', priority: 0 },
          { type: 'CNAME', name: 'pages', content: 'site.pages.test', proxied: true },
          { type: 'MX', name: 'pages', content: 'pages.example.com', priority: 1 },
          {
            type: 'SRV',
            name: '_sip._tcp',
            data: { priority: 1, weight: 5, port: 5060, target: 'web.example.com' },
          },
          { type: 'MX', name: 'other', content: 'www.example.org', priority: 10 },
        ],
      },
      { name: 'example.org', records: [{ type: 'A', name: 'www', content: '198.51.100.7', proxied: true }] },
    ],
  });
}

const exchange = async (api: DnsApi, name: string) =>
  ((await api.resolve(name, 'MX')).answers[0]!.data as { exchange: string }).exchange;

describe('MX and SRV targets that are proxied names', () => {
  it('an MX to a proxied name answers _dc-mx.<12 hex>.<zone>, which resolves to the origin; the records API shows the record as made', async () => {
    const api = zone();
    const mx = (await api.resolve('example.com', 'MX')).answers[0]!;
    const target = (mx.data as { exchange: string; preference: number }).exchange;
    expect(target).toMatch(/^_dc-mx\.[0-9a-f]{12}\.example\.com$/);
    expect((mx.data as { preference: number }).preference).toBe(10);
    expect((await api.resolve(target, 'A')).answers.map((r) => [r.name, r.data])).toEqual([[target, '192.0.2.1']]);
    expect((await api.resolve(target, 'AAAA')).answers.map((r) => r.data)).toEqual(['2001:db8::1']);
    const txt = await api.resolve(target, 'TXT');
    expect([txt.rcode, txt.answers]).toEqual(['NOERROR', []]);
    // The proxied name itself still answers the edge.
    expect((await api.resolve('example.com', 'A')).answers.map((r) => r.data)).not.toContain('192.0.2.1');
    const records = api.records('example.com');
    expect(records.filter((r) => r.type === 'MX' && r.name === 'example.com').map((r) => r.content)).toEqual([
      'example.com',
    ]);
    expect(records.some((r) => r.name.includes('_dc-mx'))).toBe(false);
  });

  it('an SRV to a proxied name answers dc-<12 hex>.<zone>; a DNS-only target is left as it is', async () => {
    const api = zone();
    const srv = (await api.resolve('_sip._tcp.example.com', 'SRV')).answers[0]!.data as {
      target: string;
      port: number;
    };
    expect(srv.target).toMatch(/^dc-[0-9a-f]{12}\.example\.com$/);
    expect(srv.port).toBe(5060);
    expect((await api.resolve(srv.target, 'A')).answers.map((r) => r.data)).toEqual(['192.0.2.80']);
    expect(await exchange(api, 'plain.example.com')).toBe('mail.example.com');
  });

  it('the hash is fixed for a target, differs between targets; a proxied CNAME origin answers its CNAME', async () => {
    const api = zone();
    const web = await exchange(api, 'web.example.com');
    expect(await exchange(api, 'web.example.com')).toBe(web);
    expect(web.split('.')[1]).not.toBe((await exchange(api, 'example.com')).split('.')[1]);
    const pages = await exchange(api, 'pages.example.com');
    const a = await api.resolve(pages, 'A');
    expect(a.answers.map((r) => [r.type, r.data])).toEqual([['CNAME', 'site.pages.test']]);
  });

  it('a target in another zone of the account is inserted under that zone; a name of the form that matches nothing is NXDOMAIN', async () => {
    const api = zone();
    const other = await exchange(api, 'other.example.com');
    expect(other).toMatch(/^_dc-mx\.[0-9a-f]{12}\.example\.org$/);
    expect((await api.resolve(other, 'A')).answers.map((r) => r.data)).toEqual(['198.51.100.7']);
    expect((await api.resolve('_dc-mx.000000000000.example.com', 'A')).rcode).toBe('NXDOMAIN');
  });

  it('once the target is DNS-only the MX answers it again', async () => {
    const api = zone();
    api.seed('example.com', [{ type: 'MX', name: 'later', content: 'mail.example.com', priority: 1 }]);
    expect(await exchange(api, 'later.example.com')).toBe('mail.example.com');
    api.seed('example.com', [{ type: 'AAAA', name: 'mail', content: '2001:db8::25', proxied: true }]);
    expect(await exchange(api, 'later.example.com')).toMatch(/^_dc-mx\./);
  });
});
