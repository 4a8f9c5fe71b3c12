/**
 * The answers api.answer gives are in dns-packet's shape (lib/dns-answer.ts): encoded the way the
 * contract says (Uint8Array → Buffer; whole-RDATA bytes as UNKNOWN_<code>), every record survives
 * a dns-packet encode and decode, and the bytes say what was stored.
 */
import * as packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { DnsApi, dnsTypeCode, type DnsResourceRecord } from '../../lib/dns.js';

/** What the wire does with a record, per the contract. */
function forPacket(rr: DnsResourceRecord): packet.Answer {
  const buf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (rr.data instanceof Uint8Array)
    return { ...rr, type: `UNKNOWN_${dnsTypeCode(rr.type)}`, data: buf(rr.data) } as unknown as packet.Answer;
  if (Array.isArray(rr.data))
    return { ...rr, data: rr.data.map((s) => (s instanceof Uint8Array ? buf(s) : s)) } as packet.Answer;
  return rr as packet.Answer;
}

function roundTrip(records: DnsResourceRecord[]): { type: string; data: unknown }[] {
  const bytes = packet.encode({
    type: 'response',
    id: 1,
    flags: packet.AUTHORITATIVE_ANSWER,
    answers: records.map(forPacket),
  });
  return packet.decode(bytes).answers as { type: string; data: unknown }[];
}

const api = new DnsApi({
  zones: [
    {
      name: 'example.com',
      records: [
        { type: 'TXT', name: 'long', content: 'y'.repeat(300) + 'é'.repeat(200) },
        { type: 'MX', name: '@', content: 'mail.example.com', priority: 10 },
        { type: 'SRV', name: '_sip._tcp', data: { priority: 1, weight: 5, port: 5060, target: 'sip.example.com' } },
        { type: 'CAA', name: '@', data: { flags: 128, tag: 'issue', value: 'letsencrypt.org' } },
        { type: 'NS', name: 'd', content: 'ns1.example.net' },
        { type: 'DS', name: 'd', data: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: 'ab'.repeat(32) } },
        { type: 'HTTPS', name: '@', data: { priority: 1, target: '.', value: 'alpn=h2' } },
        {
          type: 'LOC',
          name: 'loc',
          data: {
            lat_degrees: 52,
            lat_minutes: 22,
            lat_seconds: 23,
            lat_direction: 'N',
            long_degrees: 4,
            long_minutes: 53,
            long_seconds: 32,
            long_direction: 'E',
            altitude: -2,
            size: 1,
            precision_horz: 10000,
            precision_vert: 10,
          },
        },
      ],
    },
  ],
});

describe('answers encode with dns-packet', () => {
  it('TXT: 255-byte strings whose bytes join to the stored content', () => {
    const [rr] = roundTrip(api.answer({ name: 'long.example.com', type: 'TXT' }).answers);
    const strings = rr!.data as Buffer[];
    expect(strings.map((s) => s.length)).toEqual([255, 255, 190]);
    expect(Buffer.concat(strings).toString('utf8')).toBe('y'.repeat(300) + 'é'.repeat(200));
  });

  it('MX, SRV, CAA, SOA, NS, HINFO decode to what was stored or synthesised', () => {
    const one = (name: string, type: string) => roundTrip(api.answer({ name, type }).answers).map((rr) => rr.data);
    expect(one('example.com', 'MX')).toEqual([{ preference: 10, exchange: 'mail.example.com' }]);
    expect(one('_sip._tcp.example.com', 'SRV')).toEqual([
      { priority: 1, weight: 5, port: 5060, target: 'sip.example.com' },
    ]);
    expect(one('example.com', 'CAA')).toEqual([
      { flags: 128, tag: 'issue', value: 'letsencrypt.org', issuerCritical: true },
    ]);
    expect(one('example.com', 'SOA')[0]).toMatchObject({ rname: 'dns.cloudflare.com', minimum: 1800 });
    expect(one('example.com', 'NS')).toHaveLength(2);
    expect(one('example.com', 'ANY')).toEqual([{ cpu: 'RFC8482', os: '' }]);
  });

  it('whole-RDATA types go out under their type number, and DS reads back through its own codec', () => {
    const [https] = roundTrip(api.answer({ name: 'example.com', type: 'HTTPS' }).answers);
    expect(https!.type).toBe('UNKNOWN_65');
    const [ds] = roundTrip(api.answer({ name: 'd.example.com', type: 'DS' }).answers);
    expect(ds).toMatchObject({ type: 'DS', data: { keyTag: 2371, algorithm: 13, digestType: 2 } });
    expect((ds!.data as { digest: Buffer }).digest.toString('hex')).toBe('ab'.repeat(32));
  });

  it('LOC follows RFC 1876 (version 0, precisions as mantissa/exponent, 2^31-based angles)', () => {
    const [loc] = roundTrip(api.answer({ name: 'loc.example.com', type: 'LOC' }).answers);
    const b = loc!.data as Buffer;
    expect([b[0], b[1], b[2], b[3]]).toEqual([0, 0x12, 0x16, 0x13]); // 1 m, 10 km, 10 m
    expect(b.readUInt32BE(4) - 2 ** 31).toBe(((52 * 60 + 22) * 60 + 23) * 1000);
    expect(b.readUInt32BE(8) - 2 ** 31).toBe(((4 * 60 + 53) * 60 + 32) * 1000);
    expect(b.readUInt32BE(12)).toBe(10_000_000 - 200);
  });
});
