/**
 * The zone as real resolvers read it: records made through the API of `startDnsServer({ dnsPort })`,
 * asked with Node's own `dns.promises.Resolver` (c-ares) over UDP, and over TCP when the answer
 * does not fit UDP; types c-ares cannot parse (HTTPS, TLSA, SSHFP, DS, URI) with a dns-packet
 * client over both transports, which decodes the RDATA dns-packet has codecs for.
 */
import { Resolver } from 'node:dns/promises';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsExchange, type RunningDnsServer } from '../../../lib/node/index.js';
import { query, tcpSession, udp, udpRaw } from './client.js';

const TOKEN = 'wire-token';

describe('resolvers against startDnsServer({ dnsPort: 0 })', () => {
  let server: RunningDnsServer & { dnsPort: number };
  let resolver: Resolver;
  const seen: DnsExchange[] = [];

  const create = async (zone: string, record: Record<string, unknown>) => {
    const id = server.api.zone(zone)!.id;
    const res = await fetch(`${server.baseURL}/zones/${id}/dns_records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(record),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };

  beforeAll(async () => {
    server = await startDnsServer({
      zones: [{ name: 'example.com' }, { name: '2.0.192.in-addr.arpa' }],
      credentials: [{ token: TOKEN }],
      dnsPort: 0,
      onDnsExchange: (e) => seen.push(e),
    });
    resolver = new Resolver({ timeout: 3000, tries: 1 });
    resolver.setServers([`127.0.0.1:${server.dnsPort}`]);
    const records: Record<string, unknown>[] = [
      { type: 'A', name: 'www', content: '192.0.2.10', ttl: 600 },
      { type: 'A', name: 'shop', content: '192.0.2.20', proxied: true },
      { type: 'AAAA', name: 'www', content: '2001:db8::10', ttl: 1 },
      { type: 'CNAME', name: 'blog', content: 'www.example.com', ttl: 900 },
      { type: 'MX', name: '@', content: 'mail.example.com', priority: 10, ttl: 3600 },
      { type: 'TXT', name: '@', content: '"v=spf1 -all"', ttl: 300 },
      { type: 'TXT', name: 'long', content: 'k'.repeat(600), ttl: 300 },
      { type: 'NS', name: 'sub', content: 'ns1.other.example', ttl: 3600 },
      {
        type: 'SRV',
        name: '_sip._tcp',
        data: { priority: 1, weight: 2, port: 5060, target: 'sip.example.com' },
        ttl: 300,
      },
      { type: 'CAA', name: '@', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' }, ttl: 300 },
      {
        type: 'NAPTR',
        name: 'naptr',
        data: {
          order: 100,
          preference: 10,
          flags: 'S',
          service: 'SIP+D2U',
          regex: '',
          replacement: '_sip._udp.example.com',
        },
        ttl: 300,
      },
      { type: 'HTTPS', name: 'svc', data: { priority: 1, target: '.', value: 'alpn="h2"' }, ttl: 300 },
      {
        type: 'TLSA',
        name: '_443._tcp',
        data: { usage: 3, selector: 1, matching_type: 1, certificate: 'ab'.repeat(32) },
        ttl: 300,
      },
      { type: 'SSHFP', name: 'host', data: { algorithm: 4, type: 2, fingerprint: 'cd'.repeat(32) }, ttl: 300 },
      {
        type: 'DS',
        name: 'sub',
        data: { key_tag: 12345, algorithm: 13, digest_type: 2, digest: 'ef'.repeat(32) },
        ttl: 300,
      },
      { type: 'URI', name: '_ftp._tcp', priority: 10, data: { weight: 1, target: 'ftp://ftp.example.com/' }, ttl: 300 },
    ];
    for (const r of records) await create('example.com', r);
    for (let i = 0; i < 40; i++)
      await create('example.com', { type: 'TXT', name: 'many', content: `record ${i} ${'m'.repeat(30)}`, ttl: 120 });
    await create('2.0.192.in-addr.arpa', { type: 'PTR', name: '10', content: 'www.example.com', ttl: 300 });
  });
  afterAll(() => server.close());

  it('A and AAAA with their TTLs (ttl 1 is 300); a proxied name answers with two edge addresses, never the origin', async () => {
    expect(await resolver.resolve4('www.example.com', { ttl: true })).toEqual([{ address: '192.0.2.10', ttl: 600 }]);
    expect(await resolver.resolve6('www.example.com', { ttl: true })).toEqual([{ address: '2001:db8::10', ttl: 300 }]);
    const edge = await resolver.resolve4('shop.example.com', { ttl: true });
    expect(edge).toHaveLength(2);
    expect(edge.every((a) => a.ttl === 300 && a.address !== '192.0.2.20')).toBe(true);
  });

  it('CNAME, MX, TXT (quotes removed; 600 bytes as 255 + 255 + 90), NS and SOA at the apex, CAA, SRV, NAPTR, PTR', async () => {
    expect(await resolver.resolveCname('blog.example.com')).toEqual(['www.example.com']);
    expect(await resolver.resolveMx('example.com')).toEqual([{ exchange: 'mail.example.com', priority: 10 }]);
    expect(await resolver.resolveTxt('example.com')).toEqual([['v=spf1 -all']]);
    expect((await resolver.resolveTxt('long.example.com'))[0]!.map((s) => s.length)).toEqual([255, 255, 90]);
    // The nameservers the API shows on the zone are the ones DNS gives.
    const zone = await fetch(`${server.baseURL}/zones/${server.api.zone('example.com')!.id}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const nameServers = ((await zone.json()) as { result: { name_servers: string[] } }).result.name_servers;
    expect((await resolver.resolveNs('example.com')).sort()).toEqual([...nameServers].sort());
    const soa = await resolver.resolveSoa('example.com');
    expect(soa).toMatchObject({
      nsname: nameServers[0],
      hostmaster: 'dns.cloudflare.com',
      refresh: 10000,
      retry: 2400,
      expire: 604800,
    });
    expect(await resolver.resolveCaa('example.com')).toEqual([{ critical: 0, issue: 'letsencrypt.org' }]);
    expect(await resolver.resolveSrv('_sip._tcp.example.com')).toEqual([
      { priority: 1, weight: 2, port: 5060, name: 'sip.example.com' },
    ]);
    expect(await resolver.resolveNaptr('naptr.example.com')).toEqual([
      { flags: 'S', service: 'SIP+D2U', regexp: '', replacement: '_sip._udp.example.com', order: 100, preference: 10 },
    ]);
    expect(await resolver.resolvePtr('10.2.0.192.in-addr.arpa')).toEqual(['www.example.com']);
  });

  it('the SOA serial rises when a record changes', async () => {
    const before = (await resolver.resolveSoa('example.com')).serial;
    await create('example.com', { type: 'A', name: 'new', content: '192.0.2.99', ttl: 300 });
    expect((await resolver.resolveSoa('example.com')).serial).toBeGreaterThan(before);
    expect(await resolver.resolve4('new.example.com')).toEqual(['192.0.2.99']);
  });

  it('NXDOMAIN is ENOTFOUND, NODATA is ENODATA, a name in no zone is refused (ESERVFAIL/EREFUSED)', async () => {
    await expect(resolver.resolve4('missing.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolveMx('www.example.com')).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(resolver.resolve4('example.org')).rejects.toMatchObject({
      code: expect.stringMatching(/^E(REFUSED|SERVFAIL)$/),
    });
  });

  it('a TXT RRset over 1232 bytes: truncated over UDP, then the whole of it over TCP', async () => {
    const from = seen.length;
    const txt = await resolver.resolveTxt('many.example.com');
    expect(txt).toHaveLength(40);
    expect(seen.slice(from).map((e) => [e.transport, e.question?.name, e.truncated])).toEqual([
      ['udp', 'many.example.com', true],
      ['tcp', 'many.example.com', false],
    ]);
  });

  it('HTTPS, TLSA, SSHFP, DS and URI as RFC 3597 RDATA that decodes to the record, over UDP and TCP', async () => {
    const session = await tcpSession(server.dnsPort);
    try {
      for (const [name, type] of [
        ['svc.example.com', 'TYPE65'],
        ['_443._tcp.example.com', 'TLSA'],
        ['host.example.com', 'SSHFP'],
        ['sub.example.com', 'DS'],
        ['_ftp._tcp.example.com', 'TYPE256'],
      ] as const) {
        const wireType = type.startsWith('TYPE') ? `UNKNOWN_${type.slice(4)}` : type;
        const overUdp = await udp(server.dnsPort, query(name, wireType, { edns: 1232 }));
        session.send(query(name, wireType));
        const overTcp = await session.next();
        for (const res of [overUdp, overTcp])
          expect([name, res.rcode, res.answers!.length, res.flag_aa]).toEqual([name, 'NOERROR', 1, true]);
        const data = overUdp.answers![0]!.data as unknown;
        if (type === 'TLSA')
          expect(data).toMatchObject({
            usage: 3,
            selector: 1,
            matchingType: 1,
            certificate: Buffer.from('ab'.repeat(32), 'hex'),
          });
        if (type === 'SSHFP') expect(data).toMatchObject({ algorithm: 4, hash: 2, fingerprint: 'CD'.repeat(32) }); // dns-packet decodes it as upper-case hex
        if (type === 'DS')
          expect(data).toMatchObject({
            keyTag: 12345,
            algorithm: 13,
            digestType: 2,
            digest: Buffer.from('ef'.repeat(32), 'hex'),
          });
        if (type === 'TYPE65') expect((data as Buffer).subarray(0, 3)).toEqual(Buffer.from([0, 1, 0])); // priority 1, target "."
        if (type === 'TYPE256') expect((data as Buffer).subarray(4).toString()).toBe('ftp://ftp.example.com/');
      }
    } finally {
      session.close();
    }
  });

  it('classes: CH is refused by the model, and a class dns-packet has no name for before it, both with the question echoed as sent', async () => {
    const chaos = packet.encode({
      id: 3,
      type: 'query',
      questions: [{ name: 'version.bind', type: 'TXT', class: 'CH' }],
    });
    const ch = await udp(server.dnsPort, chaos);
    expect([ch.rcode, ch.questions!.map((q) => q.class)]).toEqual(['REFUSED', ['CH']]);
    const seven = Buffer.from(query('www.example.com', 'A'));
    seven.writeUInt16BE(7, seven.length - 2); // the question's class: the message's last two bytes
    const odd = await udp(server.dnsPort, seven);
    expect([odd.id, odd.rcode, odd.questions!.length, odd.questions![0]!.name]).toEqual([
      4242,
      'REFUSED',
      1,
      'www.example.com',
    ]);
  });

  it('ANY is answered as RFC 8482 (one HINFO)', async () => {
    const res = await udp(server.dnsPort, query('www.example.com', 'ANY'));
    expect(res.answers!.map((a) => [a.type, (a.data as packet.HInfoData).cpu])).toEqual([['HINFO', 'RFC8482']]);
  });
});

describe('startDnsServer({ dnsPort }).close()', () => {
  it('stops the DNS listeners with the API', async () => {
    const server = await startDnsServer({ zones: [{ name: 'example.com' }], dnsPort: 0 });
    expect((await udp(server.dnsPort, query('example.com', 'SOA'))).rcode).toBe('NOERROR');
    await server.close();
    expect(await udpRaw(server.dnsPort, query('example.com', 'SOA'), 300)).toBeUndefined();
    await expect(tcpSession(server.dnsPort)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(fetch(`${server.baseURL}/zones`)).rejects.toThrow();
  });
});
