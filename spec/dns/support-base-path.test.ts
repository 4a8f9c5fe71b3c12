/**
 * Fault rules and request-log queries name paths relative to the DnsApi's base path, whatever it is:
 * under `basePath: ''` (a bare origin) or a custom one, `zones/*\/dns_records` still catches creates.
 */
import { describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns.js';

const AUTH = { authorization: 'Bearer t', 'content-type': 'application/json' };
const RECORD = JSON.stringify({ type: 'A', name: 'www', content: '198.51.100.7', ttl: 1 });

describe.each([
  ['a bare origin', '', 'http://127.0.0.1:4010'],
  ['a custom base path', '/api/cf', 'http://127.0.0.1:4010/api/cf'],
  ['the default base path', undefined, 'https://api.cloudflare.com/client/v4'],
])('under %s', (_label, basePath, base) => {
  const build = () => {
    const api = new DnsApi({
      zones: [{ name: 'example.com' }],
      log: true,
      ...(basePath === undefined ? {} : { basePath }),
    });
    return { api, url: `${base}/zones/${api.zones[0]!.id}/dns_records` };
  };

  it('a fault rule with a relative path catches the request, and nothing is stored', async () => {
    const { api, url } = build();
    api.faults.add({ method: 'POST', path: 'zones/*/dns_records', status: 503 });
    const res = await api.fetch(url, { method: 'POST', headers: AUTH, body: RECORD });
    expect(res.status).toBe(503);
    expect(api.records('example.com')).toEqual([]);
  });

  it('a log query with a relative path (leading slash or not) finds the request', async () => {
    const { api, url } = build();
    expect((await api.fetch(url, { method: 'POST', headers: AUTH, body: RECORD })).status).toBe(200);
    expect(api.log.filter({ path: 'zones/*/dns_records', method: 'POST' })).toHaveLength(1);
    expect(api.log.filter({ path: '/zones/*/dns_records', status: 200 })).toHaveLength(1);
    expect(api.log.filter({ path: 'zones/*' })).toHaveLength(0);
  });
});
