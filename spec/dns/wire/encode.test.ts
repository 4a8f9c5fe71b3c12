/**
 * The message itself, in process (`respond`, no socket): names compressed (issue 26, point 1), odd
 * labels echoed byte for byte and read as `\DDD` (point 3), an OPT whose options run past its data
 * FORMERR (point 4), and the cache of encoded answers (point 7): a hit carries the asker's id and
 * case, the answerer is not asked again, onExchange still sees it, and any change to the zones
 * empties it.
 */
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import type { DnsAnswer, DnsQuestion } from '../../../lib/dns-answer.js';
import { DnsApi } from '../../../lib/dns.js';
import { DnsAnswerCache } from '../../../lib/node/dns-answer-cache.js';
import { encodeResponse } from '../../../lib/node/dns-encode.js';
import { respond, type DnsExchange } from '../../../lib/node/dns-message.js';
import { nameLabels, readName } from '../../../lib/node/dns-names.js';
import { decode, query } from './client.js';

const sync = (out: ReturnType<typeof respond>): Buffer => {
  if (!out || out instanceof Promise) throw new Error('expected a synchronous response');
  return out;
};

function zone(): DnsApi {
  const api = new DnsApi({ zones: [{ name: 'example.com', plan: 'enterprise' }], credentials: [{ token: 't' }] });
  api.seed('example.com', [
    ...Array.from({ length: 55 }, (_, i) => ({ type: 'A', name: 'big', content: `10.0.0.${i + 1}`, ttl: 300 })),
    { type: 'A', name: '*.wild', content: '192.0.2.7', ttl: 300 },
    { type: 'CNAME', name: 'alias', content: 'big.example.com', ttl: 300 },
    { type: 'MX', name: 'example.com', content: 'mail.example.com', priority: 10, ttl: 300 },
  ]);
  return api;
}

describe('names on the wire', () => {
  it('55 A records fit 1232 bytes compressed (each owner a 2-byte pointer to the question), where uncompressed they would not', () => {
    const api = zone();
    const out = sync(
      respond(query('big.example.com', 'A', { edns: 1232 }), (q) => api.answer(q), { transport: 'udp' }),
    );
    const res = decode(out);
    // header + question (17 + 4) + 55 × (pointer 2 + type, class, TTL, length 10 + address 4) + OPT 11
    expect([res.flag_tc, res.answers!.length, out.length]).toEqual([false, 55, 12 + 21 + 55 * 16 + 11]);
    expect(res.answers!.every((a) => a.name === 'big.example.com')).toBe(true);
    // dns-packet writes each owner in full: the same answer is over the limit there.
    expect(
      packet.encode({ type: 'response', questions: res.questions, answers: res.answers as packet.Answer[] }).length,
    ).toBeGreaterThan(1232);
  });

  it('names inside CNAME, MX and SOA data are compressed too, and decode back to the same names', () => {
    const api = zone();
    for (const [name, type] of [
      ['alias.example.com', 'A'],
      ['example.com', 'MX'],
      ['example.com', 'SOA'],
    ] as const) {
      const out = sync(respond(query(name, type), (q) => api.answer(q), { transport: 'tcp' }));
      const plain = api.answer({ name, type });
      const res = decode(out);
      expect(res.answers!.map((a) => [a.name, a.type, a.data])).toEqual(
        plain.answers.map((a) => [a.name, a.type, a.data]),
      );
      expect(out.includes(Buffer.from('\x07example\x03com'))).toBe(true);
      expect(out.indexOf(Buffer.from('\x07example\x03com'))).toBe(out.lastIndexOf(Buffer.from('\x07example\x03com')));
    }
  });

  it('a label with a dot or bytes that are not UTF-8 is read as \\DDD, answered from the zone and echoed as sent', () => {
    const name = Buffer.concat([
      Buffer.from([3, 0x61, 0x2e, 0x62, 1, 0x80, 4]),
      Buffer.from('wild'),
      Buffer.from([7]),
      Buffer.from('example'),
      Buffer.from([3]),
      Buffer.from('com'),
      Buffer.of(0),
    ]);
    expect(readName(name, 0)).toEqual({ name: 'a\\046b.\\128.wild.example.com', end: name.length });
    expect(
      Buffer.concat(nameLabels('a\\046b.\\128.wild.example.com').map((l) => Buffer.concat([Buffer.of(l.length), l]))),
    ).toEqual(name.subarray(0, -1));
    expect(nameLabels('a\\.b.example.com.').map(String)).toEqual(['a.b', 'example', 'com']);
    const api = zone();
    const asked: DnsQuestion[] = [];
    const msg = Buffer.concat([Buffer.from([0, 7, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]), name, Buffer.from([0, 1, 0, 1])]);
    const out = sync(
      respond(
        msg,
        (q) => {
          asked.push(q);
          return api.answer(q);
        },
        { transport: 'udp' },
      ),
    );
    expect(asked[0]!.name).toBe('a\\046b.\\128.wild.example.com');
    expect(out.subarray(12, msg.length)).toEqual(msg.subarray(12));
    const res = decode(out);
    // Covered by *.wild: answered with the asked name as owner (a pointer to the question).
    expect([res.rcode, res.answers!.map((a) => a.data)]).toEqual(['NOERROR', ['192.0.2.7']]);
    expect(out.readUInt16BE(msg.length)).toBe(0xc00c);
  });

  it('an OPT record whose option runs past its data is FORMERR; one that fits is answered', () => {
    const api = zone();
    const withOption = (declared: number, actual: number) => {
      const base = Buffer.from(query('big.example.com', 'A'));
      base.writeUInt16BE(1, 10);
      const option = Buffer.concat([
        Buffer.from([0, 10]),
        Buffer.from([declared >> 8, declared & 255]),
        Buffer.alloc(actual),
      ]);
      const opt = Buffer.concat([
        Buffer.from([0, 0, 41, 4, 208, 0, 0, 0, 0]),
        Buffer.from([option.length >> 8, option.length & 255]),
        option,
      ]);
      return Buffer.concat([base, opt]);
    };
    const bad = decode(sync(respond(withOption(20, 8), (q) => api.answer(q), { transport: 'udp' })));
    expect([bad.rcode, bad.questions!.length]).toEqual(['FORMERR', 1]);
    const good = decode(sync(respond(withOption(8, 8), (q) => api.answer(q), { transport: 'udp' })));
    expect([good.rcode, good.answers!.length]).toEqual(['NOERROR', 55]);
  });

  it('a message that would pass 65,535 bytes is reported as too large, not cut', () => {
    const records = Array.from({ length: 300 }, (_, i) => ({
      name: `n${i}.example.com`,
      type: 'TXT',
      class: 'IN' as const,
      ttl: 1,
      data: ['x'.repeat(250)],
    }));
    expect(encodeResponse({ id: 1, flags: 0, answers: records })).toBeUndefined();
  });
});

describe('the cache of encoded answers', () => {
  it('a hit is the same answer for the asker (id, question case, owners that echo it) without asking the answerer; onExchange sees every query', () => {
    const api = zone();
    const cache = new DnsAnswerCache(() => api.answerState());
    let asked = 0;
    const answerer = (q: DnsQuestion): DnsAnswer | Promise<DnsAnswer> => {
      asked++;
      return api.answer(q);
    };
    const seen: DnsExchange[] = [];
    const options = { transport: 'udp' as const, cache, onExchange: (e: DnsExchange) => seen.push(e) };
    const first = sync(respond(query('x.wild.example.com', 'A', { id: 1 }), answerer, options));
    const second = sync(respond(query('X.Wild.EXAMPLE.com', 'A', { id: 2 }), answerer, options));
    expect(asked).toBe(1);
    const [a, b] = [decode(first), decode(second)];
    expect([b.id, b.questions![0]!.name, b.answers!.map((r) => r.name)]).toEqual([
      2,
      'X.Wild.EXAMPLE.com',
      ['X.Wild.EXAMPLE.com'],
    ]);
    expect({
      ...b,
      id: 1,
      questions: a.questions,
      answers: b.answers!.map((r) => ({ ...r, name: 'x.wild.example.com' })),
    }).toEqual(a);
    // Not the same when the bytes after the id differ: another type, EDNS, the other transport.
    sync(respond(query('x.wild.example.com', 'AAAA', { id: 3 }), answerer, options));
    sync(respond(query('x.wild.example.com', 'A', { id: 4, edns: 1232 }), answerer, options));
    sync(respond(query('x.wild.example.com', 'A', { id: 5 }), answerer, { ...options, transport: 'tcp' }));
    expect(asked).toBe(4);
    expect(seen.map((e) => e.question?.name)).toEqual([
      'x.wild.example.com',
      'X.Wild.EXAMPLE.com',
      'x.wild.example.com',
      'x.wild.example.com',
      'x.wild.example.com',
    ]);
  });

  it('any change to the zones (a record, a restore, a new zone) empties it', () => {
    const api = zone();
    const cache = new DnsAnswerCache(() => api.answerState());
    const ask = () =>
      decode(sync(respond(query('new.example.com', 'A'), (q) => api.answer(q), { transport: 'udp', cache })));
    const snap = api.snapshot();
    expect(ask().rcode).toBe('NXDOMAIN');
    api.seed('example.com', [{ type: 'A', name: 'new', content: '192.0.2.9', ttl: 60 }]);
    expect(ask().answers!.map((a) => a.data)).toEqual(['192.0.2.9']);
    api.restore(snap);
    expect(ask().rcode).toBe('NXDOMAIN');
    api.addZone({
      name: 'new.example.com',
      records: [{ type: 'A', name: 'new.example.com', content: '192.0.2.10', ttl: 60 }],
    });
    expect(ask().answers!.map((a) => a.data)).toEqual(['192.0.2.10']);
  });

  it("so does a change of the zone's flatten_all_cnames setting, which no record changes with", async () => {
    const api = zone();
    const cache = new DnsAnswerCache(() => api.answerState());
    const ask = () =>
      decode(
        sync(
          respond(query('alias.example.com', 'A', { edns: 4096 }), (q) => api.answer(q), { transport: 'udp', cache }),
        ),
      );
    expect(ask().answers![0]!.type).toBe('CNAME');
    const res = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${api.zones[0]!.id}/dns_settings`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ flatten_all_cnames: true }),
    });
    expect(res.status).toBe(200);
    expect(ask().answers!.map((a) => a.type)).toEqual(Array(55).fill('A'));
  });

  it('holds at most maxBytes of answers', () => {
    const api = zone();
    const cache = new DnsAnswerCache(() => api.answerState(), { maxBytes: 1500 });
    let asked = 0;
    const answerer = (q: DnsQuestion) => (asked++, api.answer(q));
    const big = () =>
      sync(respond(query('big.example.com', 'A', { edns: 1232 }), answerer, { transport: 'udp', cache }));
    big();
    big();
    expect(asked).toBe(1);
    sync(respond(query('alias.example.com', 'A', { edns: 1232 }), answerer, { transport: 'udp', cache })); // 924 + 950 > 1500: starts again
    big();
    expect(asked).toBe(3);
  });
});
