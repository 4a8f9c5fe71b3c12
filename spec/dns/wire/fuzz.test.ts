/**
 * A seeded fuzz of the DNS server: random bytes, and valid queries with bytes flipped, cut or
 * added. In process (many messages through `respond`) every answer must be a message that decodes,
 * carries the query's id and is a response; over the sockets (UDP datagrams and one TCP stream) the
 * server must survive and then still answer a valid query. FUZZ_SEED picks another seed.
 */
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsAnswer, DnsQuestion } from '../../../lib/dns-answer.js';
import { DnsApi } from '../../../lib/dns.js';
import { respond } from '../../../lib/node/dns-message.js';
import { serveDns, type RunningDnsWire } from '../../../lib/node/dns-wire.js';
import { seeded } from '../../../lib/random.js';
import { query, tcpSession, udp, udpRaw } from './client.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20);

/** Answers every name in fuzz.test with one A record, TXT with 20 records (truncated over plain UDP). */
function answerer(q: DnsQuestion): DnsAnswer {
  if (!q.name.toLowerCase().endsWith('fuzz.test'))
    return { rcode: 'REFUSED', authoritative: false, answers: [], authorities: [], additionals: [] };
  const answers =
    q.type === 'TXT'
      ? Array.from({ length: 20 }, (_, i) => ({
          name: q.name,
          type: 'TXT',
          class: 'IN' as const,
          ttl: 60,
          data: [`fuzz value ${i} ${'z'.repeat(20)}`],
        }))
      : [{ name: q.name, type: 'A', class: 'IN' as const, ttl: 300, data: '192.0.2.1' }];
  return { rcode: 'NOERROR', authoritative: true, answers, authorities: [], additionals: [] };
}

const TYPES = ['A', 'AAAA', 'TXT', 'MX', 'NS', 'SOA', 'CNAME', 'ANY', 'CAA', 'SRV', 'AXFR', 'UNKNOWN_65'];

/** Fuzz inputs: random bytes, or a valid query (sometimes with EDNS) for one of `names` (default: made up), mutated. */
function inputs(seed: number, count: number, names?: readonly string[]): Buffer[] {
  const random = seeded(seed);
  const int = (n: number) => Math.floor(random() * n);
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    if (random() < 0.25) {
      out.push(Buffer.from(Array.from({ length: int(80) }, () => int(256))));
      continue;
    }
    const name = names
      ? names[int(names.length)]!
      : `${'abcdefghij'.slice(0, 1 + int(10))}.${random() < 0.8 ? 'fuzz.test' : 'elsewhere.example'}`;
    const base = Buffer.from(
      query(name, TYPES[int(TYPES.length)]!, { id: int(65536), ...(random() < 0.5 ? { edns: int(5000) } : {}) }),
    );
    const bytes = [...base];
    // Some queries go out intact (the model's answers to them must encode too), most with 1-4 edits.
    const edits = random() < 0.3 ? 0 : 1 + int(4);
    for (let e = 0; e < edits; e++) {
      const kind = int(4);
      const at = int(bytes.length);
      if (kind === 0) bytes[at] = int(256);
      else if (kind === 1) bytes.splice(at, 1 + int(6));
      else if (kind === 2) bytes.splice(at, 0, ...Array.from({ length: 1 + int(6) }, () => int(256)));
      else bytes.length = at; // cut
    }
    out.push(Buffer.from(bytes));
  }
  return out;
}

describe(`the DNS server under a fuzz (seed ${SEED})`, { timeout: 30_000 }, () => {
  it('in process: 10,000 inputs, each answered with a decodable response carrying its id, or dropped', async () => {
    let answered = 0;
    let dropped = 0;
    // Failures are collected and compared once: an expect() per message would cost more than the server.
    const wrong: string[] = [];
    for (const bytes of inputs(SEED, 10_000)) {
      for (const transport of ['udp', 'tcp'] as const) {
        const out = await respond(bytes, answerer, { transport });
        const hex = bytes.toString('hex');
        if (!out) {
          // Dropped only when there is no header, or the message is a response.
          if (bytes.length >= 12 && (bytes[2]! & 0x80) === 0) wrong.push(`${transport} dropped ${hex}`);
          dropped++;
          continue;
        }
        answered++;
        try {
          const decoded = packet.decode(out);
          if (decoded.id !== bytes.readUInt16BE(0) || decoded.type !== 'response')
            wrong.push(`${transport} id/QR wrong for ${hex}`);
          if (transport === 'udp' && out.length > 1232) wrong.push(`udp answer of ${out.length} bytes for ${hex}`);
        } catch (e) {
          wrong.push(`${transport} undecodable answer to ${hex}: ${String(e)}`);
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // The mix is meant to reach both paths: a fuzz that never answers (or never drops) tests little.
    expect(answered).toBeGreaterThan(5_000);
    expect(dropped).toBeGreaterThan(500);
  });

  it('in process with the model (DnsApi.answer): 5,000 inputs and no SERVFAIL, which would mean it threw or gave a record that cannot be encoded', async () => {
    const api = new DnsApi({ zones: [{ name: 'fuzz.test' }] });
    api.seed('fuzz.test', [
      { type: 'A', name: 'abc', content: '192.0.2.1', ttl: 300 },
      { type: 'TXT', name: 'abcd', content: '"one" "two"', ttl: 300 },
      { type: 'CNAME', name: 'abcde', content: 'abc.fuzz.test', ttl: 300 },
      { type: 'A', name: '*.abcdefg', content: '192.0.2.2', proxied: true },
      { type: 'NS', name: 'abcdefghij', content: 'ns.elsewhere.example', ttl: 300 },
      { type: 'MX', name: '@', content: 'abc.fuzz.test', priority: 5, ttl: 300 },
    ]);
    const failed: string[] = [];
    let withRecords = 0;
    const names = [
      'fuzz.test',
      'abc.fuzz.test',
      'ABCD.fuzz.test',
      'abcde.fuzz.test',
      'x.abcdefg.fuzz.test',
      'y.z.abcdefg.fuzz.test',
      'in.abcdefghij.fuzz.test',
      'nope.fuzz.test',
      'other.example',
    ];
    for (const bytes of inputs(SEED + 3, 5_000, names)) {
      await respond(bytes, (q) => api.answer(q), {
        transport: 'udp',
        onExchange: (e) => {
          if (e.rcode === 'SERVFAIL') failed.push(`${JSON.stringify(e.question)} from ${bytes.toString('hex')}`);
          if (e.answers > 0) withRecords++;
        },
      });
    }
    expect(failed.slice(0, 5)).toEqual([]);
    expect(withRecords).toBeGreaterThan(200); // the fuzz reached the zone's records, not only errors
  });

  describe('over the sockets', () => {
    let server: RunningDnsWire;
    beforeAll(async () => {
      server = await serveDns(answerer, { tcpIdleTimeoutMs: 2000 });
    });
    afterAll(() => server.close());

    it('survives 2,000 fuzzed UDP datagrams, then answers a valid query', async () => {
      const batch = inputs(SEED + 1, 2_000);
      // Sent 50 at a time without waiting for answers (most malformed ones get none).
      for (let i = 0; i < batch.length; i += 50)
        await Promise.all(batch.slice(i, i + 50).map((b) => udpRaw(server.port, b, 20)));
      const res = await udp(server.port, query('after.fuzz.test', 'A'));
      expect([res.rcode, res.answers!.map((a) => a.data)]).toEqual(['NOERROR', ['192.0.2.1']]);
    });

    it('survives fuzzed messages in TCP frames (each connection ends at a header it cannot read), then answers over TCP', async () => {
      const batch = inputs(SEED + 2, 300);
      for (let i = 0; i < batch.length; i += 30) {
        const session = await tcpSession(server.port);
        for (const bytes of batch.slice(i, i + 30)) session.send(bytes);
        // A frame of garbage length ends in the middle: the server must not wait forever either way.
        session.write(Buffer.from([0xff, 0xff, 1, 2, 3]));
        session.close();
      }
      const session = await tcpSession(server.port);
      session.send(query('after.fuzz.test', 'TXT'));
      const res = await session.next();
      expect([res.rcode, res.answers!.length, res.flag_tc]).toEqual(['NOERROR', 20, false]);
      session.close();
    });
  });
});
