/**
 * docs/dns-zone.md's example: what a validator reads is the record written, in
 * process (`api.resolve`) and over UDP (`startDnsServer({ dnsPort })` and Node's own resolver).
 */
import { Resolver } from 'node:dns/promises';
import { expect, it } from 'vitest';
import Cloudflare from 'cloudflare';
import { startDnsServer } from 'edge-doubles/node';

// README: dns-resolve
it('a TXT record written through the API is what DNS answers', async () => {
  const server = await startDnsServer({ port: 0, zones: [{ name: 'example.com' }], dnsPort: 0 });
  const cf = new Cloudflare({ apiToken: 'any-token', baseURL: server.baseURL });
  const zone_id = server.api.zone('example.com')!.id;
  await cf.dns.records.create({
    zone_id,
    type: 'TXT',
    name: '_acme-challenge.example.com',
    content: '"token-123"',
    ttl: 120,
  });

  // In process: the answer a resolver would get (rcode, answers with their TTLs, authority).
  const answer = await server.api.resolve('_acme-challenge.example.com', 'TXT');
  expect(answer).toMatchObject({ rcode: 'NOERROR', authoritative: true, answers: [{ ttl: 120, data: ['token-123'] }] });

  // Over the wire: any resolver pointed at the double's DNS port.
  const resolver = new Resolver();
  resolver.setServers([`127.0.0.1:${server.dnsPort}`]);
  expect(await resolver.resolveTxt('_acme-challenge.example.com')).toEqual([['token-123']]);
  await expect(resolver.resolveTxt('missing.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  await server.close();
});
// README: end
