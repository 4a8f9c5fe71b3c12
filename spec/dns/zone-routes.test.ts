/**
 * Zone routes tools read around records: a zone's page rules (octodns-cloudflare reads them by
 * default and stops on any non-2xx) and the zones list's paging bounds.
 */
import { describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns.js';
import { BASE_URL } from './support.js';

const KEY = 'abcdef0123456789abcdef0123456789abcde';

function twoZones() {
  const api = new DnsApi({
    zones: [{ name: 'alpha.example' }, { name: 'beta.example' }],
    credentials: [
      { token: 'all' },
      { token: 'alpha-only', zones: ['alpha.example'] },
      { email: 'me@example.com', key: KEY, zones: ['alpha.example'] },
    ],
  });
  const [alpha, beta] = api.zones as unknown as [{ id: string }, { id: string }];
  const get = async (path: string, headers: Record<string, string> = { authorization: 'Bearer all' }) => {
    const res = await api.fetch(`${BASE_URL}${path}`, { headers });
    return { status: res.status, body: await res.json() };
  };
  return { api, alpha, beta, get };
}

describe('GET /zones/{id}/pagerules', () => {
  it('answers a zone without page rules: success, result [], no result_info, whatever the query', async () => {
    const { alpha, get } = twoZones();
    for (const q of ['', '?status=active', '?status=disabled&order=priority&direction=asc&match=all', '/']) {
      const r = await get(`/zones/${alpha.id}/pagerules${q}`);
      expect(r, q).toEqual({ status: 200, body: { result: [], success: true, errors: [], messages: [] } });
    }
  });

  it('needs credentials and a zone the caller may see, as every zone route', async () => {
    const { alpha, beta, get } = twoZones();
    expect((await get(`/zones/${alpha.id}/pagerules`, {})).body.errors[0].code).toBe(9106);
    // A token not scoped to the zone: 403 10000; a global key without it: the route error.
    expect(await get(`/zones/${beta.id}/pagerules`, { authorization: 'Bearer alpha-only' })).toMatchObject({
      status: 403,
      body: { success: false, errors: [{ code: 10000, message: 'Authentication error' }] },
    });
    const asKey = await get(`/zones/${beta.id}/pagerules`, { 'x-auth-email': 'me@example.com', 'x-auth-key': KEY });
    expect(asKey.status).toBe(404);
    expect(asKey.body.errors[0].code).toBe(7003);
    // A well-formed id no zone has answers as /zones/{id} does.
    const unknown = 'f'.repeat(32);
    const [rules, zone] = [await get(`/zones/${unknown}/pagerules`), await get(`/zones/${unknown}`)];
    expect(rules.status).toBe(zone.status);
    expect(rules.body.errors[0].code).toBe(zone.body.errors[0].code);
  });

  it('is read-only here: other methods are 405, a page rule id is not a route', async () => {
    const { api, alpha } = twoZones();
    const post = await api.fetch(`${BASE_URL}/zones/${alpha.id}/pagerules`, {
      method: 'POST',
      headers: { authorization: 'Bearer all' },
      body: '{}',
    });
    expect(post.status).toBe(405);
    const one = await api.fetch(`${BASE_URL}/zones/${alpha.id}/pagerules/${'a'.repeat(32)}`, {
      headers: { authorization: 'Bearer all' },
    });
    expect(one.status).toBe(404);
  });
});

describe('GET /zones paging', () => {
  it("per_page takes the API's documented minimum of 5 below it (certbot asks for 1); default 20", async () => {
    const { api, get } = twoZones();
    for (let i = 0; i < 6; i++) api.addZone({ name: `z${i}.example` });
    expect((await get('/zones?per_page=0')).status).toBe(400);
    expect((await get('/zones?per_page=-3')).status).toBe(400);
    const list = async (q: string) => {
      const res = await api.fetch(`${BASE_URL}/zones${q}`, { headers: { authorization: 'Bearer all' } });
      expect(res.status, q).toBe(200);
      return (await res.json()) as { result: unknown[]; result_info: { per_page: number; total_pages: number } };
    };
    for (const [q, perPage] of [
      ['?per_page=1', 5],
      ['?per_page=4', 5],
      ['', 20],
      ['?per_page=5', 5],
      ['?per_page=50', 50],
    ] as const) {
      const body = await list(q);
      expect(body.result_info.per_page, q).toBe(perPage);
      expect(body.result, q).toHaveLength(Math.min(perPage, 8));
      expect(body.result_info.total_pages, q).toBe(Math.ceil(8 / perPage));
    }
  });

  it("per_page above 50 answers 200 and echoes the size asked (dns-lexicon's 2025-08 recording of ?page=1&per_page=100)", async () => {
    const { api, get } = twoZones();
    for (let i = 0; i < 60; i++) api.addZone({ name: `n${String(i).padStart(2, '0')}.example` });
    const r = await get('/zones?page=1&per_page=100');
    expect(r.status).toBe(200);
    expect(r.body.result).toHaveLength(62);
    expect(r.body.result_info).toEqual({ page: 1, per_page: 100, count: 62, total_count: 62, total_pages: 1 });
    const second = await get('/zones?page=2&per_page=51');
    expect(second.body.result).toHaveLength(11);
    expect(second.body.result_info).toEqual({ page: 2, per_page: 51, count: 11, total_count: 62, total_pages: 2 });
  });

  it('an empty list answers total_pages 1, as production does for its lists (not 0)', async () => {
    const { get } = twoZones();
    const none = await get('/zones?name=absent.example');
    expect(none.status).toBe(200);
    expect(none.body.result_info).toEqual({ page: 1, per_page: 20, count: 0, total_count: 0, total_pages: 1 });
    // A page past the end keeps the count of pages the list has.
    const past = await get('/zones?page=9');
    expect(past.body.result_info).toMatchObject({ page: 9, count: 0, total_count: 2, total_pages: 1 });
  });
});
