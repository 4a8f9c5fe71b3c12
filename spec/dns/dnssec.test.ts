/**
 * DNSSEC in process (issue 36): the keys' values against Cloudflare's own published ones, the
 * canonical RDATA the signer writes against `dns-packet`'s codecs, and `api.resolve(…, { dnssec:
 * true })`: every RRSIG checked by an independent checker (spec/helpers/dnssec.ts, node:crypto),
 * compact denial as Cloudflare answers it, the apex's DNSKEY, CDS and CDNSKEY through the states,
 * signature times on the double's clock, and the keys kept through snapshot, restore and reset.
 */
import Cloudflare from 'cloudflare';
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/clock.js';
import type { DnsResourceRecord } from '../../lib/dns-answer.js';
import { DnsApi, type DnsRecordSeed } from '../../lib/dns.js';
import { dnskeyRdata, dsDigest, keyTag, makeDnssecKeys } from '../../lib/dns/dnssec-keys.js';
import { rdataWire, typeBitmap } from '../../lib/dns/dnssec-sign.js';
import { checkSection, readDnskey, readNsec, readRrsig, typeCode } from '../helpers/dnssec.js';
import { BASE_URL } from './support.js';

/**
 * Cloudflare's key-signing and zone-signing keys, the same in every zone it signs: the KSK as the
 * DS of soleur.ai shows it (jikig-ai/soleur#1835, 2026-04: "2371 13 2 3EDA296C…") and as
 * python-cloudflare's README shows `public_key`; the ZSK's tag, 34505, is on the RRSIGs of
 * cloudflare.net (shuque/compactdenial's README, 2023-11) and ietf.org (recorded 2026-10-04).
 */
const CLOUDFLARE_KSK = 'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==';
const CLOUDFLARE_ZSK = 'oJMRESz5E4gYzS/q6XDrvU1qMPYIjCWzJaOau8XNEZeqCYKD5ar0IRd8KqXXFJkqmVfRvMGPmM1x8fGAa2XhSA==';

const RECORDS: DnsRecordSeed[] = [
  { type: 'A', name: 'www', content: '192.0.2.1', ttl: 300 },
  { type: 'A', name: 'www', content: '192.0.2.2', ttl: 300 },
  { type: 'MX', name: '@', content: 'Mail.Example.com', priority: 10, ttl: 3600 },
  { type: 'TXT', name: '@', content: 'v=spf1 -all', ttl: 3600 },
  { type: 'A', name: 'mail', content: '192.0.2.25', ttl: 300 },
  { type: 'CNAME', name: 'alias', content: 'www.example.com', ttl: 600 },
  { type: 'A', name: '*.w', content: '192.0.2.3', ttl: 120 },
  { type: 'A', name: 'c.b.a', content: '192.0.2.4', ttl: 300 },
  { type: 'NS', name: 'sub', content: 'ns1.sub.example.com', ttl: 3600 },
  { type: 'A', name: 'ns1.sub', content: '192.0.2.53', ttl: 3600 },
  { type: 'NS', name: 'secure', content: 'ns.other.test', ttl: 3600 },
  {
    type: 'DS',
    name: 'secure',
    data: {
      key_tag: 2371,
      algorithm: 13,
      digest_type: 2,
      digest: '3EDA296C18ABFBD581F7DE282C61ED8634B27651F1740EA68C9FF9FAF6D1A66D',
    },
    ttl: 3600,
  },
  { type: 'A', name: 'edge', content: '192.0.2.80', proxied: true },
];

async function signedZone(init: { clock?: ManualClock; enable?: boolean } = {}) {
  const api = new DnsApi({
    zones: [{ name: 'example.com', records: RECORDS }],
    credentials: [{ token: 't' }],
    ...(init.clock ? { clock: init.clock } : {}),
  });
  const zoneId = api.zone('example.com')!.id;
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await api.fetch(`${BASE_URL}${path}`, {
      method,
      headers: { authorization: 'Bearer t', ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field
    return { status: res.status, body: (await res.json()) as any };
  };
  if (init.enable !== false)
    expect((await call('PATCH', `/zones/${zoneId}/dnssec`, { status: 'active' })).status).toBe(200);
  const keys = (await api.resolve('example.com', 'DNSKEY')).answers;
  return { api, call, zoneId, keys };
}

const ask = (api: DnsApi, name: string, type: string) => api.resolve(name, type, { dnssec: true });
const types = (records: readonly DnsResourceRecord[]) => records.map((r) => r.type);

describe('key material', () => {
  it("the key tag (RFC 4034 Appendix B) and DS digest (RFC 4509) of Cloudflare's own keys are what production shows", () => {
    const ksk = dnskeyRdata(257, CLOUDFLARE_KSK);
    expect(keyTag(ksk)).toBe(2371);
    expect(keyTag(dnskeyRdata(256, CLOUDFLARE_ZSK))).toBe(34505);
    expect(dsDigest('soleur.ai', ksk)).toBe('3EDA296C18ABFBD581F7DE282C61ED8634B27651F1740EA68C9FF9FAF6D1A66D');
  });

  it('made with WebCrypto: two P-256 keys of 64 bytes, flags 257 and 256, their tags and the DS digest computed from them', async () => {
    const keys = await makeDnssecKeys('example.com');
    for (const [key, flags] of [
      [keys.ksk, 257],
      [keys.zsk, 256],
    ] as const) {
      expect(Buffer.from(key.publicKey, 'base64')).toHaveLength(64);
      expect(key.flags).toBe(flags);
      expect(key.tag).toBe(keyTag(dnskeyRdata(flags, key.publicKey)));
      expect(key.privateKey).toMatchObject({ kty: 'EC', crv: 'P-256' });
    }
    expect(keys.digest).toBe(dsDigest('example.com', dnskeyRdata(257, keys.ksk.publicKey)));
    expect(keys.digest).toMatch(/^[0-9A-F]{64}$/);
    expect((await makeDnssecKeys('example.com')).ksk.publicKey).not.toBe(keys.ksk.publicKey);
  });
});

describe('canonical RDATA', () => {
  /** dns-packet's codec for `type` (its RDLENGTH dropped): the bytes the wire sends. */
  const wire = (type: string, data: unknown) =>
    (packet as unknown as { record(t: string): { encode(d: unknown): Buffer } }).record(type).encode(data).subarray(2);

  it("is dns-packet's encoding for every shape resolution answers, names lower-cased in the types RFC 4034 §6.2 lists", () => {
    const cases: [string, unknown, unknown?][] = [
      ['A', '192.0.2.1'],
      ['AAAA', '2001:db8::1'],
      ['AAAA', '2606:4700:3030::6815:1'],
      ['CNAME', 'Target.Example.com', 'target.example.com'],
      ['NS', 'ns1.example.com'],
      ['PTR', 'host.example.com'],
      ['MX', { preference: 10, exchange: 'MX.example.com' }, { preference: 10, exchange: 'mx.example.com' }],
      ['TXT', ['v=spf1 -all', 'second', '']],
      ['SRV', { priority: 1, weight: 2, port: 5060, target: 'sip.example.com' }],
      ['CAA', { flags: 128, tag: 'issue', value: 'letsencrypt.org' }],
      [
        'NAPTR',
        { order: 1, preference: 2, flags: 'U', services: 'E2U+sip', regexp: '!^.*$!sip:x@y!', replacement: '.' },
      ],
      [
        'SOA',
        {
          mname: 'ada.ns.cloudflare.com',
          rname: 'dns.cloudflare.com',
          serial: 2300000001,
          refresh: 10000,
          retry: 2400,
          expire: 604800,
          minimum: 1800,
        },
      ],
      ['HINFO', { cpu: 'RFC8482', os: '' }],
    ];
    for (const [type, data, lowered] of cases)
      expect(Buffer.from(rdataWire(type, data)).toString('hex'), type).toBe(
        wire(type, lowered ?? data).toString('hex'),
      );
    const txtBytes = new Uint8Array([0xff, 0x00, 0x41]);
    expect(Buffer.from(rdataWire('TXT', [txtBytes])).toString('hex')).toBe(
      wire('TXT', [Buffer.from(txtBytes)]).toString('hex'),
    );
  });

  it('the NSEC type bitmap is RFC 4034 §4.1.2: one window per 256 types, as long as its highest type needs', () => {
    // RFC 4034 §4.3's example: A MX RRSIG NSEC TYPE1234.
    expect(Buffer.from(typeBitmap([1, 15, 46, 47, 1234])).toString('hex')).toBe(
      '0006400100000003' + '041b' + '00'.repeat(26) + '20',
    );
  });
});

describe('signed answers (api.resolve with { dnssec: true })', () => {
  it('a positive answer: one RRSIG after the RRset, signed by the zone-signing key, checked', async () => {
    const { api, keys } = await signedZone();
    const a = await ask(api, 'www.example.com', 'A');
    expect([a.rcode, a.authoritative, types(a.answers)]).toEqual(['NOERROR', true, ['A', 'A', 'RRSIG']]);
    const sig = readRrsig(a.answers[2]!);
    const zsk = keys.map(readDnskey).find((k) => k.flags === 256)!;
    expect(sig).toMatchObject({ typeCovered: 1, algorithm: 13, labels: 3, originalTtl: 300, keyTag: zsk.tag });
    expect(sig.signer).toBe('example.com');
    expect(a.answers[2]).toMatchObject({ name: 'www.example.com', ttl: 300 });
    expect(checkSection(a.answers, keys)).toEqual([]);
  });

  it('the apex MX and TXT, a CNAME and its target, and a proxied name answer signed', async () => {
    const { api, keys } = await signedZone();
    for (const [name, type, want] of [
      ['example.com', 'MX', ['MX', 'RRSIG']],
      ['example.com', 'TXT', ['TXT', 'RRSIG']],
      ['alias.example.com', 'A', ['CNAME', 'RRSIG', 'A', 'A', 'RRSIG']],
      ['edge.example.com', 'AAAA', ['AAAA', 'AAAA', 'RRSIG']],
      ['example.com', 'SOA', ['SOA', 'RRSIG']],
      ['example.com', 'NS', ['NS', 'NS', 'RRSIG']],
      ['example.com', 'ANY', ['HINFO', 'RRSIG']],
    ] as const) {
      const a = await ask(api, name, type);
      expect(types(a.answers), `${name} ${type}`).toEqual(want);
      expect(checkSection(a.answers, keys), `${name} ${type}`).toEqual([]);
    }
  });

  it("a wildcard's answer is signed as the name asked (RFC 9824 §3.3: labels counts the question's), no proof needed", async () => {
    const { api, keys } = await signedZone();
    const a = await ask(api, 'deep.x.w.example.com', 'A');
    expect(types(a.answers)).toEqual(['A', 'RRSIG']);
    expect(readRrsig(a.answers[1]!).labels).toBe(5);
    expect(a.authorities).toEqual([]);
    expect(checkSection(a.answers, keys)).toEqual([]);
  });

  it('a name that does not exist: NOERROR, the SOA and an NSEC at the name to \\000.<name> with RRSIG NSEC NXNAME, each signed', async () => {
    const { api, keys } = await signedZone();
    const a = await ask(api, 'Nope.Example.com', 'A');
    expect([a.rcode, a.answers, types(a.authorities)]).toEqual(['NOERROR', [], ['SOA', 'RRSIG', 'NSEC', 'RRSIG']]);
    const nsec = a.authorities[2]!;
    expect([nsec.name, nsec.ttl, a.authorities[0]!.ttl]).toEqual(['Nope.Example.com', 1800, 1800]);
    const { next, types: bitmap } = readNsec(nsec);
    expect(next.toString('hex')).toBe(Buffer.from('\x01\x00\x04nope\x07example\x03com\x00', 'latin1').toString('hex'));
    expect(bitmap).toEqual([typeCode('RRSIG'), typeCode('NSEC'), 128]);
    expect(checkSection(a.authorities, keys)).toEqual([]);
  });

  it("a missing type: the NSEC claims every type of Cloudflare's list but the one asked (black lies NODATA)", async () => {
    const { api, keys } = await signedZone();
    for (const [name, type] of [
      ['www.example.com', 'TXT'],
      ['www.example.com', 'AAAA'],
      ['b.a.example.com', 'A'], // an empty non-terminal
      ['example.com', 'AAAA'],
      ['x.w.example.com', 'MX'], // a name a wildcard covers
    ] as const) {
      const a = await ask(api, name, type);
      expect([a.rcode, a.answers, types(a.authorities)], `${name} ${type}`).toEqual([
        'NOERROR',
        [],
        ['SOA', 'RRSIG', 'NSEC', 'RRSIG'],
      ]);
      const bitmap = readNsec(a.authorities[2]!).types;
      expect(bitmap).not.toContain(typeCode(type));
      for (const t of ['CNAME', 'NS', 'SOA', 'DS']) expect(bitmap).not.toContain(typeCode(t));
      expect(bitmap).toContain(typeCode(type === 'TXT' ? 'A' : 'TXT'));
      expect(checkSection(a.authorities, keys)).toEqual([]);
    }
  });

  it('a delegation: the NS set unsigned, glue unsigned, and the DS set or an NSEC at the cut (NS RRSIG NSEC) signed', async () => {
    const { api, keys } = await signedZone();
    const insecure = await ask(api, 'deep.sub.example.com', 'A');
    expect([insecure.authoritative, types(insecure.authorities), types(insecure.additionals)]).toEqual([
      false,
      ['NS', 'NSEC', 'RRSIG'],
      ['A'],
    ]);
    expect(readNsec(insecure.authorities[1]!).types).toEqual(['NS', 'RRSIG', 'NSEC'].map(typeCode));
    expect(checkSection(insecure.authorities, keys)).toEqual([]);
    const secure = await ask(api, 'www.secure.example.com', 'A');
    expect(types(secure.authorities)).toEqual(['NS', 'DS', 'RRSIG']);
    expect(checkSection(secure.authorities, keys)).toEqual([]);
    const noDs = await ask(api, 'sub.example.com', 'DS');
    expect([noDs.rcode, types(noDs.authorities)]).toEqual(['NOERROR', ['SOA', 'RRSIG', 'NSEC', 'RRSIG']]);
    expect(readNsec(noDs.authorities[2]!).types).toEqual(['NS', 'RRSIG', 'NSEC'].map(typeCode));
  });

  it('signatures run from a day before the clock to 26 hours after it, and are given again for five minutes', async () => {
    const clock = new ManualClock(Date.UTC(2026, 9, 4, 12, 0, 0));
    const { api, keys } = await signedZone({ clock });
    const now = clock.now() / 1000;
    const first = readRrsig((await ask(api, 'www.example.com', 'A')).answers[2]!);
    expect([first.inception, first.expiration]).toEqual([now - 86400, now + 93600]);
    clock.advance(60_000);
    const again = readRrsig((await ask(api, 'www.example.com', 'A')).answers[2]!);
    expect(again.signature.equals(first.signature)).toBe(true);
    clock.advance(5 * 60_000);
    const later = await ask(api, 'www.example.com', 'A');
    const renewed = readRrsig(later.answers[2]!);
    expect(renewed.inception).toBe(now + 360 - 86400);
    expect(renewed.signature.equals(first.signature)).toBe(false);
    expect(checkSection(later.answers, keys)).toEqual([]);
  });

  it('a record created through the API a moment before is answered signed', async () => {
    const { api, call, zoneId, keys } = await signedZone();
    const made = await call('POST', `/zones/${zoneId}/dns_records`, {
      type: 'TXT',
      name: '_acme-challenge.example.com',
      content: 'token-123',
      ttl: 120,
    });
    expect(made.status).toBe(200);
    const a = await ask(api, '_acme-challenge.example.com', 'TXT');
    expect(types(a.answers)).toEqual(['TXT', 'RRSIG']);
    expect(checkSection(a.answers, keys)).toEqual([]);
  });

  it('no DO bit, or DNSSEC never enabled: no RRSIG and no NSEC, NXDOMAIN as before', async () => {
    const { api } = await signedZone();
    expect(types((await api.resolve('www.example.com', 'A')).answers)).toEqual(['A', 'A']);
    const nx = await api.resolve('nope.example.com', 'A');
    expect([nx.rcode, types(nx.authorities)]).toEqual(['NXDOMAIN', ['SOA']]);
    const off = (await signedZone({ enable: false })).api;
    expect(types((await ask(off, 'www.example.com', 'A')).answers)).toEqual(['A', 'A']);
    const offNx = await ask(off, 'nope.example.com', 'A');
    expect([offNx.rcode, types(offNx.authorities)]).toEqual(['NXDOMAIN', ['SOA']]);
    expect((await ask(off, 'example.com', 'DNSKEY')).answers).toEqual([]);
    // Unsigned, `answer` stays synchronous even with the DO bit.
    expect(off.answer({ name: 'www.example.com', type: 'A', dnssecOk: true })).not.toBeInstanceOf(Promise);
  });

  it('a question for NXNAME is FORMERR (RFC 9824 §3.4)', async () => {
    const { api } = await signedZone();
    expect((await api.resolve('www.example.com', 'TYPE128')).rcode).toBe('FORMERR');
  });
});

describe('the apex keys through the states', () => {
  it('DNSKEY: the KSK and ZSK at TTL 3600, signed by the KSK; CDS and CDNSKEY carry the KSK while enabled', async () => {
    const { api, call, zoneId, keys } = await signedZone();
    const shown = (await call('GET', `/zones/${zoneId}/dnssec`)).body.result;
    const dnskey = await ask(api, 'example.com', 'DNSKEY');
    expect(types(dnskey.answers)).toEqual(['DNSKEY', 'DNSKEY', 'RRSIG']);
    expect(dnskey.answers.map((r) => r.ttl)).toEqual([3600, 3600, 3600]);
    const [ksk, zsk] = keys.map(readDnskey);
    expect([ksk!.flags, ksk!.publicKey.toString('base64'), ksk!.tag, zsk!.flags]).toEqual([
      257,
      shown.public_key,
      shown.key_tag,
      256,
    ]);
    expect(readRrsig(dnskey.answers[2]!).keyTag).toBe(ksk!.tag);
    expect(checkSection(dnskey.answers, keys)).toEqual([]);
    const cds = await ask(api, 'example.com', 'CDS');
    expect(types(cds.answers)).toEqual(['CDS', 'RRSIG']);
    expect(
      Buffer.from(cds.answers[0]!.data as Uint8Array)
        .toString('hex')
        .toUpperCase(),
    ).toBe(`${shown.key_tag.toString(16).padStart(4, '0')}0D02${shown.digest}`.toUpperCase());
    expect(readRrsig(cds.answers[1]!).keyTag).toBe(ksk!.tag);
    expect(checkSection(cds.answers, keys)).toEqual([]);
    const cdnskey = await ask(api, 'example.com', 'CDNSKEY');
    expect(readDnskey(cdnskey.answers[0]!).publicKey.toString('base64')).toBe(shown.public_key);
  });

  it("disabled: still signed, DNSKEY still served, CDS and CDNSKEY in RFC 8078's delete form; deleted: nothing signed", async () => {
    const { api, call, zoneId, keys } = await signedZone();
    await call('PATCH', `/zones/${zoneId}/dnssec`, { status: 'disabled' });
    expect(types((await ask(api, 'example.com', 'DNSKEY')).answers)).toEqual(['DNSKEY', 'DNSKEY', 'RRSIG']);
    const www = await ask(api, 'www.example.com', 'A');
    expect(checkSection(www.answers, keys)).toEqual([]);
    expect(types(www.answers)).toEqual(['A', 'A', 'RRSIG']);
    const hex = async (type: string) =>
      Buffer.from((await ask(api, 'example.com', type)).answers[0]!.data as Uint8Array).toString('hex');
    expect(await hex('CDS')).toBe('0000000000');
    expect(await hex('CDNSKEY')).toBe('0000030000');
    expect((await call('DELETE', `/zones/${zoneId}/dnssec`)).status).toBe(200);
    expect(types((await ask(api, 'www.example.com', 'A')).answers)).toEqual(['A', 'A']);
    expect((await ask(api, 'example.com', 'DNSKEY')).answers).toEqual([]);
    expect((await ask(api, 'nope.example.com', 'A')).rcode).toBe('NXDOMAIN');
  });

  it('the keys are zone state: snapshot, restore and reset keep them (the DS a registrar holds stays right)', async () => {
    const { api, call, zoneId } = await signedZone();
    const before = (await call('GET', `/zones/${zoneId}/dnssec`)).body.result;
    const s = api.snapshot();
    api.reset();
    expect((await call('GET', `/zones/${zoneId}/dnssec`)).body.result).toEqual(before);
    api.restore(s);
    expect((await call('GET', `/zones/${zoneId}/dnssec`)).body.result).toEqual(before);
    const a = await ask(api, 'www.example.com', 'A');
    expect(checkSection(a.answers, (await api.resolve('example.com', 'DNSKEY')).answers)).toEqual([]);
    expect(readDnskey((await api.resolve('example.com', 'DNSKEY')).answers[0]!).tag).toBe(before.key_tag);
  });
});

describe('the page example', () => {
  it('DNSSEC turned on through the SDK; a signed answer in process', async () => {
    // README: dnssec
    const api = new DnsApi({
      zones: [{ name: 'example.com', records: [{ type: 'A', name: 'www', content: '192.0.2.1' }] }],
    });
    const cf = new Cloudflare({ apiToken: 'any-token', baseURL: BASE_URL, fetch: api.fetch });
    const zone_id = api.zone('example.com')!.id;
    const dnssec = await cf.dns.dnssec.edit({ zone_id, status: 'active' }); // the zone's keys are made
    expect(dnssec).toMatchObject({ status: 'pending', algorithm: '13', flags: 257, digest_type: '2' });
    expect(dnssec.ds).toBe(`example.com. 3600 IN DS ${dnssec.key_tag} 13 2 ${dnssec.digest}`); // for the registrar
    api.dsAtRegistrar('example.com'); // the double has no registrar: say it publishes the DS
    expect((await cf.dns.dnssec.get({ zone_id })).status).toBe('active');

    // With the DO bit: signed (RRSIG, NSEC and DNSKEY data are their RDATA bytes).
    const www = await api.resolve('www.example.com', 'A', { dnssec: true });
    expect(www.answers.map((r) => r.type)).toEqual(['A', 'RRSIG']);
    // A name that does not exist: compact denial (RFC 9824), NOERROR and one NSEC, as Cloudflare answers.
    const missing = await api.resolve('nope.example.com', 'A', { dnssec: true });
    expect([missing.rcode, missing.authorities.map((r) => r.type)]).toEqual([
      'NOERROR',
      ['SOA', 'RRSIG', 'NSEC', 'RRSIG'],
    ]);
    // README: end
    expect(checkSection(www.answers, (await api.resolve('example.com', 'DNSKEY')).answers)).toEqual([]);
  });
});
