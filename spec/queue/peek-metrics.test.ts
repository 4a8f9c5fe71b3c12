/**
 * The Queues API's looks that take nothing out of delivery, and the figures it reports
 * (cloudflare/api-schemas 2026-08-14): peek and preview (lib/queue/peek.ts), the delete of peeked
 * messages by ref, lease extension, the purge status and the queue's metrics (lib/queue/consumers.ts).
 */
import Cloudflare from 'cloudflare';
import { describe, expect, it } from 'vitest';
import { CloudflareApi, ManualClock } from 'edge-doubles';
import { accountState } from '../../lib/account/state.js';
import { QUEUES } from '../../lib/queue/backend.js';

const AUTH = { authorization: `Bearer ${'t'.repeat(40)}`, 'content-type': 'application/json' };
const START = Date.parse('2026-11-28T06:00:00Z');

async function setup() {
  const clock = new ManualClock(START);
  const api = new CloudflareApi({ clock });
  const base = `https://api.cloudflare.com/client/v4/accounts/${api.account.id}/queues`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await api.fetch(`${base}${path}`, {
      method,
      headers: AUTH,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
    return { status: res.status, body: (await res.json()) as { result: any; errors: { code: number }[] } };
  };
  const id = (await call('POST', '', { queue_name: 'jobs' })).body.result.queue_id as string;
  const queue = accountState(api.account).backend(QUEUES).get('jobs')!;
  const send = (...bodies: string[]) =>
    call('POST', `/${id}/messages/batch`, { messages: bodies.map((body) => ({ body, content_type: 'text' })) });
  const peek = async (batch_size?: number) =>
    (await call('POST', `/${id}/messages/peek`, batch_size === undefined ? {} : { batch_size })).body.result
      .messages as { id: string; body: string; attempts: number; ref: string; timestamp_ms: number }[];
  const pull = async (body: Record<string, unknown> = {}) =>
    (await call('POST', `/${id}/messages/pull`, body)).body.result.messages as {
      id: string;
      body: string;
      attempts: number;
      lease_id: string;
    }[];
  const pullConsumer = () => call('POST', `/${id}/consumers`, { type: 'http_pull' });
  return { api, clock, call, id, queue, send, peek, pull, pullConsumer };
}

describe('messages/peek', () => {
  it('shows the visible messages oldest first, as a pull shows them, with a ref, and takes none of them', async () => {
    const { send, peek, queue, clock } = await setup();
    await send('a', 'b');
    clock.advance(1000);
    await send('c');
    const seen = await peek();
    expect(seen).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        body: 'a',
        attempts: 1,
        timestamp_ms: START,
        ref: expect.any(String),
        metadata: { 'CF-Content-Type': 'text' },
      },
      expect.objectContaining({ body: 'b', timestamp_ms: START }),
      expect.objectContaining({ body: 'c', timestamp_ms: START + 1000 }),
    ]);
    expect((await peek(2)).map((m) => m.body)).toEqual(['a', 'b']);
    expect(queue.pending.map((m) => m.body)).toEqual(['a', 'b', 'c']);
  });

  it('never shows a delayed message, nor one a pull leased; shows a pulled batch not yet leased', async () => {
    const { call, id, send, peek, pull, pullConsumer } = await setup();
    await pullConsumer();
    await send('a', 'b', 'c');
    await call('POST', `/${id}/messages`, { body: 'later', content_type: 'text', delay_seconds: 60 });
    expect((await pull({ batch_size: 1 })).map((m) => m.body)).toEqual(['a']);
    expect((await peek()).map((m) => m.body)).toEqual(['b', 'c']);
    // The messages peeked are the ones the next pull takes.
    expect((await pull({ batch_size: 2 })).map((m) => m.body)).toEqual(['b', 'c']);
  });

  it('runs through the SDK (client.queues.messages.peek) and refuses a batch_size outside 1–100', async () => {
    const { api, id, send, call } = await setup();
    await send('x');
    const client = new Cloudflare({ apiToken: 't'.repeat(40), fetch: api.fetch, maxRetries: 0 });
    const r = await client.queues.messages.peek(id, { account_id: api.account.id, batch_size: 5 });
    expect(r.messages?.map((m) => m.body)).toEqual(['x']);
    for (const batch_size of [0, 101, 'ten']) {
      const refused = await call('POST', `/${id}/messages/peek`, { batch_size });
      expect(refused.status, String(batch_size)).toBe(400);
      expect(refused.body.errors[0]!.code).toBe(10207);
    }
  });
});

describe('messages/purge: deleting peeked messages by ref', () => {
  it('takes the messages out, wherever they wait, without a retry; an unknown ref is a warning', async () => {
    const { call, id, send, peek, queue } = await setup();
    await send('a', 'b', 'c');
    const [a, , c] = await peek();
    const r = await call('POST', `/${id}/messages/purge`, {
      refs: [{ ref: a!.ref }, { ref: c!.ref }, { ref: 'nope' }],
    });
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({ errors: [], warnings: { nope: expect.any(String) } });
    expect(queue.pending.map((m) => m.body)).toEqual(['b']);
    const again = await call('POST', `/${id}/messages/purge`, { refs: [{ ref: a!.ref }] });
    expect(Object.keys(again.body.result.warnings)).toEqual([a!.ref]);
  });

  it("settles a message a pull consumer's batch holds, so the batch does not give it back", async () => {
    const { call, id, send, peek, pull, pullConsumer, queue, clock } = await setup();
    await pullConsumer();
    await send('a', 'b');
    const [leased] = await pull({ batch_size: 1, visibility_timeout_ms: 1000 });
    const refs = (await peek()).map((m) => m.ref); // 'b', held in the batch, not leased
    await call('POST', `/${id}/messages/purge`, { refs: refs.map((ref) => ({ ref })) });
    // Ack 'a': the batch is settled, and 'b' (purged) does not come back.
    await call('POST', `/${id}/messages/ack`, { acks: [{ lease_id: leased!.lease_id }] });
    clock.advance(60_000);
    expect(queue.pending).toEqual([]);
    expect(await pull()).toEqual([]);
  });

  it("refuses a body without refs or a ref, as the schema's request", async () => {
    const { call, id, send, queue } = await setup();
    await send('a');
    for (const body of [{}, { refs: 'x' }, { refs: [{}] }, { refs: [{ ref: 7 }] }]) {
      const r = await call('POST', `/${id}/messages/purge`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0]!.code).toBe(10207);
    }
    expect(queue.pending).toHaveLength(1);
  });

  it('messages/preview shows the same messages with the ref as lease_id; preview/ack deletes the acked ones', async () => {
    const { call, id, send, queue } = await setup();
    await send('a', 'b');
    const shown = (await call('POST', `/${id}/messages/preview`, {})).body.result.messages as {
      body: string;
      lease_id: string;
    }[];
    expect(shown.map((m) => m.body)).toEqual(['a', 'b']);
    const r = await call('POST', `/${id}/messages/preview/ack`, {
      acks: [{ lease_id: shown[0]!.lease_id }],
      retries: [{ lease_id: shown[1]!.lease_id, delay_seconds: 5 }],
    });
    expect(r.body.result).toEqual({ warnings: {} });
    expect(queue.pending.map((m) => m.body)).toEqual(['b']);
  });
});

describe('messages/extend', () => {
  it("moves a lease's end by the visibility timeout, keeping its id and the message's attempts", async () => {
    const { call, id, send, pull, pullConsumer, clock } = await setup();
    await pullConsumer();
    await send('a');
    const [m] = await pull({ visibility_timeout_ms: 1000 });
    clock.advance(900);
    const r = await call('POST', `/${id}/messages/extend`, {
      extend: [{ lease_id: m!.lease_id }, { lease_id: 'gone' }],
      visibility_timeout_ms: 5000,
    });
    expect(r.body.result).toEqual({ extendCount: 1, warnings: { gone: expect.any(String) } });
    clock.advance(4000); // past the first lease's end, within the extended one
    expect(await pull()).toEqual([]);
    const acked = await call('POST', `/${id}/messages/ack`, { acks: [{ lease_id: m!.lease_id }] });
    expect(acked.body.result).toMatchObject({ ackCount: 1 });
  });

  it('without an extension the lease ends and the message comes back with an attempt spent', async () => {
    const { send, pull, pullConsumer, clock } = await setup();
    await pullConsumer();
    await send('a');
    await pull({ visibility_timeout_ms: 1000 });
    clock.advance(4900);
    expect((await pull()).map((m) => [m.body, m.attempts])).toEqual([['a', 2]]);
  });

  it('needs an HTTP pull consumer, and entries whose lease_id is a string', async () => {
    const { call, id, pullConsumer } = await setup();
    expect((await call('POST', `/${id}/messages/extend`, { extend: [] })).body.errors[0]!.code).toBe(11008);
    await pullConsumer();
    const r = await call('POST', `/${id}/messages/extend`, { extend: [{ lease_id: 1 }] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]!.code).toBe(10207);
  });
});

describe('GET purge: the purge status', () => {
  it('is {} before a purge, then the purge moment and completed "true"; a snapshot holds it', async () => {
    const { api, call, id, send, clock } = await setup();
    const snap = api.snapshot();
    expect((await call('GET', `/${id}/purge`)).body.result).toEqual({});
    await send('a');
    clock.advance(5000);
    await call('POST', `/${id}/purge`, { delete_messages_permanently: true });
    expect((await call('GET', `/${id}/purge`)).body.result).toEqual({
      started_at: new Date(START + 5000).toISOString(),
      completed: 'true',
    });
    api.restore(snap);
    expect((await call('GET', `/${id}/purge`)).body.result).toEqual({});
  });
});

describe('GET metrics', () => {
  it("counts what the queue holds and what a pull consumer's batch holds unsettled; 0 when empty", async () => {
    const { call, id, send, pull, pullConsumer, clock } = await setup();
    expect((await call('GET', `/${id}/metrics`)).body.result).toEqual({
      backlog_count: 0,
      backlog_bytes: 0,
      oldest_message_timestamp_ms: 0,
    });
    await pullConsumer();
    await send('aaaa', 'bb');
    clock.advance(10);
    await send('c');
    const [first] = await pull({ batch_size: 1 });
    const metrics = (await call('GET', `/${id}/metrics`)).body.result;
    expect(metrics).toEqual({ backlog_count: 3, backlog_bytes: 7, oldest_message_timestamp_ms: START });
    await call('POST', `/${id}/messages/ack`, { acks: [{ lease_id: first!.lease_id }] });
    expect((await call('GET', `/${id}/metrics`)).body.result).toMatchObject({ backlog_count: 2, backlog_bytes: 3 });
  });
});
