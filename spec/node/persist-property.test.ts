/**
 * A property of `api serve --persist DIR` (issue 34): random operations on its surfaces (R2 objects
 * and a bucket's CORS through the API, DNS records, queue messages), four clients at once, the
 * server killed with SIGKILL at a random moment, started again on DIR, three times over. After each
 * restart, what was answered is there, whole, and nothing else: the one request each client had in
 * flight at the kill may have happened or not, nothing more.
 *
 * Each client owns its keys and names, so its operations on them are in order: a key's state is the
 * last answered write to it, or the write that was in flight. Seeded (EDGE_DOUBLES_PROPERTY_SEED);
 * the seed is in the test's name.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { node, start, type Served } from '../helpers/persisted-server.js';

const SEED = Number(process.env.EDGE_DOUBLES_PROPERTY_SEED ?? 20261129);
const ROUNDS = 3;
const CLIENTS = 4;
const md5 = (b: Uint8Array | string) => createHash('md5').update(b).digest('hex');

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n) };
}

/** What one client's answered operations say is stored, and the one operation that may or may not be. */
interface Model {
  /** key → md5 of the bytes, for the objects the client wrote last. */
  objects: Map<string, string>;
  /** record name → content. */
  records: Map<string, string>;
  /** record name → id, to delete it. */
  ids: Map<string, string>;
  /** Message bodies answered as sent. */
  messages: Set<string>;
  /** The request in flight when the server died: what it would have changed. */
  maybe?:
    | { kind: 'object'; key: string; md5: string | undefined }
    | { kind: 'record'; name: string; content: string | undefined }
    | { kind: 'message'; body: string };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const maybe = node.missing ? describe.skip : describe;

maybe(`api serve --persist, killed at random moments${node.missing ? ` (skipped: ${node.missing})` : ''}`, () => {
  it(`keeps exactly what was answered (seed ${SEED})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-doubles-property-'));
    dirs.push(dir);
    const random = rng(SEED);
    const models: Model[] = Array.from({ length: CLIENTS }, () => ({
      objects: new Map(),
      records: new Map(),
      ids: new Map(),
      messages: new Set(),
    }));
    let server = await start(['api', 'serve', '--zone', 'example.com', '--bucket', 'photos', '--persist', dir]);
    const account = server.lines.find((l) => l.startsWith('account '))!.split(' ')[1]!;
    const zone = server.lines.find((l) => l.startsWith('zone example.com '))!.split(' ')[2]!;
    const v4 = (s: Served, path: string, init: RequestInit = {}) =>
      fetch(`${s.origin}/client/v4${path}`, {
        ...init,
        headers: { authorization: 'Bearer any-token', ...(init.headers as Record<string, string>) },
      });
    const json = (body: unknown) => ({
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    const created = await (
      await v4(server, `/accounts/${account}/queues`, { method: 'POST', ...json({ queue_name: 'jobs' }) })
    ).json();
    const queue = (created as { result: { queue_id: string } }).result.queue_id;
    await v4(server, `/accounts/${account}/queues/${queue}/consumers`, {
      method: 'POST',
      ...json({ type: 'http_pull' }),
    });
    const objectPath = (key: string) => `/accounts/${account}/r2/buckets/photos/objects/${encodeURIComponent(key)}`;

    try {
      for (let round = 0; round < ROUNDS; round++) {
        let killed = false;
        let answered = 0;
        const client = async (c: number) => {
          const m = models[c]!;
          for (let i = 0; !killed; i++) {
            const pick = random.int(10);
            try {
              if (pick < 4) {
                const key = `c${c}/k${random.int(6)}`;
                const body = `${round}-${i}-${'x'.repeat(random.int(3000))}`;
                m.maybe = { kind: 'object', key, md5: md5(body) };
                const r = await v4(server, objectPath(key), { method: 'PUT', body });
                if (r.ok) m.objects.set(key, md5(body));
              } else if (pick < 5) {
                const key = `c${c}/k${random.int(6)}`;
                m.maybe = { kind: 'object', key, md5: undefined };
                const r = await v4(server, objectPath(key), { method: 'DELETE' });
                if (r.ok) m.objects.delete(key);
              } else if (pick < 7) {
                const name = `c${c}-r${random.int(5)}.example.com`;
                const content = `198.51.100.${random.int(250)}`;
                const id = m.ids.get(name);
                m.maybe = { kind: 'record', name, content };
                const r = id
                  ? await v4(server, `/zones/${zone}/dns_records/${id}`, {
                      method: 'PATCH',
                      ...json({ content }),
                    })
                  : await v4(server, `/zones/${zone}/dns_records`, {
                      method: 'POST',
                      ...json({ type: 'A', name, content, ttl: 300 }),
                    });
                const answer = (await r.json()) as { success: boolean; result: { id: string } };
                if (answer.success) {
                  m.records.set(name, content);
                  m.ids.set(name, answer.result.id);
                }
              } else if (pick < 8) {
                const name = [...m.ids.keys()][random.int(m.ids.size)];
                if (name === undefined) continue;
                m.maybe = { kind: 'record', name, content: undefined };
                const r = await v4(server, `/zones/${zone}/dns_records/${m.ids.get(name)}`, { method: 'DELETE' });
                if (r.ok) {
                  m.records.delete(name);
                  m.ids.delete(name);
                }
              } else {
                const body = `c${c}-m${round}-${i}`;
                m.maybe = { kind: 'message', body };
                const r = await v4(server, `/accounts/${account}/queues/${queue}/messages`, {
                  method: 'POST',
                  ...json({ body, content_type: 'text' }),
                });
                if (r.ok) m.messages.add(body);
              }
              m.maybe = undefined;
              answered++;
            } catch {
              return; // the connection died with the server: m.maybe is in flight
            }
          }
        };
        const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
        const killAfter = 20 + random.int(80);
        while (answered < killAfter) await new Promise((r) => setTimeout(r, 2));
        killed = true;
        await server.stop('SIGKILL');
        await Promise.all(clients);

        server = await start(['api', 'serve', '--persist', dir]);
        await check(server, account, zone, queue, models, v4);
      }
    } finally {
      await server.stop();
    }
  }, 180_000);
});

async function check(
  s: Served,
  account: string,
  zone: string,
  queue: string,
  models: Model[],
  v4: (s: Served, path: string, init?: RequestInit) => Promise<Response>,
): Promise<void> {
  // Objects: every key a client wrote, as it last answered (or as its write in flight left it).
  const listed = (await (await v4(s, `/accounts/${account}/r2/buckets/photos/objects?per_page=1000`)).json()) as {
    result: { key: string }[];
  };
  const keys = new Set(listed.result.map((o) => o.key));
  for (const m of models) {
    const inFlight = m.maybe?.kind === 'object' ? m.maybe : undefined;
    const owned = new Set([...m.objects.keys(), ...(inFlight ? [inFlight.key] : [])]);
    for (const key of owned) {
      const r = await v4(s, `/accounts/${account}/r2/buckets/photos/objects/${encodeURIComponent(key)}`);
      const got = r.status === 200 ? md5(new Uint8Array(await r.arrayBuffer())) : undefined;
      const allowed = new Set([m.objects.get(key), ...(inFlight?.key === key ? [inFlight.md5] : [])]);
      expect(allowed, `object ${key}`).toContain(got);
      if (got !== undefined) keys.delete(key);
      // Settle the model on what is there, for the next round.
      if (got === undefined) m.objects.delete(key);
      else m.objects.set(key, got);
    }
  }
  expect([...keys], 'objects no client answered').toEqual([]);

  // Records: the same, by name.
  const records = (await (await v4(s, `/zones/${zone}/dns_records?per_page=5000`)).json()) as {
    result: { id: string; name: string; type: string; content: string }[];
  };
  const byName = new Map(records.result.filter((r) => r.type === 'A').map((r) => [r.name, r]));
  for (const m of models) {
    const inFlight = m.maybe?.kind === 'record' ? m.maybe : undefined;
    for (const name of new Set([...m.records.keys(), ...(inFlight ? [inFlight.name] : [])])) {
      const got = byName.get(name);
      const allowed = new Set([m.records.get(name), ...(inFlight?.name === name ? [inFlight.content] : [])]);
      expect(allowed, `record ${name}`).toContain(got?.content);
      byName.delete(name);
      if (got) {
        m.records.set(name, got.content);
        m.ids.set(name, got.id);
      } else {
        m.records.delete(name);
        m.ids.delete(name);
      }
    }
  }
  expect([...byName.keys()], 'records no client answered').toEqual([]);

  // Messages: every one answered as sent is there; the only others are those in flight.
  const bodies = new Set<string>();
  for (;;) {
    const pulled = (await (
      await v4(s, `/accounts/${account}/queues/${queue}/messages/pull`, {
        method: 'POST',
        body: JSON.stringify({ batch_size: 100, visibility_timeout_ms: 60_000 }),
        headers: { 'content-type': 'application/json' },
      })
    ).json()) as { result: { messages: { body: string }[] } };
    if (pulled.result.messages.length === 0) break;
    for (const m of pulled.result.messages) bodies.add(m.body);
  }
  for (const m of models) {
    for (const body of m.messages) expect(bodies.has(body), `message ${body}`).toBe(true);
    if (m.maybe?.kind === 'message' && bodies.has(m.maybe.body)) m.messages.add(m.maybe.body);
    for (const body of m.messages) bodies.delete(body);
    m.maybe = undefined;
  }
  expect([...bodies], 'messages no client answered').toEqual([]);
}
