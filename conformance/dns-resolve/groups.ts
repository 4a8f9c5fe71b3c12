/**
 * The resolution suite's tests: records written through the API, then asked over DNS. Every name
 * lives under the test's random subdomain (`c.name(label)`), so the suite is safe on a real zone.
 * Facts and sources: docs/sources/dns-wire.md, a section for each topic below.
 */
import { expect } from '../runner.js';
import type { DnsAnswer } from '../../lib/dns-answer.js';
import { defineResolveGroup, expectSoaAuthority, ofType, sameName, txtLengths, txtValues, typeOf } from './harness.js';

const has = (type: string) => (a: DnsAnswer) => ofType(a.answers, type).length > 0;
const rcodeIs = (rcode: string) => (a: DnsAnswer) => a.rcode === rcode;

/** Inside Cloudflare's published proxy ranges: 104.16.0.0/13, 172.64.0.0/13, 2606:4700::/32. */
function isCloudflareEdge(ip: string): boolean {
  const v4 = /^(\d+)\.(\d+)\./.exec(ip);
  if (v4)
    return (
      (Number(v4[1]) === 104 && (Number(v4[2]) & 0xf8) === 16) ||
      (Number(v4[1]) === 172 && (Number(v4[2]) & 0xf8) === 64)
    );
  return /^2606:4700:/i.test(ip);
}

export const records = defineResolveGroup('records written through the API', (t) => {
  t.test('a TXT record (an ACME token) is answered with its value and TTL, authoritatively', async (c) => {
    const name = c.name('_acme-challenge');
    await c.made({ type: 'TXT', name, content: 'validation-token-1', ttl: 120 });
    const a = await c.eventually(name, 'TXT', has('TXT'));
    expect([a.rcode, a.authoritative, txtValues(a)]).toEqual(['NOERROR', true, ['validation-token-1']]);
    expect(ofType(a.answers, 'TXT')[0]!.ttl).toBe(120);
  });

  t.test('two TXT values at one name are both answered', async (c) => {
    const name = c.name('_acme-challenge');
    await c.made({ type: 'TXT', name, content: 'one', ttl: 120 });
    await c.made({ type: 'TXT', name, content: 'two', ttl: 120 });
    const a = await c.eventually(name, 'TXT', (x) => txtValues(x).length === 2);
    expect(txtValues(a).sort()).toEqual(['one', 'two']);
  });

  t.test('quoted TXT content is answered unquoted, one character-string per quoted part', async (c) => {
    const name = c.name('spf');
    await c.made({ type: 'TXT', name, content: '"v=spf1" "-all"' });
    const a = await c.eventually(name, 'TXT', has('TXT'));
    expect(txtValues(a)).toEqual(['v=spf1-all']);
    expect(txtLengths(a)).toEqual([[6, 4]]);
  });

  t.test('TXT content over 255 bytes is answered as 255-byte character-strings', async (c) => {
    const name = c.name('long');
    await c.made({ type: 'TXT', name, content: 'k'.repeat(600) });
    const a = await c.eventually(name, 'TXT', has('TXT'));
    expect(txtLengths(a)).toEqual([[255, 255, 90]]);
  });

  t.test('ttl 1 ("Auto") is answered as 300', async (c) => {
    const name = c.name('auto');
    await c.made({ type: 'A', name, content: '192.0.2.1', ttl: 1 });
    const a = await c.eventually(name, 'A', has('A'));
    expect(a.answers.map((rr) => [rr.data, rr.ttl])).toEqual([['192.0.2.1', 300]]);
  });

  t.test('MX, SRV and CAA are answered from their fields', async (c) => {
    await c.made({ type: 'MX', name: c.name('mx'), content: `mail.${c.name()}`, priority: 10, ttl: 300 });
    await c.made({
      type: 'SRV',
      name: c.name('_sip._tcp'),
      data: { priority: 1, weight: 5, port: 5060, target: `sip.${c.name()}` },
      ttl: 300,
    });
    await c.made({
      type: 'CAA',
      name: c.name('caa'),
      data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
      ttl: 300,
    });
    expect(datas(await c.eventually(c.name('mx'), 'MX', has('MX')))).toEqual([
      { preference: 10, exchange: `mail.${c.name()}` },
    ]);
    expect(datas(await c.eventually(c.name('_sip._tcp'), 'SRV', has('SRV')))).toEqual([
      { priority: 1, weight: 5, port: 5060, target: `sip.${c.name()}` },
    ]);
    const caa = datas(await c.eventually(c.name('caa'), 'CAA', has('CAA')))[0] as Record<string, unknown>;
    expect([caa.flags, caa.tag, caa.value]).toEqual([0, 'issue', 'letsencrypt.org']);
  });

  t.test('a name is matched in any case and answered under the spelling asked (0x20)', async (c) => {
    await c.made({ type: 'A', name: c.name('www'), content: '192.0.2.5', ttl: 300 });
    const asked = c.name('www').replace(/[a-z]/g, (ch, i: number) => (i % 2 ? ch.toUpperCase() : ch));
    const a = await c.eventually(asked, 'A', has('A'));
    expect(a.answers[0]!.name.replace(/\.$/, '')).toBe(asked);
  });
});

const datas = (a: DnsAnswer) => a.answers.map((rr) => rr.data);

export const proxied = defineResolveGroup('proxied names', (t) => {
  t.test('a proxied A is answered with two edge addresses per family at TTL 300, never the origin', async (c) => {
    const name = c.name('www');
    await c.made({ type: 'A', name, content: '203.0.113.10', proxied: true });
    for (const type of ['A', 'AAAA']) {
      const a = await c.eventually(name, type, has(type));
      const ips = ofType(a.answers, type).map((rr) => rr.data as string);
      expect(ips).toHaveLength(2);
      expect(ips).not.toContain('203.0.113.10');
      expect(ofType(a.answers, type).every((rr) => rr.ttl === 300)).toBe(true);
    }
  });

  t.test(
    "the edge addresses are inside Cloudflare's published ranges",
    async (c) => {
      const name = c.name('www');
      await c.made({ type: 'A', name, content: '203.0.113.10', proxied: true });
      for (const type of ['A', 'AAAA']) {
        const a = await c.eventually(name, type, has(type));
        expect(ofType(a.answers, type).map((rr) => isCloudflareEdge(rr.data as string))).toEqual([true, true]);
      }
    },
    { difference: 'edge-addresses' },
  );

  t.test('a proxied CNAME is answered as edge addresses, not as a CNAME', async (c) => {
    const name = c.name('app');
    await c.made({ type: 'CNAME', name, content: 'origin.example.net', proxied: true });
    const a = await c.eventually(name, 'A', has('A'));
    expect(ofType(a.answers, 'CNAME')).toEqual([]);
    expect(ofType(a.answers, 'A')).toHaveLength(2);
  });
});

export const chains = defineResolveGroup('CNAME', (t) => {
  t.test("a DNS-only CNAME inside the zone is answered with its target's records", async (c) => {
    await c.made({ type: 'A', name: c.name('target'), content: '192.0.2.7', ttl: 300 });
    await c.made({ type: 'CNAME', name: c.name('alias'), content: c.name('target'), ttl: 300 });
    const a = await c.eventually(c.name('alias'), 'A', has('A'));
    expect(a.answers.map((rr) => [typeOf(rr), String(rr.data).toLowerCase()])).toEqual([
      ['CNAME', c.name('target')],
      ['A', '192.0.2.7'],
    ]);
  });

  t.test(
    "a CNAME with flatten_cname is answered as its target's addresses under its own name",
    async (c) => {
      await c.made({ type: 'A', name: c.name('target'), content: '192.0.2.7', ttl: 300 });
      await c.made({
        type: 'CNAME',
        name: c.name('flat'),
        content: c.name('target'),
        ttl: 300,
        settings: { flatten_cname: true },
      });
      const a = await c.eventually(c.name('flat'), 'A', has('A'));
      expect(a.answers.map((rr) => [typeOf(rr), sameName(rr.name, c.name('flat')), rr.data])).toEqual([
        ['A', true, '192.0.2.7'],
      ]);
    },
    { skip: t.target.paidPlan ? undefined : 'flatten_cname needs a paid plan; the target does not say paidPlan' },
  );
});

export const negative = defineResolveGroup('negative answers', (t) => {
  t.test(
    'a name that does not exist is NXDOMAIN with the SOA in authority',
    async (c) => {
      await c.made({ type: 'TXT', name: c.name('here'), content: 'x' });
      const a = await c.eventually(c.name('not-here'), 'A', rcodeIs('NXDOMAIN'));
      expect([a.rcode, a.authoritative, a.answers]).toEqual(['NXDOMAIN', true, []]);
      expectSoaAuthority(a);
    },
    { difference: 'dnssec-compact-denial' },
  );

  t.test('a type the name lacks is NODATA (NOERROR, no answers) with the SOA in authority', async (c) => {
    await c.made({ type: 'TXT', name: c.name('here'), content: 'x' });
    await c.eventually(c.name('here'), 'TXT', has('TXT'));
    const a = await c.resolve(c.name('here'), 'MX');
    expect([a.rcode, a.answers]).toEqual(['NOERROR', []]);
    expectSoaAuthority(a);
  });

  t.test('a name in no zone the nameservers hold is REFUSED', async (c) => {
    const a = await c.resolve('edge-doubles-conformance.invalid', 'A');
    expect([a.rcode, a.authoritative]).toEqual(['REFUSED', false]);
  });
});

export const wildcards = defineResolveGroup('wildcards (RFC 4592)', (t) => {
  t.test('a wildcard answers names below it, at any depth, under the name asked', async (c) => {
    await c.made({ type: 'A', name: c.name('*'), content: '192.0.2.8', ttl: 300 });
    for (const name of [c.name('x'), c.name('a.b')]) {
      const a = await c.eventually(name, 'A', has('A'));
      expect(a.answers.map((rr) => [sameName(rr.name, name), rr.data])).toEqual([[true, '192.0.2.8']]);
    }
  });

  t.test('an existing name stops the wildcard for itself (NODATA) and below it (NXDOMAIN)', async (c) => {
    await c.made({ type: 'A', name: c.name('*'), content: '192.0.2.8', ttl: 300 });
    await c.made({ type: 'TXT', name: c.name('real'), content: 'x', ttl: 300 });
    await c.eventually(c.name('real'), 'TXT', has('TXT'));
    const at = await c.resolve(c.name('real'), 'A');
    expect([at.rcode, at.answers]).toEqual(['NOERROR', []]);
    const below = await c.resolve(c.name('x.real'), 'A');
    expect(below.answers).toEqual([]);
  });

  t.test('a wildcard covers only its own type', async (c) => {
    await c.made({ type: 'A', name: c.name('*'), content: '192.0.2.8', ttl: 300 });
    await c.eventually(c.name('x'), 'A', has('A'));
    const a = await c.resolve(c.name('x'), 'AAAA');
    expect([a.rcode, a.answers]).toEqual(['NOERROR', []]);
  });
});

export const apex = defineResolveGroup('apex SOA and NS', (t) => {
  t.test("the apex NS set is the zone's assigned nameservers", async (c) => {
    const a = await c.resolve(c.target.zoneName, 'NS');
    expect(
      ofType(a.answers, 'NS')
        .map((rr) => String(rr.data).toLowerCase())
        .sort(),
    ).toEqual([...c.resolveTarget.nameServers].map((n) => n.toLowerCase()).sort());
  });

  t.test('the SOA names a zone nameserver and dns.cloudflare.com, and its serial rises after a change', async (c) => {
    const soa = async () =>
      ofType((await c.resolve(c.target.zoneName, 'SOA')).answers, 'SOA')[0]!.data as {
        mname: string;
        rname: string;
        serial: number;
      };
    const before = await soa();
    expect(c.resolveTarget.nameServers.map((n) => n.toLowerCase())).toContain(before.mname.toLowerCase());
    expect(before.rname).toBe('dns.cloudflare.com');
    await c.made({ type: 'TXT', name: c.name('bump'), content: 'x' });
    await c.eventually(c.name('bump'), 'TXT', has('TXT'));
    expect((await soa()).serial).toBeGreaterThan(before.serial);
  });
});

export const delegation = defineResolveGroup('delegation', (t) => {
  t.test('a query below an NS record gets a referral: AA clear, the NS set in authority', async (c) => {
    await c.made({ type: 'NS', name: c.name('deleg'), content: 'ns1.example.net', ttl: 300 });
    const a = await c.eventually(c.name('x.deleg'), 'A', (x) => ofType(x.authorities, 'NS').length > 0);
    expect([a.rcode, a.authoritative, a.answers]).toEqual(['NOERROR', false, []]);
    expect(ofType(a.authorities, 'NS').map((rr) => [sameName(rr.name, c.name('deleg')), rr.data])).toEqual([
      [true, 'ns1.example.net'],
    ]);
  });
});

export const any = defineResolveGroup('ANY (RFC 8482)', (t) => {
  t.test('ANY is answered with one HINFO "RFC8482" "" (§1.10)', async (c) => {
    await c.made({ type: 'A', name: c.name('www'), content: '192.0.2.1' });
    await c.eventually(c.name('www'), 'A', has('A'));
    const a = await c.resolve(c.name('www'), 'ANY');
    expect(a.answers.map((rr) => [typeOf(rr), hinfo(rr.data)])).toEqual([['HINFO', ['RFC8482', '']]]);
  });
});

const hinfo = (d: unknown) => {
  const { cpu, os } = d as { cpu: unknown; os: unknown };
  return [String(cpu), String(os)];
};
