/**
 * The Python `cloudflare` library (Debian's python3-cloudflare: module `CloudFlare`, v2) driving
 * `startDnsServer` over real HTTP: record CRUD, lists with filters and pages, import/export, and the
 * exceptions it raises for the API's 4xx answers. The library builds every URL from
 * CLOUDFLARE_API_URL (or `base_url=`) and sends `Content-Type: application/json` on every request,
 * GET and DELETE included; it raises `CloudFlareAPIError` with `int(e)` = errors[0].code,
 * `str(e)` = errors[0].message and the `error_chain` as its items.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../../lib/node/index.js';
import { pythonFor, runDriver } from './python.js';

const python = pythonFor('CloudFlare', 'python3-cloudflare');
const TOKEN = 'python-token';
const EMAIL = 'dev@example.com';
const KEY = '0123456789abcdef0123456789abcdef01234';
const tokenEnv = { CLOUDFLARE_API_TOKEN: TOKEN };
const keyEnv = { CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY };

interface Call {
  call: string;
  ids?: string[];
  params?: Record<string, unknown>;
  data?: Record<string, unknown>;
  files?: Record<string, [string, string]>;
}
interface Failure {
  class: string;
  code: number;
  message: string;
  chain: [number, string][];
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- what the Python library printed as JSON, read by the assertions
type Output = { result: any; error?: undefined } | { result?: undefined; error: Failure };

const suite = python ? describe : describe.skip;
const title = python
  ? `python3-cloudflare (CloudFlare ${python.version} on ${python.bin}) against startDnsServer`
  : 'python3-cloudflare against startDnsServer (skipped: Debian package python3-cloudflare is not installed, no python3 imports CloudFlare)';

suite(title, { timeout: 30_000 }, () => {
  let server: Awaited<ReturnType<typeof startDnsServer>>;
  let zoneId: string;

  beforeEach(async () => {
    server = await startDnsServer({
      zones: [{ name: 'example.com' }, { name: 'example.net' }],
      credentials: [{ token: TOKEN }, { email: EMAIL, key: KEY }],
    });
    zoneId = server.api.zone('example.com')!.id;
  });
  afterEach(() => server.close());

  const calls = async (
    list: Call[],
    env: Record<string, string> = tokenEnv,
    client: { raw?: boolean; base_url?: string } = {},
  ) => {
    const out = await runDriver<{ version: string; outputs: Output[] }>(
      python!,
      'cloudflare_calls.py',
      [JSON.stringify({ client, calls: list })],
      {
        CLOUDFLARE_API_URL: server.baseURL,
        ...env,
      },
    );
    return out.outputs;
  };
  const post = (data: Record<string, unknown>): Call => ({ call: 'zones.dns_records.post', ids: [zoneId], data });
  const list = (params: Record<string, unknown>): Call => ({ call: 'zones.dns_records.get', ids: [zoneId], params });
  const names = (o: Output) => (o.result as { name: string; type: string }[]).map((r) => `${r.type} ${r.name}`);

  it('record CRUD: find the zone by name, create, get, put, patch, delete; a deleted record is CloudFlareAPIError 81044', async () => {
    const out = await calls([
      { call: 'zones.get', params: { name: 'example.com' } },
      {
        call: 'zones.dns_records.post',
        ids: ['$0.0.id'],
        data: { type: 'A', name: 'www', content: '198.51.100.4', ttl: 3600, proxied: false },
      },
      { call: 'zones.dns_records.get', ids: ['$0.0.id', '$1.id'] },
      {
        call: 'zones.dns_records.put',
        ids: ['$0.0.id', '$1.id'],
        data: { type: 'A', name: 'www.example.com', content: '198.51.100.5', ttl: 300 },
      },
      { call: 'zones.dns_records.patch', ids: ['$0.0.id', '$1.id'], data: { comment: 'front door' } },
      { call: 'zones.dns_records.delete', ids: ['$0.0.id', '$1.id'] },
      { call: 'zones.dns_records.get', ids: ['$0.0.id', '$1.id'] },
      // requests sends non-ASCII JSON as \u escapes; the name comes back in punycode.
      {
        call: 'zones.dns_records.post',
        ids: ['$0.0.id'],
        data: { type: 'AAAA', name: 'bücher', content: '2001:db8:0:0::1', ttl: 1 },
      },
    ]);
    expect(out[0]!.result.map((z: { id: string; name: string }) => [z.id, z.name])).toEqual([[zoneId, 'example.com']]);
    const created = out[1]!.result;
    expect(created).toMatchObject({
      name: 'www.example.com',
      type: 'A',
      content: '198.51.100.4',
      ttl: 3600,
      proxied: false,
      proxiable: true,
    });
    expect(out[2]!.result).toEqual(created);
    expect(out[3]!.result).toMatchObject({
      id: created.id,
      content: '198.51.100.5',
      ttl: 300,
      created_on: created.created_on,
    });
    expect(out[4]!.result).toMatchObject({ id: created.id, content: '198.51.100.5', comment: 'front door' });
    expect(out[5]).toEqual({ result: { id: created.id } });
    expect(out[6]).toEqual({
      error: { class: 'CloudFlareAPIError', code: 81044, message: 'Record does not exist.', chain: [] },
    });
    expect(out[7]!.result).toMatchObject({ name: 'xn--bcher-kva.example.com', content: '2001:db8::1' });
    expect(server.api.records(zoneId).map((r) => r.id)).toEqual([out[7]!.result.id]);
  });

  it('lists: exact and partial filters, match=any, order and direction, as the library passes them in params', async () => {
    const out = await calls([
      post({ type: 'A', name: 'a', content: '198.51.100.1', ttl: 1 }),
      post({ type: 'A', name: 'b', content: '198.51.100.2', ttl: 1 }),
      post({ type: 'A', name: 'c', content: '198.51.100.3', ttl: 1 }),
      post({ type: 'AAAA', name: 'a', content: '2001:db8::1', ttl: 1 }),
      post({ type: 'TXT', name: 'a', content: '"hello world"', ttl: 1 }),
      post({ type: 'MX', name: '@', content: 'mail.example.com', priority: 10, ttl: 1 }),
      post({ type: 'CNAME', name: 'www', content: 'a.example.com', ttl: 1, comment: 'front' }),
      list({ type: 'A', order: 'name' }),
      list({ name: 'a.example.com', order: 'type' }),
      list({ type: 'A', name: 'a.example.com' }),
      list({ content: '198.51.100.2' }),
      list({ 'name.endswith': '.example.com', type: 'AAAA' }),
      list({ 'comment.contains': 'fro' }),
      list({ match: 'any', type: 'MX', content: '198.51.100.3', order: 'type' }),
      list({ type: 'A', order: 'content', direction: 'desc' }),
      list({ type: 'SRV' }),
    ]);
    expect(out.slice(0, 7).map((o) => o.error)).toEqual(Array(7).fill(undefined));
    expect(names(out[7]!)).toEqual(['A a.example.com', 'A b.example.com', 'A c.example.com']);
    expect(names(out[8]!)).toEqual(['A a.example.com', 'AAAA a.example.com', 'TXT a.example.com']);
    expect(out[9]!.result.map((r: { id: string }) => r.id)).toEqual([out[0]!.result.id]);
    expect(names(out[10]!)).toEqual(['A b.example.com']);
    expect(names(out[11]!)).toEqual(['AAAA a.example.com']);
    expect(names(out[12]!)).toEqual(['CNAME www.example.com']);
    expect(names(out[13]!)).toEqual(['A c.example.com', 'MX example.com']);
    expect(out[14]!.result.map((r: { content: string }) => r.content)).toEqual([
      '198.51.100.3',
      '198.51.100.2',
      '198.51.100.1',
    ]);
    expect(out[15]).toEqual({ result: [] });
  });

  it('pages: raw=True returns result_info; per_page and page walk a list to an empty page', async () => {
    const seeds = ['p-a', 'p-b', 'p-c', 'p-d', 'p-e'].map((name, i) =>
      post({ type: 'A', name, content: `198.51.100.${i + 10}`, ttl: 1 }),
    );
    const out = await calls(
      [
        ...seeds,
        list({ type: 'A', order: 'name', per_page: 2 }),
        list({ type: 'A', order: 'name', per_page: 2, page: 2 }),
        list({ type: 'A', order: 'name', per_page: 2, page: 3 }),
        list({ type: 'A', order: 'name', per_page: 2, page: 4 }),
        list({ type: 'A' }),
      ],
      tokenEnv,
      { raw: true },
    );
    const page = (o: Output) => ({
      names: (o.result.result as { name: string }[]).map((r) => r.name),
      info: o.result.result_info,
    });
    const info = (p: number, count: number) => ({ page: p, per_page: 2, count, total_count: 5, total_pages: 3 });
    expect(page(out[5]!)).toEqual({ names: ['p-a.example.com', 'p-b.example.com'], info: info(1, 2) });
    expect(page(out[6]!)).toEqual({ names: ['p-c.example.com', 'p-d.example.com'], info: info(2, 2) });
    expect(page(out[7]!)).toEqual({ names: ['p-e.example.com'], info: info(3, 1) });
    expect(page(out[8]!)).toEqual({ names: [], info: info(4, 0) });
    expect(page(out[9]!).info).toEqual({ page: 1, per_page: 100, count: 5, total_count: 5, total_pages: 1 });
  });

  it('4xx answers become CloudFlareAPIError with the API code and message; nothing is stored', async () => {
    const out = await calls([
      post({ type: 'A', name: 'bad', content: 'not-an-address', ttl: 1 }),
      post({ type: 'A', name: 'dup', content: '198.51.100.7', ttl: 1 }),
      post({ type: 'A', name: 'dup', content: '198.51.100.7', ttl: 1 }),
      post({ type: 'A', name: 'ttl', content: '198.51.100.8', ttl: 5 }),
      post({ type: 'CNAME', name: 'dup', content: 'elsewhere.example.net', ttl: 1 }),
      { call: 'zones.dns_records.get', ids: [zoneId, '0'.repeat(32)] },
      { call: 'zones.dns_records.get', ids: ['not-a-zone-id'] },
      { call: 'zones.dns_records.delete', ids: [zoneId, '0'.repeat(32)] },
    ]);
    const errors = out.map((o) => (o.error ? [o.error.class, o.error.code, o.error.message] : 'ok'));
    expect(errors).toEqual([
      ['CloudFlareAPIError', 9005, 'Content for A record must be a valid IPv4 address.'],
      'ok',
      ['CloudFlareAPIError', 81058, 'An identical record already exists.'],
      ['CloudFlareAPIError', 9021, 'TTL must be between 60 and 86400 seconds, or 1 for Automatic.'],
      ['CloudFlareAPIError', 81053, 'An A, AAAA, or CNAME record with that host already exists.'],
      ['CloudFlareAPIError', 81044, 'Record does not exist.'],
      [
        'CloudFlareAPIError',
        7003,
        'Could not route to /client/v4/zones/not-a-zone-id/dns_records, perhaps your object identifier is invalid?',
      ],
      ['CloudFlareAPIError', 81044, 'Record does not exist.'],
    ]);
    expect(server.api.records(zoneId).map((r) => `${r.type} ${r.name} ${r.content}`)).toEqual([
      'A dup.example.com 198.51.100.7',
    ]);
  });

  it('credential errors: unknown global key 9103, malformed key 6003 with its error_chain, and no credentials at all', async () => {
    const zones = { call: 'zones.get', params: { name: 'example.com' } };
    const [unknownKey] = await calls([zones], { CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: 'f'.repeat(37) });
    expect(unknownKey!.error).toEqual({
      class: 'CloudFlareAPIError',
      code: 9103,
      message: 'Unknown X-Auth-Key or X-Auth-Email',
      chain: [],
    });
    const [badKey] = await calls([zones], { CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: 'short' });
    expect(badKey!.error).toEqual({
      class: 'CloudFlareAPIError',
      code: 6003,
      message: 'Invalid request headers',
      chain: [[6103, 'Invalid format for X-Auth-Key header']],
    });
    // The library refuses before sending anything: code 0 is its own.
    const [none] = await calls([zones], {});
    expect(none!.error).toEqual({
      class: 'CloudFlareAPIError',
      code: 0,
      message: 'neither email/key or token defined',
      chain: [],
    });
    const [keyed] = await calls([zones], keyEnv);
    expect(keyed!.result.map((z: { name: string }) => z.name)).toEqual(['example.com']);
  });

  it('an unknown token on a records endpoint is CloudFlareAPIError 9109 Invalid access token', async () => {
    const [out] = await calls([{ call: 'zones.dns_records.get', ids: [zoneId] }], {
      CLOUDFLARE_API_TOKEN: 'not-a-known-token',
    });
    expect(out!.error).toMatchObject({ class: 'CloudFlareAPIError', code: 9109, message: 'Invalid access token' });
  });

  it('import (multipart, files=) and export (text/plain, returned as a string)', async () => {
    const zoneFile = 'mail.example.com. 300 IN A 198.51.100.25\nexample.com. 300 IN MX 10 mail.example.com.\n';
    const out = await calls([
      { call: 'zones.dns_records.import_.post', ids: [zoneId], files: { file: ['zone.txt', zoneFile] } },
      { call: 'zones.dns_records.export.get', ids: [zoneId] },
    ]);
    expect(out[0]).toEqual({ result: { recs_added: 2, total_records_parsed: 2 } });
    expect(typeof out[1]!.result).toBe('string');
    expect(out[1]!.result).toContain('mail.example.com.\t300\tIN\tA\t198.51.100.25');
    expect(out[1]!.result).toContain('example.com.\t300\tIN\tMX\t10 mail.example.com.');
    expect(
      server.api
        .records(zoneId)
        .map((r) => r.type)
        .sort(),
    ).toEqual(['A', 'MX']);
  });

  it('token verify, with the base URL given to the constructor (CLOUDFLARE_API_URL is ignored then)', async () => {
    const out = await calls(
      [{ call: 'user.tokens.verify.get' }],
      { ...tokenEnv, CLOUDFLARE_API_URL: 'http://127.0.0.1:9/nowhere' },
      { base_url: server.baseURL },
    );
    expect(out[0]!.result).toMatchObject({ status: 'active' });
    expect(out[0]!.result.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('GET /user for a global-key caller answers the user', async () => {
    const out = await calls([{ call: 'user.get' }], keyEnv);
    expect(out[0]!.result).toMatchObject({ email: EMAIL });
  });
});
