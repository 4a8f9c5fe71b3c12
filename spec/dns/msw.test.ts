import Cloudflare from 'cloudflare';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns.js';
import { BASE_URL, schemaErrors } from './support.js';

// README: msw-setup
const api = new DnsApi({ zones: [{ name: 'example.com' }], credentials: [{ token: 'test-token' }] });
const server = setupServer(http.all('https://api.cloudflare.com/client/v4/*', ({ request }) => api.handle(request)));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
// README: end

const zoneId = api.zone('example.com')!.id;

describe('msw forwarding to api.handle', () => {
  it('plain fetch creates and lists through the msw handler; bodies match the schema', async () => {
    // README: msw-use
    const res = await fetch(`https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'TXT', name: '_acme-challenge', content: 'token-value', ttl: 60 }),
    });
    const { result } = await res.json();
    expect(result.name).toBe('_acme-challenge.example.com');
    // README: end
    expect(res.status).toBe(200);

    const list = await fetch(
      `https://api.cloudflare.com/client/v4/zones/${zoneId}/dns_records?type=TXT&name=_acme-challenge.example.com`,
      {
        headers: { authorization: 'Bearer test-token' },
      },
    );
    const body = await list.json();
    expect(schemaErrors('dns-records_dns_response_collection', body)).toEqual([]);
    expect(body.result.map((r: { id: string }) => r.id)).toEqual([result.id]);
  });

  it('the SDK with its default fetch is intercepted too, errors included', async () => {
    const client = new Cloudflare({
      apiToken: 'test-token',
      apiEmail: null,
      apiKey: null,
      baseURL: BASE_URL,
      maxRetries: 0,
    });
    const rec = await client.dns.records.create({
      zone_id: zoneId,
      type: 'A',
      name: 'msw',
      content: '198.51.100.7',
      ttl: 1,
    });
    expect(rec.name).toBe('msw.example.com');
    await expect(
      client.dns.records.create({ zone_id: zoneId, type: 'A', name: 'msw', content: '198.51.100.7', ttl: 1 }),
    ).rejects.toMatchObject({
      status: 400,
      errors: [{ code: 81058, message: 'An identical record already exists.' }],
    });
  });

  it('an unknown route through msw still answers in the envelope', async () => {
    const res = await fetch('https://api.cloudflare.com/client/v4/nothing/here', {
      headers: { authorization: 'Bearer test-token' },
    });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(schemaErrors('dns-records_api-response-common-failure', body)).toEqual([]);
    expect(body.errors[0].code).toBe(7003);
  });
});
