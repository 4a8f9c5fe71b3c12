/**
 * Asking a DNS server one question as a propagation check does (RD clear, EDNS at 1232, TCP when
 * the UDP answer is truncated) and decoding the reply into the suite's `DnsAnswer` shape: the real
 * nameservers' target (port 53) and the double's own DNS server (`startDnsServer({ dnsPort })`).
 * dns-packet rather than node:dns's Resolver: the suite checks the response code, the AA flag, TTLs
 * and the authority section, which the Resolver does not show.
 */
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import * as packet from 'dns-packet';
import type { DnsAnswer, DnsRcode } from '../../lib/dns.js';

/** One question to `server` (port 53), RD clear as a propagation check sends it; TCP when the UDP answer is truncated. */
export async function ask(server: string, name: string, type: string, port = 53): Promise<DnsAnswer> {
  const query = packet.encode({
    type: 'query',
    id: Math.floor(Math.random() * 65536),
    flags: 0,
    questions: [{ name, type: type as packet.RecordType, class: 'IN' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as packet.Answer],
  });
  let reply = packet.decode(await overUdp(server, query, port));
  if (reply.flag_tc) reply = packet.decode(await overTcp(server, query, port));
  const section = (rrs: packet.Answer[] | undefined) =>
    (rrs ?? [])
      .filter((rr) => rr.type !== 'OPT')
      .map((rr) => ({
        name: rr.name,
        type: rr.type,
        class: 'IN' as const,
        ttl: (rr as { ttl?: number }).ttl ?? 0,
        data: (rr as { data?: unknown }).data,
      }));
  return {
    // dns-packet's decoder sets `rcode` (its types do not declare it).
    rcode: ((reply as { rcode?: string }).rcode ?? 'NOERROR') as DnsRcode,
    authoritative: Boolean(reply.flag_aa),
    answers: section(reply.answers),
    authorities: section(reply.authorities),
    additionals: section(reply.additionals),
  };
}

function overUdp(server: string, query: Buffer, port: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(server.includes(':') ? 'udp6' : 'udp4');
    const timer = setTimeout(() => (socket.close(), reject(new Error(`no DNS answer from ${server} in 5 s`))), 5000);
    socket.once('message', (msg) => (clearTimeout(timer), socket.close(), resolve(msg)));
    socket.once('error', (e) => (clearTimeout(timer), socket.close(), reject(e)));
    socket.send(query, port, server);
  });
}

function overTcp(server: string, query: Buffer, port: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, server);
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error(`no DNS answer over TCP from ${server} in 5 s`)));
    socket.on('connect', () => socket.write(packet.streamEncode(packet.decode(query))));
    socket.on('data', (d) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      if (all.length >= 2 && all.length >= 2 + all.readUInt16BE(0)) {
        socket.end();
        resolve(all.subarray(2, 2 + all.readUInt16BE(0)));
      }
    });
    socket.on('error', reject);
  });
}
