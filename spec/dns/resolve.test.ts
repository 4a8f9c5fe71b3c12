import { describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns/index.js';

describe('api.resolve: basics', () => {
  it('answers a TXT record created through the API, with its TTL, authoritatively', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com' }] });
    api.seed('example.com', [{ type: 'TXT', name: '_acme-challenge', content: 'token-1', ttl: 120 }]);
    const a = await api.resolve('_acme-challenge.example.com', 'TXT');
    expect(a).toEqual({
      rcode: 'NOERROR',
      authoritative: true,
      answers: [{ name: '_acme-challenge.example.com', type: 'TXT', class: 'IN', ttl: 120, data: ['token-1'] }],
      authorities: [],
      additionals: [],
    });
  });
});
