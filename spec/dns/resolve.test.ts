/**
 * DNS resolution as model logic (lib/dns/resolve.ts): every rule of issue 20 point 1, through
 * `api.resolve` / `api.answer`, with records written through the API's own rules (seed).
 */
import { describe, expect, it } from 'vitest';
import { DnsApi, type DnsApiOptions, type DnsRecordSeed, type DnsZoneInit } from '../../lib/dns.js';
import { TOKEN, setup } from './helpers.js';

const EDGE_V4 = ['104.21.0.1', '172.67.0.1'];
const EDGE_V6 = ['2606:4700:3030::6815:1', '2606:4700:3031::ac43:1'];

function zone(records: DnsRecordSeed[], init: Partial<DnsZoneInit> = {}, options: DnsApiOptions = {}) {
  const api = new DnsApi({ ...options, zones: [{ name: 'example.com', plan: 'pro', ...init, records }] });
  return api;
}

const datas = (a: { answers: { data: unknown }[] }) => a.answers.map((rr) => rr.data);

describe('api.resolve: what the API wrote is what DNS answers', () => {
  it('answers a TXT record created through the API, with its TTL, authoritatively', async () => {
    const api = zone([{ type: 'TXT', name: '_acme-challenge', content: 'token-1', ttl: 120 }]);
    expect(await api.resolve('_acme-challenge.example.com', 'TXT')).toEqual({
      rcode: 'NOERROR',
      authoritative: true,
      answers: [{ name: '_acme-challenge.example.com', type: 'TXT', class: 'IN', ttl: 120, data: ['token-1'] }],
      authorities: [],
      additionals: [],
    });
  });

  it('sees a record created over HTTP at once, and its deletion', async () => {
    const { api, create, call } = setup();
    const made = await create({ type: 'TXT', name: '_acme-challenge', content: 'abc', ttl: 60 });
    expect(datas(await api.resolve('_acme-challenge.example.com', 'TXT'))).toEqual([['abc']]);
    await call('DELETE', `/${made.body.result.id}`);
    expect((await api.resolve('_acme-challenge.example.com', 'TXT')).rcode).toBe('NXDOMAIN');
    expect(TOKEN).toBeTruthy();
  });

  it('answers several values at one name (two ACME tokens)', async () => {
    const api = zone([
      { type: 'TXT', name: '_acme-challenge', content: 'one' },
      { type: 'TXT', name: '_acme-challenge', content: 'two' },
    ]);
    expect(datas(await api.resolve('_acme-challenge.example.com', 'TXT')).sort()).toEqual([['one'], ['two']]);
  });

  it('rejects an unknown type in api.resolve, and answer() gives FORMERR for it', async () => {
    const api = zone([]);
    await expect(api.resolve('example.com', 'NOPE')).rejects.toThrow(TypeError);
    expect(api.answer({ name: 'example.com', type: 'NOPE' }).rcode).toBe('FORMERR');
  });

  it('accepts TYPE<n> and dns-packet UNKNOWN_<n> spellings of a type', async () => {
    const api = zone([{ type: 'TXT', name: 't', content: 'x' }]);
    for (const type of ['TYPE16', 'UNKNOWN_16', 'txt'])
      expect(datas(api.answer({ name: 't.example.com', type }))).toEqual([['x']]);
  });
});

describe('TTL', () => {
  it('answers ttl 1 ("Auto") as 300 and keeps an explicit TTL', async () => {
    const api = zone([
      { type: 'A', name: 'auto', content: '192.0.2.1', ttl: 1 },
      { type: 'A', name: 'fixed', content: '192.0.2.2', ttl: 7200 },
    ]);
    expect((await api.resolve('auto.example.com')).answers[0]!.ttl).toBe(300);
    expect((await api.resolve('fixed.example.com')).answers[0]!.ttl).toBe(7200);
  });
});

describe('proxied names', () => {
  it('answer A and AAAA with two edge addresses per family at TTL 300, never the origin', async () => {
    const api = zone([{ type: 'A', name: 'www', content: '192.0.2.10', proxied: true }]);
    const a = await api.resolve('www.example.com', 'A');
    expect(a.answers.map((rr) => [rr.data, rr.ttl])).toEqual(EDGE_V4.map((ip) => [ip, 300]));
    // AAAA too, though only an A record exists (IPv6 compatibility is on by default,
    // docs/sources/dns-wire.md#proxied-names).
    expect(datas(await api.resolve('www.example.com', 'AAAA'))).toEqual(EDGE_V6);
  });

  it('take the edge addresses from proxyAddresses; a family left out answers NODATA', async () => {
    const api = zone(
      [{ type: 'AAAA', name: 'www', content: '2001:db8::1', proxied: true }],
      {},
      { proxyAddresses: ['127.0.0.1'] },
    );
    expect(datas(await api.resolve('www.example.com', 'A'))).toEqual(['127.0.0.1']);
    const v6 = await api.resolve('www.example.com', 'AAAA');
    expect([v6.rcode, v6.answers, v6.authorities[0]?.type]).toEqual(['NOERROR', [], 'SOA']);
  });

  it('refuse proxyAddresses that are not addresses', () => {
    expect(() => new DnsApi({ proxyAddresses: ['localhost'] })).toThrow(/proxyAddresses/);
  });

  it('make the whole name proxied when one of its A records is', async () => {
    const api = zone([
      { type: 'A', name: 'mix', content: '192.0.2.1', proxied: true },
      { type: 'A', name: 'mix', content: '192.0.2.2', proxied: false },
    ]);
    expect(datas(await api.resolve('mix.example.com'))).toEqual(EDGE_V4);
  });

  it('answer a proxied CNAME as edge addresses, not as a CNAME', async () => {
    const api = zone([{ type: 'CNAME', name: 'app', content: 'origin.example.net', proxied: true }]);
    const a = await api.resolve('app.example.com', 'A');
    expect(a.answers.map((rr) => [rr.type, rr.data, rr.ttl])).toEqual(EDGE_V4.map((ip) => ['A', ip, 300]));
    expect((await api.resolve('app.example.com', 'CNAME')).answers).toEqual([]);
  });

  it('keep the other family out under ipv4_only / ipv6_only', async () => {
    const api = zone([
      { type: 'A', name: 'v4', content: '192.0.2.1', proxied: true, settings: { ipv4_only: true } },
      { type: 'A', name: 'v6', content: '192.0.2.2', proxied: true, settings: { ipv6_only: true } },
    ]);
    expect((await api.resolve('v4.example.com', 'AAAA')).answers).toEqual([]);
    expect(datas(await api.resolve('v4.example.com', 'A'))).toEqual(EDGE_V4);
    expect((await api.resolve('v6.example.com', 'A')).answers).toEqual([]);
    expect(datas(await api.resolve('v6.example.com', 'AAAA'))).toEqual(EDGE_V6);
  });

  it('do not proxy other types at the name', async () => {
    const api = zone([
      { type: 'A', name: 'www', content: '192.0.2.1', proxied: true },
      { type: 'TXT', name: 'www', content: 'hello' },
    ]);
    expect(datas(await api.resolve('www.example.com', 'TXT'))).toEqual([['hello']]);
  });
});

describe('CNAME', () => {
  it('follows a DNS-only chain inside the double, each link under its own name', async () => {
    const api = zone([
      { type: 'CNAME', name: 'a', content: 'b.example.com', ttl: 120 },
      { type: 'CNAME', name: 'b', content: 'c.example.com', ttl: 1 },
      { type: 'A', name: 'c', content: '192.0.2.3', ttl: 60 },
    ]);
    const r = await api.resolve('a.example.com', 'A');
    expect(r.answers.map((rr) => [rr.name, rr.type, rr.ttl, rr.data])).toEqual([
      ['a.example.com', 'CNAME', 120, 'b.example.com'],
      ['b.example.com', 'CNAME', 300, 'c.example.com'],
      ['c.example.com', 'A', 60, '192.0.2.3'],
    ]);
  });

  it('follows a chain into another zone of the account', async () => {
    const api = new DnsApi({
      zones: [
        { name: 'example.com', records: [{ type: 'CNAME', name: 'x', content: 'y.other.test' }] },
        { name: 'other.test', records: [{ type: 'A', name: 'y', content: '192.0.2.9' }] },
      ],
    });
    expect(datas(await api.resolve('x.example.com'))).toEqual(['y.other.test', '192.0.2.9']);
  });

  it('answers the CNAME alone when its target is outside the double', async () => {
    const api = zone([{ type: 'CNAME', name: 'ext', content: 'target.example.net' }]);
    const r = await api.resolve('ext.example.com', 'A');
    expect([r.rcode, datas(r), r.authorities]).toEqual(['NOERROR', ['target.example.net'], []]);
  });

  it("gives the final name's NXDOMAIN when the chain ends at a name the double holds but that does not exist (RFC 6604)", async () => {
    const api = zone([{ type: 'CNAME', name: 'dangling', content: 'gone.example.com' }]);
    const r = await api.resolve('dangling.example.com', 'A');
    expect([r.rcode, datas(r), r.authorities[0]?.type]).toEqual(['NXDOMAIN', ['gone.example.com'], 'SOA']);
  });

  it('stops at a loop', async () => {
    const api = zone([
      { type: 'CNAME', name: 'p', content: 'q.example.com' },
      { type: 'CNAME', name: 'q', content: 'p.example.com' },
    ]);
    expect(datas(await api.resolve('p.example.com'))).toEqual(['q.example.com', 'p.example.com']);
  });

  it('is flattened at the apex: the target addresses under the apex name, at the lowest TTL', async () => {
    const api = zone([
      { type: 'CNAME', name: '@', content: 'web.example.com', ttl: 3600 },
      { type: 'A', name: 'web', content: '192.0.2.7', ttl: 120 },
    ]);
    const r = await api.resolve('Example.COM', 'A');
    expect(r.answers).toEqual([{ name: 'Example.COM', type: 'A', class: 'IN', ttl: 120, data: '192.0.2.7' }]);
    expect((await api.resolve('example.com', 'CNAME')).answers).toEqual([]);
  });

  it('flattened to a target outside the double is NODATA', async () => {
    const api = zone([{ type: 'CNAME', name: '@', content: 'elsewhere.example.net' }]);
    const r = await api.resolve('example.com', 'A');
    expect([r.rcode, r.answers, r.authorities[0]?.type]).toEqual(['NOERROR', [], 'SOA']);
  });

  it('is flattened below the apex when the record asks (settings.flatten_cname)', async () => {
    const api = zone([
      { type: 'CNAME', name: 'flat', content: 'web.example.com', settings: { flatten_cname: true } },
      { type: 'CNAME', name: 'plain', content: 'web.example.com' },
      { type: 'A', name: 'web', content: '192.0.2.7' },
    ]);
    expect((await api.resolve('flat.example.com')).answers.map((rr) => [rr.name, rr.type])).toEqual([
      ['flat.example.com', 'A'],
    ]);
    expect((await api.resolve('plain.example.com')).answers.map((rr) => rr.type)).toEqual(['CNAME', 'A']);
  });

  it("is flattened everywhere under the zone's flattenAllCnames setting", async () => {
    const api = zone(
      [
        { type: 'CNAME', name: 'plain', content: 'web.example.com' },
        { type: 'A', name: 'web', content: '192.0.2.7' },
      ],
      { flattenAllCnames: true },
    );
    expect((await api.resolve('plain.example.com')).answers.map((rr) => [rr.name, rr.type, rr.data])).toEqual([
      ['plain.example.com', 'A', '192.0.2.7'],
    ]);
  });

  it('flattened onto a proxied target answers the edge addresses', async () => {
    const api = zone([
      { type: 'CNAME', name: '@', content: 'web.example.com' },
      { type: 'A', name: 'web', content: '192.0.2.7', proxied: true },
    ]);
    expect(datas(await api.resolve('example.com', 'AAAA'))).toEqual(EDGE_V6);
  });
});

describe('TXT', () => {
  it('unquotes quoted strings, one character-string each, undoing \\" and \\\\ and \\DDD', async () => {
    const api = zone([{ type: 'TXT', name: 'q', content: '"v=spf1 -all" "say \\"hi\\" \\\\ \\065"' }]);
    expect(datas(await api.resolve('q.example.com', 'TXT'))).toEqual([['v=spf1 -all', 'say "hi" \\ A']]);
  });

  it('cuts long content into 255-byte strings', async () => {
    const long = 'x'.repeat(600);
    const api = zone([{ type: 'TXT', name: 'long', content: long }]);
    const [strings] = datas(await api.resolve('long.example.com', 'TXT')) as string[][];
    expect(strings!.map((s) => s.length)).toEqual([255, 255, 90]);
    expect(strings!.join('')).toBe(long);
  });

  it('cuts by bytes, not characters: a piece that splits a UTF-8 sequence is given as bytes', async () => {
    const text = 'é'.repeat(200); // 400 bytes
    const api = zone([{ type: 'TXT', name: 'utf', content: text }]);
    const [pieces] = datas(await api.resolve('utf.example.com', 'TXT')) as (string | Uint8Array)[][];
    expect(pieces!.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p).length : p.length))).toEqual([
      255, 145,
    ]);
    expect(pieces![0]).toBeInstanceOf(Uint8Array);
    const joined = new Uint8Array([...(pieces![0] as Uint8Array), ...(pieces![1] as Uint8Array)]);
    expect(new TextDecoder().decode(joined)).toBe(text);
  });

  it('keeps an empty quoted string', async () => {
    const api = zone([{ type: 'TXT', name: 'e', content: '"" "a"' }]);
    expect(datas(await api.resolve('e.example.com', 'TXT'))).toEqual([['', 'a']]);
  });
});

describe('wildcards (RFC 4592)', () => {
  const api = () =>
    zone([
      { type: 'A', name: '*', content: '192.0.2.1' },
      { type: 'TXT', name: 'sub', content: 'exists' },
      { type: 'A', name: '*.wild', content: '192.0.2.2' },
      { type: 'A', name: 'deep.ent', content: '192.0.2.3' },
    ]);

  it('answer any name below with no record of its own, at any depth, under the queried name', async () => {
    const r = await api().resolve('Anything.Example.com', 'A');
    expect(r.answers).toEqual([{ name: 'Anything.Example.com', type: 'A', class: 'IN', ttl: 300, data: '192.0.2.1' }]);
    expect(datas(await api().resolve('a.b.c.example.com'))).toEqual(['192.0.2.1']);
    expect(datas(await api().resolve('x.wild.example.com'))).toEqual(['192.0.2.2']);
  });

  it('do not cover the apex', async () => {
    expect((await api().resolve('example.com', 'A')).answers).toEqual([]);
  });

  it('cover only their own type (NODATA for another)', async () => {
    const r = await api().resolve('nope.example.com', 'AAAA');
    expect([r.rcode, r.answers.length, r.authorities[0]?.type]).toEqual(['NOERROR', 0, 'SOA']);
  });

  it('stop at an existing name: it and everything below it are not covered by the higher wildcard', async () => {
    expect((await api().resolve('sub.example.com', 'A')).rcode).toBe('NOERROR');
    expect((await api().resolve('sub.example.com', 'A')).answers).toEqual([]);
    expect((await api().resolve('x.sub.example.com', 'A')).rcode).toBe('NXDOMAIN');
  });

  it('stop at an empty non-terminal, which is NODATA, not NXDOMAIN (RFC 8020)', async () => {
    const ent = await api().resolve('ent.example.com', 'A');
    expect([ent.rcode, ent.answers]).toEqual(['NOERROR', []]);
    expect((await api().resolve('other.ent.example.com', 'A')).rcode).toBe('NXDOMAIN');
  });

  it('an empty non-terminal goes with the last record below it, and comes back on restore', async () => {
    const { api, create, call } = setup();
    const snap = api.snapshot();
    const made = (await create({ type: 'A', name: 'leaf.mid', content: '192.0.2.1' })).body.result;
    expect((await api.resolve('mid.example.com')).rcode).toBe('NOERROR');
    await call('DELETE', `/${made.id}`);
    expect((await api.resolve('mid.example.com')).rcode).toBe('NXDOMAIN');
    const withLeaf = (await create({ type: 'A', name: 'leaf.mid', content: '192.0.2.1' }), api.snapshot());
    api.restore(snap);
    expect((await api.resolve('mid.example.com')).rcode).toBe('NXDOMAIN');
    api.restore(withLeaf);
    expect((await api.resolve('mid.example.com')).rcode).toBe('NOERROR');
    api.reset();
    expect((await api.resolve('mid.example.com')).rcode).toBe('NXDOMAIN');
  });

  it('are literal when asked by name', async () => {
    expect(datas(await api().resolve('*.example.com'))).toEqual(['192.0.2.1']);
  });
});

describe('SOA and NS at the apex', () => {
  it("synthesises NS from the zone's nameservers (TTL 86400) and SOA (TTL 3600)", async () => {
    const api = zone([]);
    const ns = api.answer({ name: 'example.com', type: 'NS' });
    const names = (
      await (
        await api.fetch(`https://api.cloudflare.com/client/v4/zones/${api.zones[0]!.id}`, {
          headers: { authorization: 'Bearer t' },
        })
      ).json()
    ).result.name_servers;
    expect(ns.answers.map((rr) => [rr.data, rr.ttl])).toEqual(names.map((n: string) => [n, 86400]));
    const soa = api.answer({ name: 'example.com', type: 'SOA' });
    expect(soa.answers[0]).toMatchObject({
      ttl: 3600,
      data: {
        mname: names[0],
        rname: 'dns.cloudflare.com',
        refresh: 10000,
        retry: 2400,
        expire: 604800,
        minimum: 1800,
      },
    });
  });

  it('takes configured nameservers, also in the API zone object', async () => {
    const api = zone([], { nameServers: ['NS1.Example.com.', 'ns2.example.com'] });
    expect(datas(api.answer({ name: 'example.com', type: 'NS' }))).toEqual(['ns1.example.com', 'ns2.example.com']);
    expect((api.answer({ name: 'example.com', type: 'SOA' }).answers[0]!.data as { mname: string }).mname).toBe(
      'ns1.example.com',
    );
  });

  it('ignores stored apex NS records (not multi-provider)', async () => {
    const api = zone([{ type: 'NS', name: '@', content: 'ns.other-provider.net' }]);
    expect(datas(api.answer({ name: 'example.com', type: 'NS' }))).not.toContain('ns.other-provider.net');
  });

  it('raises the serial on every change: create, update, delete, batch, reset and restore', async () => {
    const { api, create, call } = setup();
    const serial = () =>
      (api.answer({ name: 'example.com', type: 'SOA' }).answers[0]!.data as { serial: number }).serial;
    const seen = [serial()];
    const step = () => {
      const s = serial();
      expect(s).toBeGreaterThan(seen[seen.length - 1]!);
      seen.push(s);
    };
    const snap = api.snapshot();
    const made = (await create({ type: 'A', name: 'a', content: '192.0.2.1' })).body.result;
    step();
    await call('PATCH', `/${made.id}`, { content: '192.0.2.2' });
    step();
    await call('POST', '/batch', { posts: [{ type: 'TXT', name: 't', content: 'x' }] });
    step();
    await call('DELETE', `/${made.id}`);
    step();
    api.restore(snap); // back to the old records, but the serial goes forward
    step();
    api.reset();
    step();
    expect(seen[0]).toBeGreaterThan(2e9);
    expect(seen[seen.length - 1]).toBeLessThan(2 ** 32);
  });

  it('keeps the serial when a request fails and changes nothing', async () => {
    const { api, create } = setup();
    const serial = () =>
      (api.answer({ name: 'example.com', type: 'SOA' }).answers[0]!.data as { serial: number }).serial;
    const before = serial();
    expect((await create({ type: 'A', name: 'bad', content: 'not-an-ip' })).status).toBe(400);
    expect(serial()).toBe(before);
  });
});

describe('negative answers', () => {
  it('NXDOMAIN for a name that does not exist, with the SOA at 1800 in authority', async () => {
    const api = zone([{ type: 'A', name: 'www', content: '192.0.2.1' }]);
    const r = await api.resolve('nope.Example.com');
    expect(r).toMatchObject({ rcode: 'NXDOMAIN', authoritative: true, answers: [] });
    expect(r.authorities).toEqual([expect.objectContaining({ name: 'Example.com', type: 'SOA', ttl: 1800 })]);
  });

  it('NODATA (NOERROR, no answer) for a type the name lacks, with the SOA', async () => {
    const api = zone([{ type: 'A', name: 'www', content: '192.0.2.1' }]);
    const r = await api.resolve('www.example.com', 'MX');
    expect([r.rcode, r.answers, r.authorities.map((rr) => rr.type)]).toEqual(['NOERROR', [], ['SOA']]);
  });

  it('NODATA for DNSSEC types the double does not sign', async () => {
    const api = zone([]);
    for (const type of ['DNSKEY', 'RRSIG', 'NSEC', 'DS'])
      expect(api.answer({ name: 'example.com', type }).rcode).toBe('NOERROR');
  });

  it('REFUSED without AA for a name in no zone the double holds', async () => {
    const api = zone([]);
    expect(await api.resolve('example.org')).toEqual({
      rcode: 'REFUSED',
      authoritative: false,
      answers: [],
      authorities: [],
      additionals: [],
    });
    expect((await api.resolve('notexample.com')).rcode).toBe('REFUSED');
  });

  it('REFUSED for another class and for zone transfers', () => {
    const api = zone([]);
    expect(api.answer({ name: 'example.com', type: 'A', class: 'CH' }).rcode).toBe('REFUSED');
    expect(api.answer({ name: 'example.com', type: 'AXFR' }).rcode).toBe('REFUSED');
  });
});

describe('delegation', () => {
  const api = () =>
    zone([
      { type: 'NS', name: 'sub', content: 'ns1.sub.example.com' },
      { type: 'NS', name: 'sub', content: 'ns.other.test' },
      { type: 'A', name: 'ns1.sub', content: '192.0.2.53' },
      { type: 'TXT', name: 'deep.sub', content: 'shadowed' },
      { type: 'DS', name: 'sub', data: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: 'ab'.repeat(32) } },
    ]);

  it('refers a query at or below the cut: AA clear, the NS set in authority, glue in additional', async () => {
    for (const name of ['sub.example.com', 'deep.sub.example.com', 'x.y.sub.example.com']) {
      const r = await api().resolve(name, 'TXT');
      expect(r.rcode).toBe('NOERROR');
      expect(r.authoritative).toBe(false);
      expect(r.answers).toEqual([]);
      expect(r.authorities.map((rr) => [rr.name, rr.type, rr.data]).sort()).toEqual([
        ['sub.example.com', 'NS', 'ns.other.test'],
        ['sub.example.com', 'NS', 'ns1.sub.example.com'],
      ]);
      expect(r.additionals.map((rr) => [rr.name, rr.type, rr.data])).toEqual([
        ['ns1.sub.example.com', 'A', '192.0.2.53'],
      ]);
    }
  });

  it('answers DS at the cut itself from the parent, authoritatively', async () => {
    const r = await api().resolve('sub.example.com', 'DS');
    expect([r.rcode, r.authoritative, r.answers.map((rr) => rr.type)]).toEqual(['NOERROR', true, ['DS']]);
  });
});

describe('ANY (RFC 8482)', () => {
  it('is answered with HINFO "RFC8482" "" at TTL 3789, for existing and missing names alike', async () => {
    const api = zone([{ type: 'A', name: 'www', content: '192.0.2.1' }]);
    for (const name of ['www.example.com', 'missing.example.com']) {
      const r = await api.resolve(name, 'ANY');
      expect(r.rcode).toBe('NOERROR');
      expect(r.answers).toEqual([{ name, type: 'HINFO', class: 'IN', ttl: 3789, data: { cpu: 'RFC8482', os: '' } }]);
    }
  });
});

describe('case', () => {
  it('matches any case and echoes the asked spelling as the owner', async () => {
    const api = zone([{ type: 'AAAA', name: 'www', content: '2001:db8::1' }]);
    const r = await api.resolve('WwW.ExAmPlE.cOm.', 'aaaa');
    expect(r.answers).toEqual([{ name: 'WwW.ExAmPlE.cOm', type: 'AAAA', class: 'IN', ttl: 300, data: '2001:db8::1' }]);
  });
});

describe('other types from their stored fields', () => {
  it('MX, SRV, CAA, NS below apex as a referral, PTR, NAPTR in dns-packet shapes', async () => {
    const api = zone([
      { type: 'MX', name: '@', content: 'mail.example.com', priority: 10 },
      { type: 'SRV', name: '_sip._tcp', data: { priority: 1, weight: 5, port: 5060, target: 'Sip.Example.com.' } },
      { type: 'CAA', name: '@', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
      { type: 'PTR', name: '1', content: 'host.example.com' },
      {
        type: 'NAPTR',
        name: 'n',
        data: {
          order: 100,
          preference: 10,
          flags: 'S',
          service: 'SIP+D2U',
          regex: '',
          replacement: '_sip._udp.example.com',
        },
      },
    ]);
    expect(datas(await api.resolve('example.com', 'MX'))).toEqual([{ preference: 10, exchange: 'mail.example.com' }]);
    expect(datas(await api.resolve('_sip._tcp.example.com', 'SRV'))).toEqual([
      { priority: 1, weight: 5, port: 5060, target: 'Sip.Example.com' },
    ]);
    expect(datas(await api.resolve('example.com', 'CAA'))).toEqual([
      { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
    ]);
    expect(datas(await api.resolve('1.example.com', 'PTR'))).toEqual(['host.example.com']);
    expect(datas(await api.resolve('n.example.com', 'NAPTR'))).toEqual([
      { order: 100, preference: 10, flags: 'S', services: 'SIP+D2U', regexp: '', replacement: '_sip._udp.example.com' },
    ]);
  });

  it('gives the whole RDATA as bytes for DS, TLSA, SSHFP, URI, HTTPS (RFC 3597)', async () => {
    const api = zone([
      { type: 'NS', name: 'd', content: 'ns1.example.net' },
      { type: 'DS', name: 'd', data: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: 'AB01' } },
      { type: 'TLSA', name: '_443._tcp', data: { usage: 3, selector: 1, matching_type: 1, certificate: '00ff' } },
      { type: 'SSHFP', name: 'h', data: { algorithm: 4, type: 2, fingerprint: 'aabb' } },
      { type: 'URI', name: '_http._tcp', priority: 10, data: { weight: 1, target: 'http://x/' } },
      {
        type: 'HTTPS',
        name: '@',
        data: { priority: 1, target: '.', value: 'alpn="h3,h2" port=443 ipv4hint=192.0.2.1' },
      },
    ]);
    const one = async (name: string, type: string) =>
      Array.from((await api.resolve(name, type)).answers[0]!.data as Uint8Array);
    expect(await one('d.example.com', 'DS')).toEqual([0x09, 0x43, 13, 2, 0xab, 0x01]);
    expect(await one('_443._tcp.example.com', 'TLSA')).toEqual([3, 1, 1, 0x00, 0xff]);
    expect(await one('h.example.com', 'SSHFP')).toEqual([4, 2, 0xaa, 0xbb]);
    expect(await one('_http._tcp.example.com', 'URI')).toEqual([0, 10, 0, 1, ...new TextEncoder().encode('http://x/')]);
    // RFC 9460: priority 1, root target, then alpn (1), port (3), ipv4hint (4) in key order.
    expect(await one('example.com', 'HTTPS')).toEqual([
      0, 1, 0, 0, 1, 0, 6, 2, 0x68, 0x33, 2, 0x68, 0x32, 0, 3, 0, 2, 0x01, 0xbb, 0, 4, 0, 4, 192, 0, 2, 1,
    ]);
    expect((await api.resolve('example.com', 'HTTPS')).answers[0]!.type).toBe('HTTPS');
  });

  it('encodes SvcParams per RFC 9460: mandatory sorted, quoted alpn with an escaped comma, ech, keyNNNNN, keys in order', async () => {
    const value = 'key667="hi" ech=AQI= alpn="h2,a\\,b" mandatory=port,alpn port=8443 no-default-alpn';
    const api = zone([{ type: 'SVCB', name: '_dns', data: { priority: 2, target: 'svc.example.net.', value } }]);
    const rdata = Array.from((await api.resolve('_dns.example.com', 'SVCB')).answers[0]!.data as Uint8Array);
    const target = [
      3,
      ...new TextEncoder().encode('svc'),
      7,
      ...new TextEncoder().encode('example'),
      3,
      ...new TextEncoder().encode('net'),
      0,
    ];
    expect(rdata).toEqual([
      0,
      2,
      ...target,
      0,
      0,
      0,
      4,
      0,
      1,
      0,
      3, // mandatory=alpn,port (sorted)
      0,
      1,
      0,
      7,
      2,
      0x68,
      0x32,
      3,
      0x61,
      0x2c,
      0x62, // alpn h2, "a,b"
      0,
      2,
      0,
      0, // no-default-alpn
      0,
      3,
      0,
      2,
      0x20,
      0xfb, // port 8443
      0,
      5,
      0,
      2,
      1,
      2, // ech (base64 AQI=)
      0x02,
      0x9b,
      0,
      2,
      0x68,
      0x69, // key667="hi"
    ]);
  });

  it('refuses SvcParams with a key twice or a value where none belongs (record left out)', async () => {
    const api = zone([
      { type: 'HTTPS', name: 'a', data: { priority: 1, target: '.', value: 'port=1 port=2' } },
      { type: 'HTTPS', name: 'b', data: { priority: 1, target: '.', value: 'no-default-alpn=x' } },
      { type: 'HTTPS', name: 'c', data: { priority: 1, target: '.', value: 'ipv4hint=2001:db8::1' } },
    ]);
    for (const n of ['a', 'b', 'c']) expect((await api.resolve(`${n}.example.com`, 'HTTPS')).answers).toEqual([]);
  });

  it('leaves out a record whose stored data has no wire form, instead of answering it corrupt', async () => {
    const api = zone([
      { type: 'NS', name: 'odd', content: 'ns1.example.net' },
      { type: 'DS', name: 'odd', data: { key_tag: 1, algorithm: 13, digest_type: 2, digest: 'abc' } },
      { type: 'HTTPS', name: 'h', data: { priority: 1, target: '.', value: 'port=notaport' } },
    ]);
    for (const [name, type] of [
      ['odd.example.com', 'DS'],
      ['h.example.com', 'HTTPS'],
    ] as const) {
      const r = await api.resolve(name, type);
      expect([r.rcode, r.answers]).toEqual(['NOERROR', []]);
    }
  });
});
