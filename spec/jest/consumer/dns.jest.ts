// TypeScript through ts-jest, in Jest's default (CommonJS) mode.
// README: jest
import { expect, test } from '@jest/globals';
import { assertDnsRecord, Bucket, DnsApi } from 'edge-doubles';

test('a bucket and the DNS records API, in memory', async () => {
  const bucket = new Bucket();
  await bucket.put('notes/a.txt', 'hello');
  expect(await (await bucket.get('notes/a.txt'))!.text()).toBe('hello');

  const api = new DnsApi({ zones: [{ name: 'example.com' }] });
  const zoneId = api.zone('example.com')!.id;
  const created = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records`, {
    method: 'POST',
    headers: { Authorization: 'Bearer test-token', 'Content-Type': 'application/json' }, // any token: no credentials set
    body: JSON.stringify({ type: 'A', name: 'www.example.com', content: '198.51.100.4', ttl: 1 }),
  });
  expect(created.status).toBe(200);
  assertDnsRecord(api, 'example.com', { type: 'A', name: 'www', content: '198.51.100.4' }); // throws an AssertionError
});
// README: end

test('a request without a credential gets the API error in its envelope', async () => {
  const api = new DnsApi({ zones: [{ name: 'example.com' }] });
  const zoneId = api.zone('example.com')!.id;
  const response = await api.fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records`);
  const body = (await response.json()) as { success: boolean; errors: { code: number }[] };
  expect(response.status).toBe(400);
  expect(body.success).toBe(false);
  expect(body.errors.map((e) => e.code)).toEqual([9106]);
});
