import { afterAll } from 'vitest';
import { startDnsServer } from '../../lib/node/index.js';
import { ask } from '../dns-resolve/ask.js';
import { dnsResolveConformance } from '../dns-resolve/index.js';

// The DNS double as clients meet it: `startDnsServer({ dnsPort })`, records written over its HTTP API
// and every question asked over real DNS on loopback (UDP, TCP when truncated), decoded as the real
// nameservers' answers are (conformance/dns-resolve/ask.ts). What the in-process target proves about
// resolution, this one proves survives the wire format, EDNS and truncation.
const TOKEN = 'conformance-token';
const server = await startDnsServer({
  zones: [{ name: 'example.com', plan: 'pro' }],
  credentials: [{ token: TOKEN }],
  dnsPort: 0,
});
afterAll(() => server.close());
const zone = server.api.zones[0]!;
const auth = { authorization: `Bearer ${TOKEN}` };
const shown = (await (await fetch(`${server.baseURL}/zones/${zone.id}`, { headers: auth })).json()).result as {
  name_servers: string[];
};

dnsResolveConformance({
  name: `dns-resolve-wire (udp+tcp 127.0.0.1:${server.dnsPort})`,
  fetch: (input, init) => fetch(input, init),
  baseUrl: server.baseURL,
  auth,
  zoneId: zone.id,
  zoneName: zone.name,
  nameServers: shown.name_servers,
  resolve: (name, type) => ask('127.0.0.1', name, type, server.dnsPort),
  paidPlan: true,
});
