/** A tiny JSON client over `api.fetch` for the spec files that speak HTTP directly. */
import { DnsApi, type DnsApiOptions } from '../../lib/dns.js';
import { BASE_URL } from './support.js';

export const TOKEN = 'spec-token';

export function setup(
  options: DnsApiOptions = {},
  zone: { name?: string; plan?: 'free' | 'pro' | 'business' | 'enterprise' } = {},
) {
  const api = new DnsApi({
    zones: [{ name: zone.name ?? 'example.com', plan: zone.plan ?? 'pro' }],
    credentials: [{ token: TOKEN }],
    ...options,
  });
  const zoneId = api.zones[0]!.id;
  const url = (path = '') => `${BASE_URL}/zones/${zoneId}/dns_records${path}`;
  const call = async (method: string, path = '', json?: unknown, headers: Record<string, string> = {}) => {
    const res = await api.fetch(url(path), {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(json !== undefined ? { body: typeof json === 'string' ? json : JSON.stringify(json) } : {}),
    });
    const text = await res.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the tests
    const body: any = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text;
    return { status: res.status, body, text };
  };
  const create = (record: Record<string, unknown>) => call('POST', '', record);
  return { api, zoneId, url, call, create };
}
