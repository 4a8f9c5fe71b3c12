import Cloudflare from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns.js';

// docs/dns-api.md's SDK set-up, exactly as written there (spec/docs.test.ts checks the copy).
describe('the README set-ups work as written', () => {
  it('the SDK set-up', async () => {
    // README: sdk-setup
    const api = new DnsApi({
      zones: [{ name: 'example.com' }],
      credentials: [{ email: 'dev@example.com', key: '0123456789abcdef0123456789abcdef01234' }],
    });
    const client = new Cloudflare({
      apiEmail: 'dev@example.com',
      apiKey: '0123456789abcdef0123456789abcdef01234',
      apiToken: null, // or the SDK reads CLOUDFLARE_API_TOKEN from the environment
      baseURL: 'https://api.cloudflare.com/client/v4', // any origin, then basePath (default /client/v4)
      fetch: api.fetch,
      maxRetries: 0,
    });
    const zoneId = api.zone('example.com')!.id;

    const record = await client.dns.records.create({
      zone_id: zoneId,
      type: 'A',
      name: 'www',
      content: '198.51.100.4',
      ttl: 3600,
    });
    // record.name === 'www.example.com'
    // README: end
    expect(record).toMatchObject({ name: 'www.example.com', content: '198.51.100.4', ttl: 3600 });
    await expect(
      client.dns.records.create({ zone_id: zoneId, type: 'A', name: 'www', content: '198.51.100.4', ttl: 1 }),
    ).rejects.toMatchObject({
      status: 400,
      errors: [{ code: 81058 }],
    });
  });
});
