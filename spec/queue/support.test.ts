/**
 * The Queue as a test double: delivery faults as values, the call log, the matchers, and
 * createMessageBatch/getQueueResult as `cloudflare:test` names them.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock, createExecutionContext } from 'edge-doubles';
import { Queue, createMessageBatch, getQueueResult, type MessageBatch } from 'edge-doubles/queue';
import { logOnFailure, testFault } from 'edge-doubles/vitest';

const bodiesOf = (batches: MessageBatch[]) => batches.map((b) => b.messages.map((m) => m.body));

function collecting(q: Queue, act: (b: MessageBatch) => unknown = () => {}) {
  const batches: MessageBatch[] = [];
  q.consume(async (b) => {
    batches.push(b);
    await act(b);
  });
  return batches;
}

describe('delivery faults', () => {
  it('duplicate: the acked messages of a batch are delivered once more (same ids)', async () => {
    const q = new Queue();
    const batches = collecting(q);
    q.faults.add({ op: 'deliver', action: 'duplicate' });
    await q.sendBatch([{ body: 1 }, { body: 2 }]);
    await q.drain();
    expect(bodiesOf(batches)).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(batches[1]!.messages.map((m) => m.id)).toEqual(batches[0]!.messages.map((m) => m.id));
  });

  it('reorder: the messages of a batch in a seeded order other than the sent one', async () => {
    const q = new Queue();
    const batches = collecting(q);
    q.faults.add({ op: 'deliver', action: 'reorder', seed: 7 });
    await q.sendBatch([1, 2, 3, 4, 5].map((body) => ({ body })));
    await q.drain();
    const order = bodiesOf(batches)[0]!;
    expect(order).not.toEqual([1, 2, 3, 4, 5]);
    expect([...order].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('fail: the delivery fails without reaching the consumer, and counts as an attempt', async () => {
    const q = new Queue({ log: true });
    const batches = collecting(q);
    q.faults.add({ op: 'deliver' });
    await q.send('x');
    await q.drain();
    expect(batches.map((b) => b.messages[0]!.attempts)).toEqual([2]);
    expect(q.log.filter({ op: 'deliver' })).toMatchObject([
      { injected: { failed: true }, messages: [{ outcome: 'retried' }] },
      { messages: [{ outcome: 'acked' }] },
    ]);
  });

  it('a failing send rejects with the service error and enqueues nothing; the rule retires after its times', async () => {
    const q = new Queue();
    q.faults.add({ op: 'send' });
    await expect(q.send('x')).rejects.toThrow('Unknown Internal Error (15000)');
    expect(q.pending).toEqual([]);
    await expect(q.send('y')).resolves.toBeDefined();
  });

  it('testFault works on a Queue; duplicate on a send is refused', async () => {
    const q = new Queue();
    testFault(q, { op: 'sendBatch', message: 'Too Many Requests' });
    await expect(q.sendBatch([{ body: 1 }])).rejects.toThrow('Too Many Requests');
    expect(() => q.faults.add({ op: 'send', action: 'duplicate' })).toThrow(RangeError);
  });
});

describe('matchers', () => {
  it('toHaveSent, toHaveAcked, toHaveRetried, toHaveDeadLettered count messages', async () => {
    const q = new Queue({ name: 'jobs', log: true, queues: new Map() });
    logOnFailure(q);
    q.consume(
      (b) => {
        for (const m of b.messages) if ((m.body as { n: number }).n === 2) m.retry();
      },
      { maxRetries: 1, deadLetterQueue: 'jobs-dlq' },
    );
    await q.sendBatch([{ body: { n: 1 } }, { body: { n: 2 } }]);
    await q.drain();
    expect(q).toHaveSent({ body: { n: 1 } });
    expect(q).toHaveSent({ times: 2 });
    expect(q).toHaveAcked({ body: { n: 1 }, times: 1 });
    expect(q).toHaveRetried({ body: { n: 2 }, times: 1 });
    expect(q).toHaveDeadLettered({ body: { n: 2 }, attempts: 2 });
    expect(q).not.toHaveDeadLettered({ body: { n: 1 } });
    expect(() => expect(q).toHaveAcked({ body: { n: 3 } })).toThrow(
      /expected the queue to have acked a message matching \{"body":\{"n":3\}\}; none matched/,
    );
  });

  it('a refused send is not counted as sent; a queue without a log says how to turn it on', async () => {
    const q = new Queue({ log: true });
    await expect(q.send(undefined as never)).rejects.toThrow();
    await expect(q.send('x'.repeat(200_000), { contentType: 'text' })).rejects.toThrow();
    expect(q).not.toHaveSent();
    expect(() => expect(new Queue()).toHaveSent()).toThrow(/call log is off.*log: true/);
    expect(() => expect({}).toHaveSent()).toThrow('toHaveSent: expected a Queue from edge-doubles, got Object');
  });

  it('toHaveReceived reads the queue log too', async () => {
    const q = new Queue({ log: true, clock: new ManualClock(0) });
    await q.send('a');
    expect(q).toHaveReceived({ op: 'send', messages: [{ body: 'a' }] });
  });
});

describe('createMessageBatch and getQueueResult (as cloudflare:test)', () => {
  it('collect what a handler acked and retried', async () => {
    const batch = createMessageBatch('q', [
      { id: 'a', timestamp: new Date(1000), attempts: 1, body: 1 },
      { id: 'b', timestamp: 2000, attempts: 2, body: 2 },
    ]);
    expect(batch.messages[1]!.timestamp).toEqual(new Date(2000));
    const ctx = createExecutionContext();
    batch.messages[0]!.ack();
    batch.messages[1]!.retry({ delaySeconds: 5 });
    ctx.waitUntil(Promise.resolve());
    expect(await getQueueResult(batch, ctx)).toEqual({
      outcome: 'ok',
      ackAll: false,
      retryBatch: { retry: false },
      explicitAcks: ['a'],
      retryMessages: [{ msgId: 'b' }],
    });
  });

  it('report no delay, as cloudflare:test, whose retry() and retryAll() take none; a retry() after retryAll() is not listed (issue 26)', async () => {
    const messages = ['a', 'b', 'c'].map((id) => ({ id, timestamp: 0, attempts: 1, body: id }));
    const one = createMessageBatch('q', messages);
    one.messages[0]!.retry({ delaySeconds: 30 });
    one.messages[1]!.retry();
    const result = await getQueueResult(one, createExecutionContext());
    expect(result.retryMessages).toEqual([{ msgId: 'a' }, { msgId: 'b' }]);
    expect(result.retryMessages[0]).not.toHaveProperty('delaySeconds');
    const all = createMessageBatch('q', messages);
    all.messages[0]!.retry();
    all.retryAll({ delaySeconds: 10 });
    all.messages[1]!.retry({ delaySeconds: 3 });
    all.messages[2]!.ack();
    expect(await getQueueResult(all, createExecutionContext())).toEqual({
      outcome: 'ok',
      ackAll: false,
      retryBatch: { retry: true },
      explicitAcks: [],
      retryMessages: [{ msgId: 'a' }],
    });
  });

  it("refuse what they did not build, in the plugin's words", async () => {
    expect(() => (createMessageBatch as (q: string, m: unknown) => unknown)('q', 'x')).toThrow(
      "Failed to execute 'createMessageBatch': parameter 2 is not of type 'Array'.",
    );
    await expect(getQueueResult({} as never, createExecutionContext())).rejects.toThrow(
      /parameter 1 is not of type 'MessageBatch'/,
    );
    await expect(getQueueResult(createMessageBatch('q', []), {})).rejects.toThrow(
      /parameter 2 is not of type 'ExecutionContext'/,
    );
  });
});
