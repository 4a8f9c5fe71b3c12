/**
 * DnsApi and CloudflareApi are two assemblies of the one front door (lib/api/front-door.ts) over an
 * account, neither extending the other (issue 24); what a user had of one being "a DnsApi" stays
 * where it was relied on: a CloudflareApi is typed as a DnsApi wherever one is asked for (the DNS
 * server, the matchers), and answers the same DNS routes and test support.
 */
import { describe, expect, it } from 'vitest';
import { CloudflareApi, DnsApi } from '../../lib/index.js';
import { startDnsApiServer } from '../../lib/node/index.js';
import { FrontDoor } from '../../lib/api/front-door.js';

describe('the /client/v4 assemblies', () => {
  it('are both front doors, and neither is the other', () => {
    const dns = new DnsApi();
    const cf = new CloudflareApi();
    expect(dns).toBeInstanceOf(FrontDoor);
    expect(cf).toBeInstanceOf(FrontDoor);
    expect(cf instanceof DnsApi).toBe(false);
    expect(dns instanceof CloudflareApi).toBe(false);
  });

  it('a CloudflareApi goes where a DnsApi is typed: the DNS API server serves it', async () => {
    const api: DnsApi = new CloudflareApi({ zones: [{ name: 'example.com' }], buckets: ['photos'] });
    const server = await startDnsApiServer({ port: 0, api });
    try {
      const zones = await fetch(`${server.baseURL}/zones`, { headers: { authorization: 'Bearer t' } });
      expect((await zones.json()).result.map((z: { name: string }) => z.name)).toEqual(['example.com']);
      // The same server answers the account's R2 routes: it is the CloudflareApi's front door.
      const buckets = await fetch(`${server.baseURL}/accounts/${api.account.id}/r2/buckets`, {
        headers: { authorization: 'Bearer t' },
      });
      expect((await buckets.json()).result.buckets.map((b: { name: string }) => b.name)).toEqual(['photos']);
    } finally {
      await server.close();
    }
  });
});
