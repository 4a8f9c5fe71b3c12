import { afterEach, describe, expect, it, vi } from 'vitest';
import { DnsApi } from '../../lib/dns.js';
import { BASE_URL } from './support.js';
import { setup } from './helpers.js';

// Bad input never corrupts state: each failure below leaves every record exactly as it was.
describe('state integrity', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a batch failing in its puts undoes the deletes and patches before it', async () => {
    const s = setup();
    const a = (await s.create({ type: 'A', name: 'a', content: '198.51.100.1' })).body.result;
    const b = (await s.create({ type: 'A', name: 'b', content: '198.51.100.2', comment: 'keep me' })).body.result;
    const c = (await s.create({ type: 'CNAME', name: 'c', content: 'x.example.net' })).body.result;
    const before = s.api.records('example.com');
    const r = await s.call('POST', '/batch', {
      deletes: [{ id: a.id }],
      patches: [{ id: b.id, content: '198.51.100.9', comment: null }],
      puts: [{ id: c.id, type: 'A', name: 'b', content: '198.51.100.9' }],
    });
    expect(r.body.errors).toEqual([{ code: 81058, message: 'An identical record already exists.' }]);
    expect(s.api.records('example.com')).toEqual(before);
    // The same ids still answer, and their names are still indexed for conflicts.
    expect((await s.create({ type: 'A', name: 'c', content: '198.51.100.5' })).body.errors[0].code).toBe(81054);
  });

  it('a bad include_shadow_metadata on a write is refused before anything is stored (fuzz)', async () => {
    const s = setup();
    const rec = (await s.create({ type: 'A', name: 'x', content: '198.51.100.1' })).body.result;
    const before = s.api.records('example.com');
    const bad = '?include_shadow_metadata=maybe';
    for (const [method, path, body] of [
      ['POST', bad, { type: 'A', name: 'y', content: '198.51.100.2' }],
      ['PUT', `/${rec.id}${bad}`, { type: 'A', name: 'x', content: '198.51.100.3' }],
      ['PATCH', `/${rec.id}${bad}`, { content: '198.51.100.4' }],
      ['POST', `/batch${bad}`, { posts: [{ type: 'A', name: 'z', content: '198.51.100.5' }] }],
    ] as const) {
      const r = await s.call(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(s.api.records('example.com'), `${method} ${path}`).toEqual(before);
    }
  });

  it('an A record that an NS joined later can still be re-saved as read; a new A there is still 81056 (fuzz)', async () => {
    const s = setup();
    const a = (await s.create({ type: 'A', name: 'dept', content: '198.51.100.1' })).body.result;
    expect((await s.create({ type: 'NS', name: 'dept', content: 'ns1.example.net' })).status).toBe(200);
    const again = await s.call('PUT', `/${a.id}`, a);
    expect(again.body.errors).toEqual([]);
    expect((await s.call('PATCH', `/${a.id}`, { ttl: 300 })).body.result.ttl).toBe(300);
    expect((await s.create({ type: 'A', name: 'dept', content: '198.51.100.2' })).body.errors[0].code).toBe(81056);
    const other = (await s.create({ type: 'A', name: 'elsewhere', content: '198.51.100.3' })).body.result;
    expect((await s.call('PATCH', `/${other.id}`, { name: 'dept' })).body.errors[0].code).toBe(81056);
  });

  it('a batch naming an unknown id fails whole; an empty batch is a no-op', async () => {
    const s = setup();
    const r = await s.call('POST', '/batch', {
      posts: [{ type: 'A', name: 'n', content: '198.51.100.1' }],
      patches: [{ id: 'f'.repeat(32), ttl: 60 }],
    });
    expect(r.status).toBe(404);
    expect(s.api.records('example.com')).toEqual([]);
    const empty = await s.call('POST', '/batch', {});
    expect(empty.body.result).toEqual({ deletes: [], patches: [], puts: [], posts: [] });
  });

  it('malformed bodies: bad JSON, arrays, wrong JSON types → 9207; nothing stored', async () => {
    const s = setup();
    const rec = (await s.create({ type: 'A', name: 'x', content: '198.51.100.1' })).body.result;
    for (const [method, path, body] of [
      ['POST', '', '{"type":'],
      ['POST', '', '[]'],
      ['POST', '', 'null'],
      ['POST', '', ''],
      ['PUT', `/${rec.id}`, '{bad'],
      ['PATCH', `/${rec.id}`, '[1]'],
      ['POST', '/batch', '{"posts": {}}'],
      ['POST', '', JSON.stringify({ type: 'A', name: 'y', content: '198.51.100.2', ttl: '300' })],
      ['POST', '', JSON.stringify({ type: 'A', name: 'y', content: 198 })],
      ['POST', '', JSON.stringify({ type: 'TXT', name: 'y', content: '"t"', tags: 'env:prod' })],
    ] as const) {
      const r = await s.call(method, path, body);
      expect(r.status, `${method} ${path} ${body}`).toBe(400);
      expect(r.body.errors[0], `${method} ${path} ${body}`).toEqual({
        code: 9207,
        message: 'Request body is invalid.',
      });
    }
    expect(s.api.records('example.com')).toEqual([rec]);
  });

  it('quota: the record that would exceed it is 81045; deleting one frees a place', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com', limits: { records: 2 } }] });
    const zoneId = api.zones[0]!.id;
    const post = (name: string) =>
      api
        .fetch(`${BASE_URL}/zones/${zoneId}/dns_records`, {
          method: 'POST',
          headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'A', name, content: '198.51.100.1' }),
        })
        .then((r) => r.json());
    const first = await post('a');
    await post('b');
    expect((await post('c')).errors).toEqual([{ code: 81045, message: 'Record quota exceeded.' }]);
    await api.fetch(`${BASE_URL}/zones/${zoneId}/dns_records/${first.result.id}`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer x' },
    });
    expect((await post('c')).success).toBe(true);
  });

  it('free plan: tags are 9300, comments over 100 characters and line breaks are refused', async () => {
    const s = setup({}, { plan: 'free' });
    expect((await s.create({ type: 'TXT', name: 't', content: '"x"', tags: ['a:1', 'b:2'] })).body.errors).toEqual([
      { code: 9300, message: 'DNS record has 2 tags, exceeding the quota of 0.' },
    ]);
    expect((await s.create({ type: 'TXT', name: 't', content: '"x"', comment: 'c'.repeat(101) })).status).toBe(400);
    expect((await s.create({ type: 'TXT', name: 't', content: '"x"', comment: 'two\nlines' })).status).toBe(400);
    expect((await s.create({ type: 'TXT', name: 't', content: '"x"', comment: 'c'.repeat(100) })).status).toBe(200);
    const pro = setup();
    expect((await pro.create({ type: 'TXT', name: 't', content: '"x"', tags: ['bad tag:1'] })).status).toBe(400);
    expect(
      (await pro.create({ type: 'TXT', name: 't', content: '"x"', tags: ['env', 'env', 'team:a b'] })).body.result.tags,
    ).toEqual(['env', 'team:a b']);
  });

  it('a batch over the plan limit is refused before any change', async () => {
    const api = new DnsApi({ zones: [{ name: 'example.com', limits: { batch: 2 } }] });
    const zoneId = api.zones[0]!.id;
    const r = await api.fetch(`${BASE_URL}/zones/${zoneId}/dns_records/batch`, {
      method: 'POST',
      headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
      body: JSON.stringify({ posts: ['a', 'b', 'c'].map((n) => ({ type: 'A', name: n, content: '198.51.100.1' })) }),
    });
    expect(r.status).toBe(400);
    expect(api.records('example.com')).toEqual([]);
  });

  it('timestamps follow the clock: created_on fixed, modified_on moves, comment_modified_on only on comment change', async () => {
    let now = Date.UTC(2025, 0, 1, 0, 0, 0, 120);
    const s = setup({ clock: () => now });
    const rec = (await s.create({ type: 'A', name: 'x', content: '198.51.100.1', comment: 'one' })).body.result;
    expect(rec.created_on).toBe('2025-01-01T00:00:00.12Z');
    now += 1000;
    const ttl = (await s.call('PATCH', `/${rec.id}`, { ttl: 300 })).body.result;
    expect(ttl).toMatchObject({
      created_on: rec.created_on,
      modified_on: '2025-01-01T00:00:01.12Z',
      comment_modified_on: rec.comment_modified_on,
    });
    now += 1000;
    const cm = (await s.call('PATCH', `/${rec.id}`, { comment: 'two' })).body.result;
    expect(cm.comment_modified_on).toBe('2025-01-01T00:00:02.12Z');
  });

  it('vi.setSystemTime moves the default clock (Date.now read per operation)', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-05-06T07:08:09Z'));
    const s = setup();
    const rec = (await s.create({ type: 'A', name: 'x', content: '198.51.100.1' })).body.result;
    expect(rec.created_on).toBe('2030-05-06T07:08:09Z');
  });

  it('routes: literals before ids, wrong methods 405, other paths 404 in the envelope', async () => {
    const s = setup();
    expect((await s.call('GET', '/export')).status).toBe(200);
    expect((await s.call('GET', '/batch')).status).toBe(405);
    expect((await s.call('POST', `/${'a'.repeat(32)}`, {})).body.errors[0].code).toBe(7001);
    expect((await s.call('GET', `/${'A'.repeat(32)}`)).body.errors[0].code).toBe(7003);
    expect((await s.call('GET', '/a/b/c')).status).toBe(404);
    const other = await s.api.fetch('https://api.cloudflare.com/elsewhere', { headers: { authorization: 'Bearer x' } });
    expect(other.status).toBe(404);
    // Outside the base path (/client/v4): the route error names where the API answers (base-path.test.ts).
    expect((await other.json()).errors[0].code).toBe(7000);
    const slash = await s.api.fetch(`${s.url()}/`, { headers: { authorization: 'Bearer spec-token' } });
    expect(slash.status).toBe(200);
  });

  it('rateLimit: over the limit is 429 971 with retry-after, per caller, until the window passes', async () => {
    let now = 0;
    const api = new DnsApi({
      zones: [{ name: 'example.com' }],
      rateLimit: { requests: 3, windowMs: 10_000 },
      clock: () => now,
    });
    const zoneId = api.zones[0]!.id;
    const get = (token: string) =>
      api.fetch(`${BASE_URL}/zones/${zoneId}/dns_records`, { headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 3; i++) expect((await get('a')).status).toBe(200);
    now = 4_000;
    const limited = await get('a');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('6');
    expect((await limited.json()).errors).toEqual([
      { code: 971, message: 'Please wait and consider throttling your request speed' },
    ]);
    expect((await get('b')).status).toBe(200);
    now = 10_001;
    expect((await get('a')).status).toBe(200);
    const off = new DnsApi({ zones: [{ name: 'example.com', id: zoneId }] });
    for (let i = 0; i < 50; i++) {
      const r = await off.fetch(`${BASE_URL}/zones/${zoneId}/dns_records`, { headers: { authorization: 'Bearer a' } });
      expect(r.status).toBe(200);
    }
  });

  it('records of one name and type hold at most 8,192 characters of content together (81061)', async () => {
    const s = setup({ quoteTxt: false });
    for (let i = 0; i < 2; i++)
      expect((await s.create({ type: 'TXT', name: 'big', content: `${i}`.repeat(4000) })).status).toBe(200);
    expect((await s.create({ type: 'TXT', name: 'big', content: 'x'.repeat(200) })).body.errors[0].code).toBe(81061);
    expect((await s.create({ type: 'TXT', name: 'other', content: 'x'.repeat(200) })).status).toBe(200);
  });
});
