/**
 * The server side of bench/dns-wire.ts, in a process of its own (`tsx bench/dns-wire-server.ts
 * echo|double`; worker threads do not inherit tsx's loader) so that the load generator and the
 * server each have a core: a bare UDP echo server (the ceiling: Node's dgram with no work),
 * or the double's DNS server over a zone of ZONE_SIZE records (`double-signed`: with DNSSEC on).
 */
import { createSocket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../lib/clock.js';
import { DnsApi } from '../lib/dns.js';
import { DnsAnswerCache } from '../lib/node/dns-answer-cache.js';
import { serveDns } from '../lib/node/dns-wire.js';
import { apexLines } from '../spec/helpers/knot.js';

export const ZONE_SIZE = 1_000;

/** The zone the bench asks: host-<i> A records, and a TXT at every tenth name. */
export function benchZone(clock?: Clock): DnsApi {
  const api = new DnsApi({ zones: [{ name: 'bench.example', plan: 'enterprise' }], ...(clock ? { clock } : {}) });
  api.seed(
    'bench.example',
    Array.from({ length: ZONE_SIZE }, (_, i) =>
      i % 10 === 0
        ? { type: 'TXT', name: `host-${i - (i % 20)}`, content: `v=${i}`, ttl: 300 }
        : { type: 'A', name: `host-${i}`, content: `10.0.${i >> 8}.${i & 255}`, ttl: 300 },
    ),
  );
  return api;
}

/** Turns DNSSEC on for the bench zone through the API, as a user does: keys made, answers signed for DO questions. */
export async function signBenchZone(api: DnsApi): Promise<void> {
  const id = api.zone('bench.example')!.id;
  const res = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${id}/dnssec`, {
    method: 'PATCH',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'active' }),
  });
  if (res.status !== 200) throw new Error(`enabling DNSSEC answered ${res.status}`);
}

/** The same zone as a master file, for a real authoritative server (Knot) in the same bench. */
export function benchZoneFile(api: DnsApi): string {
  const lines = apexLines(api, 'bench.example');
  for (const r of api.records('bench.example'))
    lines.push(`${r.name}. ${r.ttl} IN ${r.type} ${r.type === 'TXT' ? JSON.stringify(r.content) : r.content}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Prints the port on a line of its own, then serves until stdin closes; then prints the messages it
 * answered and the CPU time it spent (user + system, µs) as JSON, so the bench can compare servers
 * by CPU per query, which a busy machine disturbs less than wall-clock throughput.
 */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kind = process.argv[2];
  let answered = 0;
  let counted = () => answered;
  let hits = () => 0;
  let close: () => Promise<unknown>;
  if (kind === 'echo') {
    const socket = createSocket('udp4');
    socket.on('message', (msg, peer) => {
      answered++;
      socket.send(msg, peer.port, peer.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    process.stdout.write(`${socket.address().port}\n`);
    close = () => new Promise((resolve) => socket.close(() => resolve(undefined)));
  } else {
    const api = benchZone();
    if (kind === 'double-signed') await signBenchZone(api);
    // As startDnsServer serves: answers encoded once are sent again until the zone changes. Every
    // bench query is a hit or a miss (no onExchange: a record per message is work startDnsServer
    // does only when asked to log).
    const cache = new DnsAnswerCache(() => api.answerState());
    const server = await serveDns((q) => api.answer(q), { cache });
    counted = () => cache.hits + cache.misses;
    hits = () => cache.hits;
    process.stdout.write(`${server.port}\n`);
    close = () => server.close();
  }
  const cpuAtStart = process.cpuUsage();
  process.stdin.resume();
  process.stdin.on('end', async () => {
    const cpu = process.cpuUsage(cpuAtStart);
    await close();
    process.stdout.write(
      `${JSON.stringify({ answered: counted(), hits: hits(), cpuMicros: cpu.user + cpu.system })}\n`,
    );
  });
}
