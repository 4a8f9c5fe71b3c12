/**
 * Test support over HTTP (issue 27): every `/_edge-doubles/` endpoint on each server (`r2 serve`'s
 * startS3Server, `dns serve`'s startDnsServer, `api serve`'s startApiServer), over real HTTP, with
 * bad input answered by a 4xx JSON error that changes nothing. The state is read in process (the
 * doubles the server holds), so what an endpoint did is checked apart from the endpoint's answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Account } from '../../lib/account/account.js';
import { Bucket } from '../../lib/bucket/bucket.js';
import { ManualClock } from '../../lib/clock.js';
import type { DnsApi } from '../../lib/dns-api/dns-api.js';
import { startApiServer, startDnsServer, startS3Server } from '../../lib/node/index.js';
import { runCli, type CliIo } from '../../lib/node/commands.js';

const START = Date.parse('2026-01-01T00:00:00Z');
const DAY = 86_400_000;

interface Served {
  origin: string;
  /** The served bucket `photos`, where the server has buckets. */
  bucket?: () => Bucket;
  /** The DNS API, where the server has zones (`example.com`). */
  dns?: DnsApi;
  /** Where the /client/v4 API answers, where there is one. */
  baseURL?: string;
  close(): Promise<void>;
}

const servers: [name: string, start: (clock: ManualClock) => Promise<Served>][] = [
  [
    'r2 serve (startS3Server)',
    async (clock) => {
      const account = new Account({ clock });
      account.addBucket('photos', new Bucket({ clock }));
      const s = await startS3Server({ account, clock });
      return { origin: s.origin, bucket: () => account.bucket('photos')!, close: s.close };
    },
  ],
  [
    'dns serve (startDnsServer)',
    async (clock) => {
      const s = await startDnsServer({ zones: [{ name: 'example.com' }], clock });
      return { origin: s.origin, dns: s.api, baseURL: s.baseURL, close: s.close };
    },
  ],
  [
    'api serve (startApiServer)',
    async (clock) => {
      const s = await startApiServer({ zones: [{ name: 'example.com' }], buckets: ['photos'], clock });
      return {
        origin: s.origin,
        bucket: () => s.api.account.bucket('photos')!,
        dns: s.api,
        baseURL: s.baseURL,
        close: s.close,
      };
    },
  ],
];

async function call(
  origin: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${origin}/_edge-doubles/${path}`, init);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: text ? JSON.parse(text) : undefined };
}

describe.each(servers)('test support over HTTP: %s', (_name, start) => {
  let clock: ManualClock;
  let s: Served;
  const admin = (method: string, path: string, body?: unknown) => call(s.origin, method, path, body);
  const apiFetch = (path: string, init: RequestInit = {}) =>
    fetch(`${s.baseURL}/${path}`, {
      ...init,
      headers: { authorization: 'Bearer any-token', 'content-type': 'application/json', ...(init.headers as object) },
    });
  const zoneId = () => s.dns!.zone('example.com')!.id;
  const names = () => s.dns!.records('example.com').map((r) => r.name);
  const text = async (key: string) => (await (await s.bucket!().get(key))?.text()) ?? null;

  beforeAll(async () => {
    clock = new ManualClock(START);
    s = await start(clock);
  });
  afterAll(() => s.close());
  beforeEach(async () => {
    expect((await admin('POST', 'reset')).status).toBe(200);
    expect((await admin('DELETE', 'faults')).status).toBe(200);
  });

  it('GET health: 200 with what the server holds and its clock', async () => {
    const r = await admin('GET', 'health');
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/json');
    expect(r.body.ok).toBe(true);
    expect(r.body.buckets).toEqual(s.bucket ? ['photos'] : []);
    expect(r.body.zones.map((z: { name: string }) => z.name)).toEqual(s.dns ? ['example.com'] : []);
    expect(r.body.clock).toEqual({ mode: 'manual', now: new Date(clock.now()).toISOString() });
  });

  it('POST faults with surface "dns": the rule answers DNS questions; GET log shows them as surface "dns"', async () => {
    const rule = { surface: 'dns', name: 'www.example.com', type: 'A', rcode: 'REFUSED', times: 1 };
    if (!s.dns) {
      const refused = await admin('POST', 'faults', rule);
      expect([refused.status, refused.body.error.message]).toEqual([400, expect.stringContaining('answers no DNS')]);
      return;
    }
    expect((await admin('POST', 'faults', rule)).status).toBe(200);
    expect((await s.dns.resolve('www.example.com', 'A')).rcode).toBe('REFUSED');
    expect((await s.dns.resolve('www.example.com', 'A')).rcode).not.toBe('REFUSED');
    const log = await admin('GET', 'log?surface=dns');
    expect(log.body.map((e: { surface: string; op: string; path: string }) => [e.surface, e.op, e.path])).toEqual([
      ['dns', 'A', 'www.example.com'],
      ['dns', 'A', 'www.example.com'],
    ]);
    const refusedField = await admin('POST', 'faults', { ...rule, status: 503 });
    expect(refusedField.status).toBe(400);
  });

  it('an unknown endpoint is 404 and a wrong method 405, both JSON', async () => {
    const missing = await admin('GET', 'nothing');
    expect([missing.status, missing.body.error.message]).toEqual([
      404,
      expect.stringContaining('no test-support endpoint /_edge-doubles/nothing'),
    ]);
    const wrong = await admin('DELETE', 'health');
    expect([wrong.status, wrong.body.error.status]).toEqual([405, 405]);
  });

  it('POST seed stores objects (text, base64 with metadata) and records; reset empties them, the buckets and zones stay', async () => {
    const seed: Record<string, unknown> = {};
    if (s.bucket)
      seed.buckets = {
        photos: {
          'a.txt': 'hello',
          'b.bin': {
            base64: Buffer.from([0, 1, 2]).toString('base64'),
            httpMetadata: { contentType: 'application/x-demo' },
            customMetadata: { owner: 'me' },
          },
        },
      };
    if (s.dns) seed.zones = { 'example.com': [{ type: 'A', name: 'www', content: '192.0.2.1', ttl: 1 }] };
    const r = await admin('POST', 'seed', seed);
    expect(r.status).toBe(200);
    if (s.bucket) {
      expect(await text('a.txt')).toBe('hello');
      const b = await s.bucket().get('b.bin');
      expect([...new Uint8Array(await b!.arrayBuffer())]).toEqual([0, 1, 2]);
      expect([b!.httpMetadata?.contentType, b!.customMetadata]).toEqual(['application/x-demo', { owner: 'me' }]);
    }
    if (s.dns) expect(names()).toContain('www.example.com');
    expect((await admin('POST', 'reset')).status).toBe(200);
    if (s.bucket) expect(await text('a.txt')).toBeNull();
    if (s.dns) expect(names()).not.toContain('www.example.com');
    const health = (await admin('GET', 'health')).body;
    expect([health.buckets.length, health.zones.length]).toEqual([s.bucket ? 1 : 0, s.dns ? 1 : 0]);
  });

  type SeedBody = { buckets?: Record<string, unknown>; zones?: Record<string, unknown>; [other: string]: unknown };
  it.each<[string, string | SeedBody, number, string]>([
    ['not JSON', '{nope', 400, 'not JSON'],
    ['an array', '[]', 400, 'must be a JSON object'],
    ['an unknown field', { bucket: {} }, 400, 'unknown field "bucket"'],
    ['an unknown bucket', { buckets: { nope: { k: 'v' } } }, 404, 'no bucket "nope"'],
    ['bad base64', { buckets: { photos: { k: { base64: 'a' } } } }, 400, 'not base64'],
    ['an unknown zone', { zones: { 'other.example': [] } }, 404, 'no zone'],
    [
      'an invalid record',
      { zones: { 'example.com': [{ type: 'A', name: 'x', content: 'not-an-address' }] } },
      400,
      'IPv4',
    ],
  ])('POST seed with %s is refused and stores nothing', async (_what, body, status, message) => {
    // Each body also carries a good part where the server has one: the refusal must keep it out too.
    const good: Record<string, unknown> = {};
    if (s.bucket) good.buckets = { photos: { 'good.txt': 'good' } };
    if (s.dns) good.zones = { 'example.com': [{ type: 'TXT', name: 'good', content: 'good' }] };
    const merged =
      typeof body === 'string'
        ? body
        : {
            ...good,
            ...body,
            ...(body.buckets && good.buckets ? { buckets: { ...(good.buckets as object), ...body.buckets } } : {}),
          };
    const r = await admin('POST', 'seed', merged);
    // A server without buckets (or zones) refuses a part for them with 400, saying so.
    const applies = typeof body === 'string' || (body.buckets ? !!s.bucket : body.zones ? !!s.dns : true);
    expect(r.status).toBe(applies ? status : 400);
    expect(r.body.error.message).toEqual(
      applies ? expect.stringContaining(message) : expect.stringMatching(/serve holds no (buckets|zones)/),
    );
    if (s.bucket) expect(await text('good.txt')).toBeNull();
    if (s.dns) expect(names()).not.toContain('good.example.com');
  });

  it('POST snapshot answers an id; POST restore brings that state back; an unknown id is 404, a bad one 400', async () => {
    const seedOne = (v: string) =>
      admin('POST', 'seed', {
        ...(s.bucket ? { buckets: { photos: { k: v } } } : {}),
        ...(s.dns ? { zones: { 'example.com': [{ type: 'TXT', name: v, content: v }] } } : {}),
      });
    await seedOne('one');
    const snap = await admin('POST', 'snapshot');
    expect(snap.status).toBe(200);
    expect(snap.body.id).toEqual(expect.any(String));
    await admin('POST', 'reset');
    await seedOne('two');
    expect((await admin('POST', 'restore', { id: snap.body.id })).status).toBe(200);
    if (s.bucket) expect(await text('k')).toBe('one');
    if (s.dns) expect(names().filter((n) => n.startsWith('one.') || n.startsWith('two.'))).toEqual(['one.example.com']);
    const unknown = await admin('POST', 'restore', { id: 'no-such-snapshot' });
    expect([unknown.status, unknown.body.error.message]).toEqual([404, 'restore: no snapshot "no-such-snapshot"']);
    expect((await admin('POST', 'restore', { id: 7 })).status).toBe(400);
    expect((await admin('POST', 'restore', {})).status).toBe(400);
    if (s.bucket) expect(await text('k')).toBe('one');
  });

  it('POST faults adds a rule (its id answered); DELETE faults/<id> removes it; DELETE faults removes every one', async () => {
    if (s.bucket) {
      const rule = await admin('POST', 'faults', { op: 'put', times: 5, error: 'internal' });
      expect(rule.status).toBe(200);
      await expect(s.bucket().put('x', 'y')).rejects.toThrow(/internal error/i);
      expect((await admin('GET', 'faults')).body).toEqual([
        expect.objectContaining({ id: rule.body.id, kind: 'bucket', hits: 1, remaining: 4 }),
      ]);
      expect((await admin('DELETE', `faults/${rule.body.id}`)).status).toBe(200);
      await expect(s.bucket().put('x', 'y')).resolves.toBeTruthy();
      expect((await admin('DELETE', `faults/${rule.body.id}`)).status).toBe(404);
    }
    if (s.dns) {
      const rule = await admin('POST', 'faults', {
        method: 'GET',
        path: 'zones/*/dns_records',
        status: 429,
        times: 10,
      });
      expect(rule.status).toBe(200);
      expect((await apiFetch(`zones/${zoneId()}/dns_records`)).status).toBe(429);
      expect((await admin('DELETE', 'faults')).body).toEqual({ removed: 'all' });
      expect((await apiFetch(`zones/${zoneId()}/dns_records`)).status).toBe(200);
    }
  });

  it.each<[string, Record<string, unknown>]>([
    ['a bucket rule with an unknown error', { op: 'put', error: 'nope' }],
    ['a bucket rule for an unknown bucket', { op: 'put', bucket: 'nope' }],
    ['a rule with a probability above 1', { op: 'put', probability: 2 }],
    ['a rule whose times is text', { op: 'put', times: 'twice' }],
    ['an API rule answering 200', { method: 'GET', status: 200 }],
    ['a rule with an unknown field', { op: 'put', colour: 'red' }],
    ['a rule for an unknown queue', { queue: 'nope' }],
  ])('POST faults with %s is a 4xx and adds no rule', async (_what, body) => {
    const r = await admin('POST', 'faults', body);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.body.error.message).toEqual(expect.stringMatching(/^faults/));
    expect((await admin('GET', 'faults')).body).toEqual([]);
    if (s.bucket) expect(s.bucket().faults.list()).toEqual([]);
    if (s.dns) expect(s.dns.faults.list()).toEqual([]);
  });

  it('GET log: the calls of every surface, filtered by surface, op, bucket, zone and since; a bad filter is 400', async () => {
    if (s.bucket) await s.bucket().put('logged', 'v');
    if (s.dns) expect((await apiFetch(`zones/${zoneId()}/dns_records`)).status).toBe(200);
    const all = (await admin('GET', 'log')).body as Record<string, unknown>[];
    if (s.bucket)
      expect(all).toContainEqual(
        expect.objectContaining({ surface: 'binding', op: 'put', bucket: 'photos', key: 'logged', status: 'ok' }),
      );
    if (s.dns)
      expect(all).toContainEqual(
        expect.objectContaining({ surface: 'api', op: 'GET', zone: 'example.com', status: 200 }),
      );
    if (s.bucket) {
      const puts = (await admin('GET', 'log?surface=binding&op=put&bucket=photos')).body;
      expect(puts.map((e: { key: string }) => e.key)).toEqual(['logged']);
    }
    if (s.dns) {
      const api = (await admin('GET', 'log?zone=example.com')).body;
      expect(api.length).toBeGreaterThan(0);
      expect(api.every((e: { surface: string }) => e.surface === 'api')).toBe(true);
    }
    clock.advance(1000);
    const later = new Date(clock.now()).toISOString();
    expect((await admin('GET', `log?since=${encodeURIComponent(later)}`)).body).toEqual([]);
    expect((await admin('GET', `log?since=${clock.now() - 1000}`)).body.length).toBe(all.length);
    expect((await admin('GET', 'log?colour=red')).status).toBe(400);
    expect((await admin('GET', 'log?since=yesterday')).status).toBe(400);
    expect((await admin('GET', 'log?zone=other.example')).status).toBe(404);
  });

  it('POST clock moves the manual clock (advance, set); bad input is 400 and leaves it', async () => {
    const before = clock.now();
    const moved = await admin('POST', 'clock', { advance: DAY });
    expect([moved.status, moved.body.now]).toEqual([200, new Date(before + DAY).toISOString()]);
    const set = await admin('POST', 'clock', { set: '2030-05-01T12:00:00Z' });
    expect(set.body.now).toBe('2030-05-01T12:00:00.000Z');
    for (const bad of [
      { advance: -1 },
      { advance: 'a day' },
      { set: 'someday' },
      { advance: 1, set: '2030-01-01T00:00:00Z' },
      {},
    ]) {
      expect((await admin('POST', 'clock', bad)).status).toBe(400);
    }
    expect(clock.now()).toBe(Date.parse('2030-05-01T12:00:00Z'));
  });
});

describe('test support over HTTP: the clock, the token, and what the API server adds', () => {
  it('POST clock on a server without --clock manual is 409', async () => {
    const s = await startS3Server({ buckets: { photos: new Bucket() } });
    try {
      const r = await call(s.origin, 'POST', 'clock', { advance: 1 });
      expect([r.status, r.body.error.message]).toEqual([409, expect.stringContaining('--clock manual')]);
      expect((await call(s.origin, 'GET', 'health')).body.clock.mode).toBe('system');
    } finally {
      await s.close();
    }
  });

  it('with an admin token, only requests that send it are answered', async () => {
    const s = await startDnsServer({ zones: [{ name: 'example.com' }], adminToken: 'letmein-please' });
    try {
      expect((await call(s.origin, 'GET', 'health')).status).toBe(401);
      expect((await call(s.origin, 'GET', 'health', undefined, { authorization: 'Bearer wrong-token!' })).status).toBe(
        401,
      );
      expect(
        (await call(s.origin, 'GET', 'health', undefined, { authorization: 'Bearer letmein-please' })).status,
      ).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('off a loopback address the endpoints answer 403 without a token, and the surface still answers', async () => {
    const s = await startApiServer({ host: '0.0.0.0' });
    try {
      const local = `http://127.0.0.1:${s.port}`;
      const r = await call(local, 'POST', 'reset');
      expect([r.status, r.body.error.message]).toEqual([403, expect.stringContaining('--admin-token')]);
      expect((await fetch(`${local}/client/v4/zones`, { headers: { authorization: 'Bearer x' } })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('api serve: a lifecycle rule set through the API acts when the clock moves past it; log shows the deletion', async () => {
    const clock = new ManualClock(START);
    const s = await startApiServer({ buckets: ['photos'], clock });
    try {
      const bucket = s.api.account.bucket('photos')!;
      await call(s.origin, 'POST', 'seed', { buckets: { photos: { 'logs/a': 'old', keep: 'k' } } });
      const put = await fetch(`${s.baseURL}/accounts/${s.api.account.id}/r2/buckets/photos/lifecycle`, {
        method: 'PUT',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({
          rules: [
            {
              id: 'expire-logs',
              enabled: true,
              conditions: { prefix: 'logs/' },
              deleteObjectsTransition: { condition: { type: 'Age', maxAge: 86400 } },
            },
          ],
        }),
      });
      expect(put.status).toBe(200);
      expect(await bucket.head('logs/a')).not.toBeNull();
      await call(s.origin, 'POST', 'clock', { advance: 2 * DAY });
      expect(await bucket.head('logs/a')).toBeNull();
      expect(await bucket.head('keep')).not.toBeNull();
      const lifecycle = (await call(s.origin, 'GET', 'log?surface=lifecycle')).body;
      expect(lifecycle).toEqual([expect.objectContaining({ op: 'delete', key: 'logs/a', bucket: 'photos' })]);
    } finally {
      await s.close();
    }
  });

  it('api serve: seeds a queue and logs its sends; a bucket made through the API logs too', async () => {
    const s = await startApiServer({});
    try {
      const auth = { authorization: 'Bearer t', 'content-type': 'application/json' };
      const base = `${s.baseURL}/accounts/${s.api.account.id}`;
      expect(
        (await fetch(`${base}/queues`, { method: 'POST', headers: auth, body: JSON.stringify({ queue_name: 'jobs' }) }))
          .status,
      ).toBe(200);
      expect(
        (await fetch(`${base}/r2/buckets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'later' }) }))
          .status,
      ).toBe(200);
      expect((await call(s.origin, 'GET', 'health')).body).toMatchObject({ queues: ['jobs'], buckets: ['later'] });
      expect((await call(s.origin, 'POST', 'seed', { queues: { jobs: [{ n: 1 }, 'two'] } })).body).toEqual({
        buckets: 0,
        records: 0,
        messages: 2,
      });
      await s.api.account.bucket('later')!.put('k', 'v');
      const log = (await call(s.origin, 'GET', 'log')).body as {
        surface: string;
        op: string;
        queue?: string;
        bucket?: string;
      }[];
      expect(log.filter((e) => e.surface === 'queue').map((e) => [e.op, e.queue])).toEqual([
        ['send', 'jobs'],
        ['send', 'jobs'],
      ]);
      expect(log).toContainEqual(expect.objectContaining({ surface: 'binding', bucket: 'later', op: 'put' }));
      expect((await call(s.origin, 'POST', 'seed', { queues: { nope: [] } })).status).toBe(404);
    } finally {
      await s.close();
    }
  });

  it.each([
    ['dns serve', startDnsServer],
    ['api serve', startApiServer],
  ])(
    "%s: POST seed follows the zone's plan: 201 records into an Enterprise zone are seeded, as the API takes them",
    async (_name, start) => {
      const s = await start({ zones: [{ name: 'big.example', plan: 'enterprise' }, { name: 'small.example' }] });
      try {
        const records = (n: number) =>
          Array.from({ length: n }, (_, i) => ({ type: 'A', name: `h${i}`, content: `198.51.100.${i % 250}` }));
        const big = await call(s.origin, 'POST', 'seed', { zones: { 'big.example': records(201) } });
        expect([big.status, big.body.records]).toEqual([200, 201]);
        expect(s.api.records('big.example')).toHaveLength(201);
        // A Free zone's quota is 200: the same seed is refused there, and nothing is seeded.
        const small = await call(s.origin, 'POST', 'seed', { zones: { 'small.example': records(201) } });
        expect([small.status, small.body.error.message]).toEqual([400, expect.stringContaining('quota')]);
        expect(s.api.records('small.example')).toHaveLength(0);
      } finally {
        await s.close();
      }
    },
  );

  it('the CLI: --clock manual=<ISO> starts there and says so; a bad --clock or a short --admin-token is refused', async () => {
    const out: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const io: CliIo = { out: (l) => out.push(l), err: () => {}, stopped: () => stopped };
    const running = runCli(
      ['r2', 'serve', '--port', '0', '--bucket', 'photos', '--clock', 'manual=2026-01-01T00:00:00Z'],
      io,
    );
    for (let i = 0; i < 300 && !out.some((l) => l.startsWith('state:')); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(out).toContain('clock: manual, now 2026-01-01T00:00:00.000Z');
    const origin = /listening on (\S+)/.exec(out[0]!)![1]!;
    expect(out).toContain(`test support: ${origin}/_edge-doubles/`);
    expect((await call(origin, 'POST', 'clock', { advance: DAY })).body.now).toBe('2026-01-02T00:00:00.000Z');
    stop();
    expect(await running).toBe(0);
    const quiet: CliIo = { out: () => {}, err: () => {}, stopped: () => Promise.resolve() };
    await expect(runCli(['dns', 'serve', '--clock', 'manual=someday'], quiet)).rejects.toThrow(
      '--clock manual=<ISO time>',
    );
    await expect(runCli(['api', 'serve', '--clock', 'fast'], quiet)).rejects.toThrow(
      '--clock must be system, manual or manual=<ISO time>',
    );
    await expect(runCli(['api', 'serve', '--admin-token', 'short'], quiet)).rejects.toThrow('at least 8 characters');
  });
});
