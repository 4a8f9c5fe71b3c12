/**
 * Signed answers over the wire (issue 36): the DO bit reaches the model over UDP and TCP, signed
 * answers are checked from the bytes sent (spec/helpers/dnssec.ts), a larger signed answer is
 * truncated over UDP as any other and whole over TCP, and the cache of encoded answers
 * (lib/node/dns-answer-cache.ts) keeps a signed answer only while its signatures are the ones to
 * give again (five minutes on the double's clock), and forgets every answer when DNSSEC is enabled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { DnsApi } from '../../../lib/dns.js';
import { DnsAnswerCache } from '../../../lib/node/dns-answer-cache.js';
import { serveDns, type RunningDnsWire } from '../../../lib/node/dns-wire.js';
import { checkSection, readRrsig, type SignedRr } from '../../helpers/dnssec.js';
import { BASE_URL } from '../support.js';
import { query, tcpSession, udp, type Decoded } from './client.js';

describe('DNSSEC over UDP and TCP', { timeout: 30_000 }, () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 1, 8, 0, 0));
  const api = new DnsApi({
    zones: [
      {
        name: 'example.com',
        records: [
          { type: 'A', name: 'www', content: '192.0.2.1', ttl: 300 },
          // 9 TXT records: about 470 bytes unsigned, over 512 with their RRSIG.
          ...Array.from({ length: 9 }, (_, i) => ({
            type: 'TXT',
            name: 'txt',
            content: `value-${i}-${'x'.repeat(30)}`,
            ttl: 60,
          })),
        ],
      },
    ],
    credentials: [{ token: 't' }],
    clock,
  });
  const cache = new DnsAnswerCache(() => api.answerState());
  let server: RunningDnsWire;
  let keys: SignedRr[];
  const ask = (name: string, type: string, init: { edns?: number; dnssec?: boolean } = {}) =>
    udp(server.port, query(name, type, init));

  beforeAll(async () => {
    server = await serveDns((q) => api.answer(q), { cache });
    // Before DNSSEC: an answer the cache keeps, which enabling must make it forget.
    expect((await ask('example.com', 'DNSKEY', { edns: 1232, dnssec: true })).answers).toEqual([]);
    const res = await api.fetch(`${BASE_URL}/zones/${api.zone('example.com')!.id}/dnssec`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'active' }),
    });
    expect(res.status).toBe(200);
    keys = (await ask('example.com', 'DNSKEY', { edns: 1232, dnssec: true })).answers;
  });
  afterAll(() => server?.close());

  it('the DNSKEY set comes over UDP once enabled, signed (the cache forgot the earlier NODATA)', () => {
    expect(keys.map((r) => r.type)).toEqual(['DNSKEY', 'DNSKEY', 'RRSIG']);
    expect(checkSection(keys, keys)).toEqual([]);
  });

  it('with DO over UDP: RRSIGs that validate, the DO bit echoed; without DO (EDNS or not): none', async () => {
    const signed = await ask('www.example.com', 'A', { edns: 1232, dnssec: true });
    expect(signed.answers.map((r) => r.type)).toEqual(['A', 'RRSIG']);
    expect(checkSection(signed.answers, keys)).toEqual([]);
    expect(signed.additionals.find((r) => r.type === 'OPT')?.flag_do).toBe(true);
    for (const init of [{ edns: 1232 }, {}]) expect((await ask('www.example.com', 'A', init)).answers).toHaveLength(1);
    const nx = await ask('nope.example.com', 'A', { edns: 1232, dnssec: true });
    expect([nx.rcode, nx.authorities.map((r) => r.type)]).toEqual(['NOERROR', ['SOA', 'RRSIG', 'NSEC', 'RRSIG']]);
    expect(checkSection(nx.authorities, keys)).toEqual([]);
    expect((await ask('nope.example.com', 'A', { edns: 1232 })).rcode).toBe('NXDOMAIN');
  });

  it('over TCP: the same signed answers', async () => {
    const tcp = await tcpSession(server.port);
    tcp.send(query('www.example.com', 'A', { edns: 1232, dnssec: true }));
    tcp.send(query('nope.example.com', 'TXT', { edns: 1232, dnssec: true }));
    const [a, b] = [await tcp.next(), await tcp.next()];
    tcp.close();
    expect(checkSection(a.answers, keys)).toEqual([]);
    expect(a.answers.map((r) => r.type)).toEqual(['A', 'RRSIG']);
    expect(checkSection(b.authorities, keys)).toEqual([]);
  });

  it('a signed answer over the UDP size is truncated (TC, no records), and whole over TCP', async () => {
    const unsigned = await ask('txt.example.com', 'TXT', { edns: 512 });
    expect([unsigned.flag_tc, unsigned.answers.length, unsigned.size <= 512]).toEqual([false, 9, true]);
    const truncated = await ask('txt.example.com', 'TXT', { edns: 512, dnssec: true });
    expect([truncated.flag_tc, truncated.answers.length]).toEqual([true, 0]);
    const tcp = await tcpSession(server.port);
    tcp.send(query('txt.example.com', 'TXT', { edns: 512, dnssec: true }));
    const whole: Decoded = await tcp.next();
    tcp.close();
    expect(whole.answers.map((r) => r.type)).toEqual([...Array<string>(9).fill('TXT'), 'RRSIG']);
    expect(checkSection(whole.answers, keys)).toEqual([]);
    expect((await ask('txt.example.com', 'TXT', { edns: 1232, dnssec: true })).answers).toHaveLength(10);
  });

  it('the cache gives a signed answer again for five minutes of the clock, then signs anew', async () => {
    const first = await ask('www.example.com', 'A', { edns: 1232, dnssec: true });
    const hits = cache.hits;
    clock.advance(2 * 60_000);
    const again = await ask('www.example.com', 'A', { edns: 1232, dnssec: true });
    expect(cache.hits).toBe(hits + 1);
    expect(readRrsig(again.answers[1]!).signature).toEqual(readRrsig(first.answers[1]!).signature);
    clock.advance(5 * 60_000);
    const later = await ask('www.example.com', 'A', { edns: 1232, dnssec: true });
    expect(cache.hits).toBe(hits + 1);
    const sig = readRrsig(later.answers[1]!);
    expect(sig.inception).toBe(clock.now() / 1000 - 86400);
    expect(sig.signature).not.toEqual(readRrsig(first.answers[1]!).signature);
    expect(checkSection(later.answers, keys)).toEqual([]);
  });
});
