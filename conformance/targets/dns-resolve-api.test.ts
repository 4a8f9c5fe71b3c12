import { lookup } from 'node:dns/promises';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import * as packet from 'dns-packet';
import { it } from 'vitest';
import type { DnsAnswer, DnsRcode } from '../../lib/dns/index.js';
import { dnsResolveConformance, type DnsResolveDifferenceId } from '../dns-resolve/index.js';

// Cloudflare's real authoritative DNS for a real zone, when credentials are in the environment (the
// same variables as conformance/targets/dns-api.test.ts). The suite writes records through the API
// under a random subdomain, asks the zone's own nameservers over UDP (TCP when truncated), and
// deletes the records after each test. Questions go out with dns-packet rather than node:dns's
// Resolver: the suite checks the response code, the AA flag, TTLs and the authority section, which
// the Resolver does not show.
const env = process.env;
const token = env.CLOUDFLARE_API_TOKEN;
const zoneId = env.CLOUDFLARE_ZONE_ID;
const zoneName = env.CLOUDFLARE_ZONE_NAME;

/** One question to `server` (port 53), RD clear as a propagation check sends it; TCP when the UDP answer is truncated. */
async function ask(server: string, name: string, type: string, port = 53): Promise<DnsAnswer> {
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
    (rrs ?? []).filter((rr) => rr.type !== 'OPT').map((rr) => ({ name: rr.name, type: rr.type, class: 'IN' as const, ttl: (rr as { ttl?: number }).ttl ?? 0, data: (rr as { data?: unknown }).data }));
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

if (token && zoneId && zoneName) {
  const baseUrl = env.CLOUDFLARE_BASE_URL ?? 'https://api.cloudflare.com/client/v4';
  const auth = { authorization: `Bearer ${token}` };
  const zone = (await (await fetch(`${baseUrl}/zones/${zoneId}`, { headers: auth })).json()).result as { name_servers: string[]; plan?: { legacy_id?: string } };
  const server = (await lookup(zone.name_servers[0]!, { family: 4 })).address;
  const differences: DnsResolveDifferenceId[] = env.CLOUDFLARE_ZONE_DNSSEC === 'true' ? ['dnssec-compact-denial'] : [];
  dnsResolveConformance({
    name: `dns resolution (${zone.name_servers[0]})`,
    fetch: (input, init) => fetch(input, init),
    baseUrl,
    auth,
    zoneId,
    zoneName,
    nameServers: zone.name_servers,
    resolve: (name, type) => ask(server, name, type),
    paidPlan: zone.plan?.legacy_id !== undefined && zone.plan.legacy_id !== 'free',
    propagationMs: 30_000,
    differences,
    timeout: 120_000,
  });
} else {
  const missing = ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ZONE_ID', 'CLOUDFLARE_ZONE_NAME'].filter((k) => !env[k]);
  it.skip(`dns resolution conformance on Cloudflare's nameservers: skipped, because ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set`, () => {});
}
