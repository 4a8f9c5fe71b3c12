/**
 * serveDns, the double's DNS server, against an answerer written here (the model is tested on its
 * own): what goes on the wire around an answer. The header (id, question echoed as asked, AA from the
 * answer, RA never, RD copied, the rcode), EDNS(0), the UDP limits and TC, TCP framing, and the
 * messages it refuses.
 */
import { Resolver } from 'node:dns/promises';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsAnswer, DnsQuestion, DnsResourceRecord } from '../../../lib/dns-answer.js';
import { serveDns, type RunningDnsWire } from '../../../lib/node/dns-wire.js';
import type { DnsExchange } from '../../../lib/node/dns-message.js';
import { decode, query, tcpSession, udp, udpRaw } from './client.js';

const rr = (name: string, type: string, data: unknown, ttl = 300): DnsResourceRecord => ({
  name,
  type,
  class: 'IN',
  ttl,
  data,
});

/** `n` TXT records of 40 bytes each at `name`: about 52 bytes a record on the wire. */
const manyTxt = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => rr(name, 'TXT', [`value-${String(i).padStart(3, '0')}-${'x'.repeat(30)}`], 60));

/**
 * A zone `wire.test` in a few lines: `big-<n>` holds n TXT records, `fail` throws, `long` breaks
 * the 255-byte rule, everything else under the zone is NXDOMAIN, everything outside REFUSED.
 */
function answerer(q: DnsQuestion): DnsAnswer {
  const name = q.name.toLowerCase();
  const soa = rr(
    'wire.test',
    'SOA',
    {
      mname: 'ns1.wire.test',
      rname: 'dns.wire.test',
      serial: 7,
      refresh: 10000,
      retry: 2400,
      expire: 604800,
      minimum: 1800,
    },
    3600,
  );
  const base = { authoritative: true, authorities: [], additionals: [] };
  if (!name.endsWith('wire.test'))
    return { rcode: 'REFUSED', authoritative: false, answers: [], authorities: [], additionals: [] };
  if (name === 'fail.wire.test') throw new Error('model failure');
  if (name === 'long.wire.test') return { ...base, rcode: 'NOERROR', answers: [rr(q.name, 'TXT', ['y'.repeat(300)])] };
  const big = /^big-(\d+)\.wire\.test$/.exec(name);
  if (big && q.type === 'TXT') return { ...base, rcode: 'NOERROR', answers: manyTxt(q.name, Number(big[1])) };
  if (name === 'www.wire.test' && q.type === 'A')
    return { ...base, rcode: 'NOERROR', answers: [rr(q.name, 'A', '192.0.2.10'), rr(q.name, 'A', '192.0.2.11')] };
  if (name === 'www.wire.test') return { ...base, rcode: 'NOERROR', answers: [], authorities: [soa] };
  return { ...base, rcode: 'NXDOMAIN', answers: [], authorities: [soa] };
}

describe('serveDns: the header and the sections around an answer', () => {
  let server: RunningDnsWire;
  const seen: DnsExchange[] = [];
  beforeAll(async () => {
    server = await serveDns(answerer, { tcpIdleTimeoutMs: 300, onExchange: (e) => seen.push(e) });
  });
  afterAll(() => server.close());

  it('listens on loopback, UDP and TCP on one port number', async () => {
    expect(server.host).toBe('127.0.0.1');
    expect((await udp(server.port, query('www.wire.test', 'A'))).answers).toHaveLength(2);
    const session = await tcpSession(server.port);
    session.send(query('www.wire.test', 'A'));
    expect((await session.next()).answers).toHaveLength(2);
    session.close();
  });

  it('echoes the id and the question as asked (case kept), sets AA from the answer, copies RD, never sets RA', async () => {
    const res = await udp(server.port, query('WwW.Wire.TEST', 'A', { id: 0xbeef }));
    expect(res.id).toBe(0xbeef);
    expect(res.type).toBe('response');
    expect(res.questions).toEqual([{ name: 'WwW.Wire.TEST', type: 'A', class: 'IN' }]);
    expect(res.answers!.map((a) => [a.name, a.type, a.ttl, a.data])).toEqual([
      ['WwW.Wire.TEST', 'A', 300, '192.0.2.10'],
      ['WwW.Wire.TEST', 'A', 300, '192.0.2.11'],
    ]);
    expect([res.flag_aa, res.flag_rd, res.flag_ra, res.rcode]).toEqual([true, true, false, 'NOERROR']);
    const norec = await udp(server.port, query('www.wire.test', 'A', { rd: false }));
    expect([norec.flag_rd, norec.flag_ra]).toEqual([false, false]);
  });

  it('gives the rcode and sections of the answer: NODATA and NXDOMAIN with the SOA in authority, REFUSED without AA', async () => {
    const nodata = await udp(server.port, query('www.wire.test', 'MX'));
    expect([nodata.rcode, nodata.answers, nodata.authorities!.map((a) => a.type)]).toEqual(['NOERROR', [], ['SOA']]);
    const nx = await udp(server.port, query('nope.wire.test', 'A'));
    expect([nx.rcode, nx.flag_aa, nx.authorities!.map((a) => a.ttl)]).toEqual(['NXDOMAIN', true, [3600]]);
    const refused = await udp(server.port, query('example.org', 'A'));
    expect([refused.rcode, refused.flag_aa, refused.questions![0]!.name]).toEqual(['REFUSED', false, 'example.org']);
  });

  it('a model that throws, or a TXT string over 255 bytes, is SERVFAIL with the question, never a corrupt message', async () => {
    for (const name of ['fail.wire.test', 'long.wire.test']) {
      const res = await udp(server.port, query(name, 'TXT'));
      expect([res.rcode, res.answers, res.questions![0]!.name]).toEqual(['SERVFAIL', [], name]);
    }
  });

  it('EDNS(0): an OPT record in, an OPT record advertising 1232 out, DO copied; none without EDNS', async () => {
    const edns = await udp(server.port, query('www.wire.test', 'A', { edns: 4096 }));
    const opt = edns.additionals.find((a) => a.type === 'OPT')!;
    expect([opt.udpPayloadSize, opt.ednsVersion, opt.flag_do]).toEqual([1232, 0, false]);
    const doQuery = packet.encode({
      id: 1,
      type: 'query',
      questions: [{ name: 'www.wire.test', type: 'A' }],
      additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: packet.DNSSEC_OK } as packet.OptAnswer],
    });
    expect((await udp(server.port, doQuery)).additionals[0]!.flag_do).toBe(true);
    expect((await udp(server.port, query('www.wire.test', 'A'))).additionals).toEqual([]);
  });

  it('an EDNS version above 0 gets BADVERS (extended rcode 16) with an OPT of version 0', async () => {
    const bytes = packet.encode({
      id: 9,
      type: 'query',
      questions: [{ name: 'www.wire.test', type: 'A' }],
      additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, ednsVersion: 1 } as packet.OptAnswer],
    });
    const res = await udp(server.port, bytes);
    const opt = res.additionals[0]!;
    expect([res.rcode, opt.extendedRcode, opt.ednsVersion, res.answers]).toEqual(['NOERROR', 1, 0, []]);
  });

  it('UDP limits: 512 bytes without EDNS, min(asked, 1232) with it (512 at least); a larger answer is TC with empty sections', async () => {
    // 12 records (~660 bytes): over 512, under 1232.
    const plain = await udp(server.port, query('big-12.wire.test', 'TXT'));
    expect([plain.flag_tc, plain.answers, plain.size <= 512, plain.questions![0]!.name]).toEqual([
      true,
      [],
      true,
      'big-12.wire.test',
    ]);
    const edns = await udp(server.port, query('big-12.wire.test', 'TXT', { edns: 4096 }));
    expect([edns.flag_tc, edns.answers!.length]).toEqual([false, 12]);
    const small = await udp(server.port, query('big-12.wire.test', 'TXT', { edns: 600 }));
    expect([small.flag_tc, small.answers!.length, small.additionals!.map((a) => a.type)]).toEqual([true, 0, ['OPT']]);
    const tiny = await udp(server.port, query('big-6.wire.test', 'TXT', { edns: 100 }));
    expect([tiny.flag_tc, tiny.answers!.length, tiny.size > 100]).toEqual([false, 6, true]);
    // 30 records (~1600 bytes): over 1232 whatever the client asks.
    const huge = await udp(server.port, query('big-30.wire.test', 'TXT', { edns: 65000 }));
    expect([huge.flag_tc, huge.answers!.length, huge.size <= 1232]).toEqual([true, 0, true]);
    expect(seen.filter((e) => e.question?.name === 'big-30.wire.test').at(-1)).toMatchObject({
      truncated: true,
      answers: 30,
    });
  });

  it('TCP: the whole answer, several queries on one connection (pipelined, or split byte by byte), in order', async () => {
    const session = await tcpSession(server.port);
    session.send(query('big-30.wire.test', 'TXT', { id: 1 }));
    session.send(query('nope.wire.test', 'A', { id: 2 }));
    session.send(query('www.wire.test', 'A', { id: 3 }));
    const answers = [await session.next(), await session.next(), await session.next()];
    expect(answers.map((a) => [a.id, a.rcode, a.answers!.length, a.flag_tc])).toEqual([
      [1, 'NOERROR', 30, false],
      [2, 'NXDOMAIN', 0, false],
      [3, 'NOERROR', 2, false],
    ]);
    const framed = packet.streamEncode({ id: 4, type: 'query', questions: [{ name: 'www.wire.test', type: 'A' }] });
    for (const byte of framed) session.write(Buffer.of(byte));
    expect((await session.next()).id).toBe(4);
    session.close();
  });

  it('TCP: an answer over 65535 bytes (what the length prefix can say) is sent with TC and no records, not cut', async () => {
    const session = await tcpSession(server.port);
    session.send(query('big-1300.wire.test', 'TXT', { id: 77 }));
    const res = await session.next();
    expect([res.id, res.flag_tc, res.answers.length, res.rcode]).toEqual([77, true, 0, 'NOERROR']);
    expect(seen.filter((e) => e.question?.name === 'big-1300.wire.test').at(-1)).toMatchObject({
      transport: 'tcp',
      truncated: true,
    });
    session.close();
  });

  it('TCP: an idle connection is closed by the server', async () => {
    const session = await tcpSession(server.port);
    session.send(query('www.wire.test', 'A'));
    await session.next();
    const started = Date.now();
    await session.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('refuses what is not one QUERY: NOTIMP for other opcodes, FORMERR for zero or two questions or two OPTs, REFUSED for AXFR', async () => {
    const notify = packet.encode({
      id: 5,
      type: 'query',
      opcode: 'NOTIFY',
      flags: 4 << 11,
      questions: [{ name: 'wire.test', type: 'SOA' }],
    } as packet.Packet);
    const res = await udp(server.port, notify);
    expect([res.id, res.rcode, res.opcode, res.questions!.length]).toEqual([5, 'NOTIMP', 'NOTIFY', 1]);
    const none = await udp(server.port, packet.encode({ id: 6, type: 'query', questions: [] }));
    expect([none.id, none.rcode]).toEqual([6, 'FORMERR']);
    const two = packet.encode({
      id: 7,
      type: 'query',
      questions: [
        { name: 'www.wire.test', type: 'A' },
        { name: 'www.wire.test', type: 'AAAA' },
      ],
    });
    const twoRes = await udp(server.port, two);
    expect([twoRes.rcode, twoRes.questions, twoRes.answers]).toEqual(['FORMERR', [], []]);
    const opt = { type: 'OPT', name: '.', udpPayloadSize: 1232 } as packet.OptAnswer;
    const twoOpt = packet.encode({
      id: 8,
      type: 'query',
      questions: [{ name: 'www.wire.test', type: 'A' }],
      additionals: [opt, opt],
    });
    expect((await udp(server.port, twoOpt)).rcode).toBe('FORMERR');
    const session = await tcpSession(server.port);
    session.send(query('wire.test', 'AXFR'));
    const axfr = await session.next();
    expect([axfr.rcode, axfr.answers, axfr.questions![0]!.type]).toEqual(['REFUSED', [], 'AXFR']);
    session.close();
  });

  it('malformed: FORMERR with the id when the header can be read; nothing for a short message or a response; the server goes on', async () => {
    const header = Buffer.from([0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
    const truncatedQuestion = Buffer.concat([header, Buffer.from([5, 0x61, 0x62])]);
    const res = await udp(server.port, truncatedQuestion);
    expect([res.id, res.rcode, res.type, res.flag_rd]).toEqual([0x1234, 'FORMERR', 'response', true]);
    expect(await udpRaw(server.port, Buffer.from([1, 2, 3]), 300)).toBeUndefined();
    const asResponse = Buffer.from(query('www.wire.test', 'A'));
    asResponse[2]! |= 0x80;
    expect(await udpRaw(server.port, asResponse, 300)).toBeUndefined();
    // A label of bytes that are not UTF-8: answered from the zone (the model reads it as `\255\254`),
    // the question echoed byte for byte (issue 26, point 3).
    const binary = Buffer.concat([
      header,
      Buffer.from([2, 0xff, 0xfe, 4]),
      Buffer.from('wire'),
      Buffer.from([4]),
      Buffer.from('test'),
      Buffer.from([0, 0, 1, 0, 1]),
    ]);
    const raw = (await udpRaw(server.port, binary, 1000))!;
    expect(raw.subarray(12, binary.length)).toEqual(binary.subarray(12));
    expect(decode(raw).rcode).toBe('NXDOMAIN');
    // Over TCP a message too short for a header ends the connection; a readable one is FORMERR and the connection stays.
    const session = await tcpSession(server.port);
    session.send(truncatedQuestion);
    expect((await session.next()).rcode).toBe('FORMERR');
    session.send(query('www.wire.test', 'A'));
    expect((await session.next()).rcode).toBe('NOERROR');
    session.send(Buffer.from([1, 2]));
    await session.closed;
    expect((await udp(server.port, query('www.wire.test', 'A'))).answers).toHaveLength(2);
  });

  it("Node's own resolver reads it over UDP, and falls back to TCP for an answer over 1232 bytes", async () => {
    const resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([`127.0.0.1:${server.port}`]);
    expect(
      (await resolver.resolve4('www.wire.test', { ttl: true })).sort((a, b) => a.address.localeCompare(b.address)),
    ).toEqual([
      { address: '192.0.2.10', ttl: 300 },
      { address: '192.0.2.11', ttl: 300 },
    ]);
    const before = seen.length;
    const txt = await resolver.resolveTxt('big-30.wire.test');
    expect(txt).toHaveLength(30);
    const exchanges = seen.slice(before).filter((e) => e.question?.name === 'big-30.wire.test');
    expect(exchanges.map((e) => [e.transport, e.truncated])).toEqual([
      ['udp', true],
      ['tcp', false],
    ]);
    await expect(resolver.resolve4('nope.wire.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('close() stops UDP and TCP', async () => {
    const other = await serveDns(answerer);
    await other.close();
    expect(await udpRaw(other.port, query('www.wire.test', 'A'), 300)).toBeUndefined();
    await expect(
      new Promise((resolve, reject) => {
        const socket = connect(other.port, '127.0.0.1', () => resolve(socket.destroy()));
        socket.once('error', reject);
      }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

/** Whether this machine has an IPv6 loopback to bind (some containers have none). */
const ipv6 = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

(ipv6 ? describe : describe.skip)(
  `serveDns on ::1${ipv6 ? '' : ' (skipped: this machine cannot bind the IPv6 loopback)'}`,
  () => {
    it('answers over UDP6 and TCP on one port', async () => {
      const server = await serveDns(answerer, { host: '::1' });
      try {
        expect(server.host).toBe('::1');
        const answer = await new Promise<Buffer>((resolve, reject) => {
          const socket = createSocket('udp6');
          socket.once('message', (m) => (socket.close(), resolve(m)));
          socket.once('error', reject);
          socket.send(query('www.wire.test', 'A'), server.port, '::1');
        });
        expect(decode(answer).answers).toHaveLength(2);
        const tcp = connect(server.port, '::1');
        await once(tcp, 'connect');
        tcp.destroy();
      } finally {
        await server.close();
      }
    });
  },
);
