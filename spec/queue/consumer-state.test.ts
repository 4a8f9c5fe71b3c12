/**
 * The Queues API's consumers as account state (issue 24 point 5, issue 28 point 3): the consumer a
 * queue has over the API is in the account's snapshot, so restore and reset bring it back, and the
 * queue's delivery follows (lib/queue/pull-consumer.ts); purge deletes messages and nothing else;
 * removing an HTTP pull consumer gives its held batch back to the queue.
 */
import { describe, expect, it } from 'vitest';
import { CloudflareApi, ManualClock } from 'edge-doubles';
import { accountState } from '../../lib/account/state.js';
import { QUEUES } from '../../lib/queue/backend.js';

const AUTH = { authorization: `Bearer ${'t'.repeat(40)}`, 'content-type': 'application/json' };

async function setup() {
  const clock = new ManualClock(Date.parse('2026-11-28T06:00:00Z'));
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
  const consumers = async () =>
    (await call('GET', `/${id}/consumers`)).body.result.map(
      (c: { consumer_id: string; type: string }) => `${c.type} ${c.consumer_id}`,
    );
  const send = (...bodies: string[]) =>
    call('POST', `/${id}/messages/batch`, { messages: bodies.map((body) => ({ body, content_type: 'text' })) });
  const pull = async (batch_size = 10) =>
    (await call('POST', `/${id}/messages/pull`, { batch_size })).body.result.messages as {
      body: string;
      attempts: number;
      lease_id: string;
    }[];
  return { api, clock, call, id, queue, consumers, send, pull };
}

describe('the API consumer is account state: snapshot, restore and reset cover it', () => {
  it('a pull consumer added after the snapshot is gone after restore, and a new consumer can be added', async () => {
    const { api, call, id, queue, consumers, send, pull } = await setup();
    const before = await consumers();
    const snap = api.snapshot();
    const added = await call('POST', `/${id}/consumers`, { type: 'http_pull' });
    expect(added.status).toBe(200);
    await send('a', 'b');
    expect((await pull(1)).map((m) => m.body)).toEqual(['a']); // a batch held, one leased
    api.restore(snap);
    expect(await consumers()).toEqual(before);
    expect(queue.consumerSettings).toBeUndefined(); // the pull handler is detached, not only unlisted
    expect((await call('POST', `/${id}/messages/pull`, {})).status).toBe(400); // no http_pull consumer
    // A new consumer: refused before the fix (the queue still had the old handler), taken now, and it reads.
    const again = await call('POST', `/${id}/consumers`, { type: 'http_pull' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await send('c');
    expect((await pull()).map((m) => [m.body, m.attempts])).toEqual([['c', 1]]);
  });

  it('a consumer removed after the snapshot is back after restore, and pulls again', async () => {
    const { api, call, id, consumers, send, pull } = await setup();
    const c = (await call('POST', `/${id}/consumers`, { type: 'http_pull', settings: { batch_size: 3 } })).body.result;
    await send('kept');
    const before = await consumers();
    const snap = api.snapshot();
    await call('PUT', `/${id}/consumers/${c.consumer_id}`, { type: 'http_pull', settings: { batch_size: 7 } });
    await call('DELETE', `/${id}/consumers/${c.consumer_id}`);
    expect(await consumers()).toEqual([]);
    api.restore(snap);
    expect(await consumers()).toEqual(before);
    expect((await call('GET', `/${id}/consumers/${c.consumer_id}`)).body.result.settings).toEqual({ batch_size: 3 });
    expect((await pull()).map((m) => m.body)).toEqual(['kept']);
  });

  it("a restore while a batch is held forgets the batch: the snapshot's messages are pulled afresh", async () => {
    const { api, call, id, send, pull } = await setup();
    await call('POST', `/${id}/consumers`, { type: 'http_pull' });
    await send('x', 'y');
    const snap = api.snapshot();
    expect((await pull(1)).map((m) => m.body)).toEqual(['x']);
    api.restore(snap);
    expect((await pull()).map((m) => [m.body, m.attempts])).toEqual([
      ['x', 1],
      ['y', 1],
    ]);
  });

  it('a snapshot taken while a batch is held holds its messages: acked after it, they are back after restore', async () => {
    const { api, call, id, send, pull } = await setup();
    await call('POST', `/${id}/consumers`, { type: 'http_pull' });
    await send('p', 'q');
    const first = await pull(1);
    expect(first.map((m) => m.body)).toEqual(['p']);
    const snap = api.snapshot(); // 'p' leased, 'q' in the held batch: neither in the queue's store
    const rest = await pull();
    await call('POST', `/${id}/messages/ack`, { acks: [...first, ...rest].map((m) => ({ lease_id: m.lease_id })) });
    expect(await pull()).toEqual([]);
    api.restore(snap);
    expect((await pull()).map((m) => [m.body, m.attempts])).toEqual([
      ['p', 1],
      ['q', 1],
    ]);
  });

  it('reset empties the queue and keeps its consumer (configuration); a held batch is forgotten', async () => {
    const { api, call, id, consumers, send, pull } = await setup();
    await call('POST', `/${id}/consumers`, { type: 'http_pull' });
    const listed = await consumers();
    await send('old-1', 'old-2');
    expect((await pull(1)).map((m) => m.body)).toEqual(['old-1']);
    api.reset();
    expect(await consumers()).toEqual(listed);
    expect(await pull()).toEqual([]); // not the held batch's 'old-2'
    await send('new');
    expect((await pull()).map((m) => m.body)).toEqual(['new']);
  });
});

describe('purge deletes messages only', () => {
  it("the queue's fault rules and call log stay; its consumer and settings too", async () => {
    const { call, id, queue, consumers, send, pull } = await setup();
    await call('PATCH', `/${id}`, { settings: { delivery_delay: 0 } });
    await call('POST', `/${id}/consumers`, { type: 'http_pull' });
    const listed = await consumers();
    queue.log.start();
    await send('a', 'b');
    expect((await pull(1)).map((m) => m.body)).toEqual(['a']); // one held in a batch, one not
    await send('c');
    const fault = queue.faults.add({ op: ['send', 'sendBatch'], times: 1 });
    const logged = queue.log.length;
    expect(logged).toBeGreaterThan(0);
    expect((await call('POST', `/${id}/purge`, { delete_messages_permanently: true })).status).toBe(200);
    expect(queue.pending).toEqual([]);
    expect(await pull()).toEqual([]);
    expect(queue.log.length).toBe(logged);
    expect(queue.faults.list()).toEqual([fault]);
    expect(await consumers()).toEqual(listed);
    // The rule still acts: the next send fails, the one after it is held.
    expect((await send('lost')).status).toBe(400);
    expect((await send('d')).status).toBe(200);
    expect((await pull()).map((m) => m.body)).toEqual(['d']);
  });
});

describe('the Queues API answers and refuses as production and the schema say (issue 35)', () => {
  it("purge answers the queue (the schema's queues-purge response, the SDK's purge.start(): Queue)", async () => {
    const { call, id, send } = await setup();
    await send('a');
    const purged = await call('POST', `/${id}/purge`, { delete_messages_permanently: true });
    expect(purged.status).toBe(200);
    expect(purged.body.result).toEqual((await call('GET', `/${id}`)).body.result);
    expect(purged.body.result).toMatchObject({ queue_id: id, queue_name: 'jobs' });
  });

  it('a second consumer is refused with 11004 workers.api.error.consumer_exists (workers-sdk#5347)', async () => {
    const { call, id } = await setup();
    expect((await call('POST', `/${id}/consumers`, { type: 'http_pull' })).status).toBe(200);
    const again = await call('POST', `/${id}/consumers`, { type: 'worker', script_name: 'other' });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([{ code: 11004, message: 'workers.api.error.consumer_exists' }]);
  });

  it("POST and PUT consumer bodies are judged by the schema's request: type, a worker's script_name, types", async () => {
    const { call, id, consumers } = await setup();
    for (const body of [{}, { script_name: 'w' }, { type: 'not-in-enum', script_name: 'w' }, { type: 'worker' }]) {
      const r = await call('POST', `/${id}/consumers`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0]!.code, JSON.stringify(body)).toBe(10207);
    }
    expect(await consumers()).toEqual([]);
    const c = (
      await call('POST', `/${id}/consumers`, { type: 'worker', script_name: 'w', settings: { batch_size: 3 } })
    ).body.result;
    for (const body of [
      { settings: { batch_size: 7 } },
      { type: 'worker' },
      { script_name: 'w' },
      { type: 'not-in-enum', script_name: 'w' },
      { type: 'worker', script_name: 12345 },
      { type: 'worker', script_name: 'w', dead_letter_queue: 12345 },
      { type: 'worker', script_name: 'w', settings: { batch_size: 'ten' } },
      { type: 'http_pull' },
    ]) {
      const r = await call('PUT', `/${id}/consumers/${c.consumer_id}`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0]!.code, JSON.stringify(body)).toBe(10207);
    }
    const kept = (await call('GET', `/${id}/consumers/${c.consumer_id}`)).body.result;
    expect(kept).toMatchObject({ type: 'worker', script_name: 'w', settings: { batch_size: 3 } });
    const put = await call('PUT', `/${id}/consumers/${c.consumer_id}`, {
      type: 'worker',
      script_name: 'w2',
      dead_letter_queue: 'jobs-dlq',
      settings: { batch_size: 7 },
    });
    expect(put.status).toBe(200);
    expect(put.body.result).toMatchObject({
      script_name: 'w2',
      dead_letter_queue: 'jobs-dlq',
      settings: { batch_size: 7 },
    });
  });

  it('messages/ack takes string lease ids only, in entries that are objects', async () => {
    const { call, id, send, pull } = await setup();
    await call('POST', `/${id}/consumers`, { type: 'http_pull' });
    await send('a');
    const [m] = await pull();
    for (const body of [
      { acks: [{ lease_id: 12345 }] },
      { retries: [{ lease_id: 12345 }] },
      { acks: ['not-an-object'] },
      { acks: [{ lease_id: m!.lease_id }, { lease_id: 7 }] },
    ]) {
      const r = await call('POST', `/${id}/messages/ack`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0]!.code, JSON.stringify(body)).toBe(10207);
    }
    // Nothing was acked by the refused requests: the lease still acks.
    const ok = await call('POST', `/${id}/messages/ack`, { acks: [{ lease_id: m!.lease_id }] });
    expect(ok.body.result).toMatchObject({ ackCount: 1, retryCount: 0 });
  });
});

describe('removing a pull consumer gives its held batch back', () => {
  it('leased and unleased messages are visible again, no attempt spent, for a Worker consumer attached next', async () => {
    const { call, id, queue, send, pull } = await setup();
    const c = (await call('POST', `/${id}/consumers`, { type: 'http_pull' })).body.result;
    await send('one', 'two', 'three');
    expect((await pull(1)).map((m) => m.body)).toEqual(['one']);
    expect((await call('DELETE', `/${id}/consumers/${c.consumer_id}`)).status).toBe(200);
    await new Promise((done) => setTimeout(done, 0)); // the released delivery settles on the queue's next turns
    expect(queue.pending.map((m) => [m.body, m.attempts])).toEqual([
      ['one', 1],
      ['two', 1],
      ['three', 1],
    ]);
    const seen: [unknown, number][] = [];
    queue.consume((batch) => void seen.push(...batch.messages.map((m): [unknown, number] => [m.body, m.attempts])));
    await queue.drain();
    expect(seen).toEqual([
      ['one', 1],
      ['two', 1],
      ['three', 1],
    ]);
  });
});
