import Cloudflare, { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from 'cloudflare';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DnsApi } from '../../lib/dns.js';
import { BASE_URL, expectSchemaClean, schemaChecked, type SchemaLog } from './support.js';

// The official SDK drives every endpoint; every JSON body it receives is checked against the
// published schema by the wrapping fetch.
const EMAIL = 'dev@example.com';
const KEY = '0123456789abcdef0123456789abcdef01234';

let api: DnsApi;
let client: Cloudflare;
let zoneId: string;
let log: SchemaLog;
let checkedFetch: typeof fetch;

beforeEach(() => {
  api = new DnsApi({
    zones: [{ name: 'example.com', plan: 'enterprise' }],
    credentials: [{ email: EMAIL, key: KEY }],
  });
  zoneId = api.zone('example.com')!.id;
  const checked = schemaChecked(api.fetch);
  log = checked.log;
  checkedFetch = checked.fetch;
  client = new Cloudflare({
    apiEmail: EMAIL,
    apiKey: KEY,
    apiToken: null, // keep CLOUDFLARE_API_TOKEN from the environment out of the test
    baseURL: BASE_URL,
    fetch: checked.fetch,
    maxRetries: 0,
  });
});

afterEach(() => expectSchemaClean(log));

describe('the official SDK against DnsApi', () => {
  it('finds the zone first, as clients do: zones.list({name}) and zones.get', async () => {
    const zones = await client.zones.list({ name: 'example.com' });
    expect(zones.result.map((z) => z.id)).toEqual([zoneId]);
    const zone = await client.zones.get({ zone_id: zoneId });
    expect(zone).toMatchObject({ id: zoneId, name: 'example.com', status: 'active' });
    expect((await client.zones.list({ name: 'nope.example' })).result).toEqual([]);
    await client.dns.records.create({ zone_id: zoneId, type: 'A', name: 'www', content: '198.51.100.4', ttl: 1 });
  });

  it('create, get, update (PUT), edit (PATCH), delete', async () => {
    // README: sdk-crud
    const created = await client.dns.records.create({
      zone_id: zoneId,
      type: 'A',
      name: 'www.example.com',
      content: '198.51.100.4',
      ttl: 3600,
      proxied: false,
    });
    expect(created).toMatchObject({
      name: 'www.example.com',
      type: 'A',
      content: '198.51.100.4',
      ttl: 3600,
      proxiable: true,
    });

    const fetched = await client.dns.records.get(created.id, { zone_id: zoneId });
    expect(fetched).toEqual(created);

    const updated = await client.dns.records.update(created.id, {
      zone_id: zoneId,
      type: 'A',
      name: 'www.example.com',
      content: '198.51.100.5',
      ttl: 300,
    });
    expect(updated).toMatchObject({
      id: created.id,
      content: '198.51.100.5',
      ttl: 300,
      created_on: created.created_on,
    });

    // The SDK's types want name/ttl/type on edit; at runtime a partial body goes through as sent.
    const edited = await client.dns.records.edit(created.id, { zone_id: zoneId, comment: 'front door' } as never);
    expect(edited).toMatchObject({ content: '198.51.100.5', ttl: 300, comment: 'front door' });

    expect(await client.dns.records.delete(created.id, { zone_id: zoneId })).toEqual({ id: created.id });
    await expect(client.dns.records.get(created.id, { zone_id: zoneId })).rejects.toBeInstanceOf(NotFoundError);
    // README: end
  });

  it('creates the data types and shows their rendered content', async () => {
    const srv = await client.dns.records.create({
      zone_id: zoneId,
      type: 'SRV',
      name: '_xmpp._tcp',
      ttl: 1,
      data: { priority: 5, weight: 0, port: 5222, target: 'talk.l.google.com' },
    });
    expect(srv).toMatchObject({ content: '0 5222 talk.l.google.com', priority: 5 });
    const caa = await client.dns.records.create({
      zone_id: zoneId,
      type: 'CAA',
      name: '@',
      ttl: 1,
      data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
    });
    expect(caa).toMatchObject({ name: 'example.com', content: '0 issue "letsencrypt.org"' });
    const mx = await client.dns.records.create({
      zone_id: zoneId,
      type: 'MX',
      name: '@',
      content: 'mx.example.com',
      priority: 10,
      ttl: 1,
    });
    expect(mx).toMatchObject({ content: 'mx.example.com', priority: 10 });
  });

  it('lists with filters and order, and auto-paginates over 1,000+ records until an empty page', async () => {
    const total = 1_050;
    const posts = Array.from({ length: total }, (_, i) => ({
      type: 'A' as const,
      name: `host-${String(i).padStart(4, '0')}.example.com`,
      content: `198.51.${100 + (i >> 8)}.${i & 255}`,
      ttl: 1,
    }));
    // Create through the SDK's batch in chunks (the zone's plan allows 3,500 changes per batch).
    await client.dns.records.batch({ zone_id: zoneId, posts: posts.slice(0, 1000) });
    await client.dns.records.batch({ zone_id: zoneId, posts: posts.slice(1000) });
    await client.dns.records.create({ zone_id: zoneId, type: 'TXT', name: 'host-0001', content: '"hello"', ttl: 1 });

    const seen: string[] = [];
    for await (const record of client.dns.records.list({ zone_id: zoneId, type: 'A', per_page: 100 }))
      seen.push(record.name);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen[0]).toBe('host-0000.example.com');
    expect(seen.at(-1)).toBe('host-1049.example.com');

    const page = await client.dns.records.list({ zone_id: zoneId, name: { exact: 'host-0001.example.com' } });
    expect(page.result.map((r) => r.type)).toEqual(['A', 'TXT']);
    const desc = await client.dns.records.list({
      zone_id: zoneId,
      type: 'A',
      order: 'name',
      direction: 'desc',
      per_page: 2,
    });
    expect(desc.result.map((r) => r.name)).toEqual(['host-1049.example.com', 'host-1048.example.com']);
    const contains = await client.dns.records.list({ zone_id: zoneId, name: { contains: 'HOST-104' }, match: 'all' });
    expect(contains.result).toHaveLength(10);
  });

  it('batch applies deletes, patches, puts and posts in order, and rolls everything back on error', async () => {
    const a = await client.dns.records.create({
      zone_id: zoneId,
      type: 'A',
      name: 'a',
      content: '198.51.100.1',
      ttl: 1,
    });
    const b = await client.dns.records.create({
      zone_id: zoneId,
      type: 'A',
      name: 'b',
      content: '198.51.100.2',
      ttl: 1,
    });
    const ok = await client.dns.records.batch({
      zone_id: zoneId,
      deletes: [{ id: a.id }],
      patches: [{ id: b.id, ttl: 600 } as never],
      posts: [{ type: 'A', name: 'a', content: '198.51.100.1', ttl: 1 }],
    });
    expect(ok.deletes?.map((r) => r.id)).toEqual([a.id]);
    expect(ok.patches?.[0]).toMatchObject({ id: b.id, ttl: 600 });
    expect(ok.posts?.[0]).toMatchObject({ name: 'a.example.com' });

    const before = api.records('example.com');
    const failed = client.dns.records.batch({
      zone_id: zoneId,
      deletes: [{ id: b.id }],
      posts: [
        { type: 'A', name: 'c', content: '198.51.100.3', ttl: 1 },
        { type: 'CNAME', name: 'a', content: 'x.example.net', ttl: 1 },
      ],
    });
    await expect(failed).rejects.toBeInstanceOf(BadRequestError);
    await failed.catch((e: BadRequestError) => expect(e.errors[0]).toMatchObject({ code: 81053 }));
    expect(api.records('example.com')).toEqual(before);
  });

  it('exports BIND text and imports it into another zone', async () => {
    await client.dns.records.create({
      zone_id: zoneId,
      type: 'A',
      name: 'www',
      content: '198.51.100.4',
      ttl: 300,
      proxied: true,
      comment: 'web',
    });
    await client.dns.records.create({
      zone_id: zoneId,
      type: 'MX',
      name: '@',
      content: 'mx.example.com',
      priority: 10,
      ttl: 3600,
    });
    // Quoted, as a zone file writes TXT: today's API keeps unquoted text as sent, so only quoted text round-trips.
    await client.dns.records.create({ zone_id: zoneId, type: 'TXT', name: '@', content: '"v=spf1 -all"', ttl: 1 });
    const text = await client.dns.records.export({ zone_id: zoneId });
    expect(text).toContain('www.example.com.\t1\tIN\tA\t198.51.100.4 ; web cf_tags=cf-proxied:true');
    expect(text).toContain('example.com.\t3600\tIN\tMX\t10 mx.example.com.');

    const copy = api.addZone({ name: 'example.com', id: 'f'.repeat(32), plan: 'pro' });
    const imported = await client.dns.records.import({ zone_id: copy.id, file: text });
    expect(imported).toEqual({ recs_added: 3, total_records_parsed: 3 });
    const strip = (r: {
      id?: string;
      created_on?: string;
      modified_on?: string;
      comment_modified_on?: string;
      zone_id?: string;
    }) => {
      const { id: _i, created_on: _c, modified_on: _m, comment_modified_on: _cm, zone_id: _z, ...rest } = r;
      return rest;
    };
    expect(api.records(copy.id).map(strip)).toEqual(api.records(zoneId).map(strip));
  });

  it('scan endpoints answer in the envelope (a double has no live DNS to scan)', async () => {
    expect(await client.dns.records.scan({ zone_id: zoneId, body: {} } as never)).toEqual({
      recs_added: 0,
      total_records_parsed: 0,
    });
    const review = await client.dns.records.scanList({ zone_id: zoneId });
    expect(review.result).toEqual([]);
    const trigger = await client.dns.records.scanTrigger({ zone_id: zoneId });
    expect(trigger).toMatchObject({ success: true, errors: [], messages: [] });
    const reviewed = await client.dns.records.scanReview({
      zone_id: zoneId,
      accepts: [{ type: 'TXT', name: 'scanned', content: '"found"', ttl: 1 }],
      rejects: [],
    });
    expect(reviewed.accepts?.[0]).toMatchObject({ name: 'scanned.example.com', content: '"found"' });
    await expect(
      client.dns.records.scanReview({ zone_id: zoneId, rejects: [{ id: '0'.repeat(32) }] }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('error paths raise the SDK classes with the API codes', async () => {
    const err = async (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e as InstanceType<typeof Cloudflare.APIError>,
      );

    const bad = await err(
      client.dns.records.create({ zone_id: zoneId, type: 'A', name: 'x', content: '300.1.1.1', ttl: 1 }),
    );
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad!.status).toBe(400);
    expect(bad!.errors[0]).toMatchObject({ code: 9005, message: 'Content for A record must be a valid IPv4 address.' });

    const missing = await err(client.dns.records.get('0'.repeat(32), { zone_id: zoneId }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing!.errors[0]).toMatchObject({ code: 81044 });

    const route = await err(client.dns.records.get('nope', { zone_id: zoneId }));
    expect(route).toBeInstanceOf(NotFoundError);
    expect(route!.errors[0]).toMatchObject({ code: 7003 });

    const noZone = await err(client.dns.records.list({ zone_id: '' }));
    expect(noZone).toBeInstanceOf(NotFoundError);

    const anonymous = new Cloudflare({
      apiEmail: null,
      apiKey: null,
      apiToken: null,
      baseURL: BASE_URL,
      fetch: api.fetch,
      maxRetries: 0,
    });
    const none = await err(anonymous.dns.records.list({ zone_id: zoneId }));
    expect(none).toBeInstanceOf(BadRequestError);
    expect(none!.errors[0]).toMatchObject({ code: 9106 });

    const wrongKey = new Cloudflare({
      apiEmail: EMAIL,
      apiKey: 'f'.repeat(37),
      apiToken: null,
      baseURL: BASE_URL,
      fetch: api.fetch,
      maxRetries: 0,
    });
    const denied = await err(wrongKey.dns.records.list({ zone_id: zoneId }));
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect(denied!.errors[0]).toMatchObject({ code: 9103 });

    api.addCredential({ token: 'scoped-token', zones: ['nothing.example'] });
    const tokenClient = new Cloudflare({
      apiEmail: null,
      apiKey: null,
      apiToken: 'unknown-token',
      baseURL: BASE_URL,
      fetch: api.fetch,
      maxRetries: 0,
    });
    const unknownToken = await err(tokenClient.dns.records.list({ zone_id: zoneId }));
    expect(unknownToken).toBeInstanceOf(PermissionDeniedError);
    expect(unknownToken!.errors[0]).toMatchObject({ code: 9109, message: 'Invalid access token' });
    const verify = await err(tokenClient.user.tokens.verify());
    expect(verify).toBeInstanceOf(AuthenticationError);
    expect(verify!.errors[0]).toMatchObject({ code: 1000, message: 'Invalid API Token' });
    const scoped = new Cloudflare({
      apiEmail: null,
      apiKey: null,
      apiToken: 'scoped-token',
      baseURL: BASE_URL,
      fetch: api.fetch,
      maxRetries: 0,
    });
    const outOfScope = await err(scoped.dns.records.list({ zone_id: zoneId }));
    expect(outOfScope).toBeInstanceOf(PermissionDeniedError);
    expect(outOfScope!.errors[0]).toMatchObject({ code: 10000, message: 'Authentication error' });
  });

  it('accepts a client configured with both a token and a key (the SDK sends both)', async () => {
    api.addCredential({ token: 'both-token' });
    const both = new Cloudflare({
      apiEmail: EMAIL,
      apiKey: KEY,
      apiToken: 'both-token',
      baseURL: BASE_URL,
      fetch: checkedFetch,
      maxRetries: 0,
    });
    const rec = await both.dns.records.create({ zone_id: zoneId, type: 'TXT', name: 'both', content: '"x"', ttl: 1 });
    expect(rec.content).toBe('"x"');
  });
});
