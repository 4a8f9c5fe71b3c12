/**
 * The producer binding: content types by compatibility date, workerd's errors for bodies, and the
 * service's refusals (sizes, counts, delays) in the form each date gives.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from 'edge-doubles';
import { Queue, MAX_MESSAGE_BYTES } from 'edge-doubles/queue';

const received = async (queue: Queue) => {
  const bodies: unknown[] = [];
  queue.consume((batch) => void bodies.push(...batch.messages.map((m) => m.body)));
  await queue.drain();
  return bodies;
};

const rejection = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return { ctor: (e as object).constructor.name, name: (e as Error).name, message: (e as Error).message };
  }
  throw new Error('expected a rejection');
};

describe('content types', () => {
  it('json is the default from 2024-03-18: a Date arrives as its JSON text', async () => {
    const q = new Queue({ compatibilityDate: '2024-03-18' });
    await q.send({ at: new Date(0), n: 1 });
    expect(await received(q)).toEqual([{ at: '1970-01-01T00:00:00.000Z', n: 1 }]);
  });

  it('v8 is the default before 2024-03-18 (structured clone: a Date stays a Date, a Map a Map)', async () => {
    const q = new Queue({ compatibilityDate: '2024-03-17' });
    await q.send({ at: new Date(0), m: new Map([[1, 2]]) } as never);
    const [body] = (await received(q)) as [{ at: Date; m: Map<number, number> }];
    expect(body.at).toBeInstanceOf(Date);
    expect(body.m.get(1)).toBe(2);
  });

  it('the flags override the date', async () => {
    const q = new Queue({ compatibilityDate: '2024-01-01', compatibilityFlags: ['queues_json_messages'] });
    await q.send({ at: new Date(0) });
    expect(await received(q)).toEqual([{ at: '1970-01-01T00:00:00.000Z' }]);
  });

  it('text, bytes (a Uint8Array of a copy) and the type name in any case', async () => {
    const q = new Queue();
    const bytes = new Uint8Array([1, 2, 3]);
    await q.send('hi' as never, { contentType: 'TEXT' as never });
    await q.sendBatch([{ body: bytes as never, contentType: 'bytes' }]);
    bytes[0] = 9; // sendBatch copied them
    const [text, got] = await received(q);
    expect(text).toBe('hi');
    expect(got).toBeInstanceOf(Uint8Array);
    expect([...(got as Uint8Array)]).toEqual([1, 2, 3]);
  });

  it('send() detaches the buffer of a bytes body, as workerd does', async () => {
    const q = new Queue();
    const bytes = new Uint8Array([1, 2, 3]);
    await q.send(bytes as never, { contentType: 'bytes' });
    expect(bytes.buffer.byteLength).toBe(0);
  });

  it('a consumer changing a body cannot change what a retry delivers', async () => {
    const q = new Queue();
    await q.send({ n: 1 });
    const seen: number[] = [];
    q.consume((batch) => {
      const m = batch.messages[0]!;
      seen.push((m.body as { n: number }).n);
      (m.body as { n: number }).n = 99;
      if (m.attempts === 1) m.retry();
    });
    await q.drain();
    expect(seen).toEqual([1, 1]);
  });
});

describe("workerd's errors for bodies (checked against workerd 1.20261117.1 through Miniflare)", () => {
  const q = new Queue();
  it.each([
    ['undefined body', () => q.send(undefined as never), 'TypeError', 'Message body cannot be undefined'],
    [
      'text not a string',
      () => q.send(1 as never, { contentType: 'text' }),
      'TypeError',
      'Content Type "text" requires a value of type string, but received: number',
    ],
    [
      'bytes not a view',
      () => q.send(new ArrayBuffer(4) as never, { contentType: 'bytes' }),
      'TypeError',
      'Content Type "bytes" requires a value of type ArrayBufferView, but received: object',
    ],
    [
      'unknown type',
      () => q.send('x' as never, { contentType: 'xml' as never }),
      'TypeError',
      'Unsupported queue message content type: xml',
    ],
    [
      'BigInt as json',
      () => q.send(1n as never, { contentType: 'json' }),
      'TypeError',
      'Do not know how to serialize a BigInt',
    ],
    ['empty batch', () => q.sendBatch([]), 'TypeError', 'sendBatch() requires at least one message'],
    [
      'batch not iterable',
      () => q.sendBatch(5 as never),
      'TypeError',
      "Failed to execute 'sendBatch' on 'WorkerQueue': parameter 1 is not of type 'Sequence'.",
    ],
    ['batch body undefined', () => q.sendBatch([{} as never]), 'TypeError', 'Message body cannot be undefined'],
  ])('%s', async (_, call, name, message) => {
    expect(await rejection(call())).toMatchObject({ name, message });
  });

  it('a function as v8 is a DataCloneError', async () => {
    expect(await rejection(q.send((() => 1) as never, { contentType: 'v8' }))).toMatchObject({
      name: 'DataCloneError',
      message: '() => 1 could not be cloned.',
    });
  });
});

describe("the service's refusals", () => {
  const today = new Queue();
  const before = new Queue({ compatibilityDate: '2026-03-11' });
  const big = 'x'.repeat(MAX_MESSAGE_BYTES + 1);

  it('a body over 128 KB (1 KB = 1000 bytes): code 10204; exactly 128,000 bytes is accepted', async () => {
    expect(await rejection(today.send(big as never, { contentType: 'text' }))).toEqual({
      ctor: 'Error',
      name: 'Error',
      message: 'Message size out of bounds (10204)',
    });
    expect(await rejection(before.send(big as never, { contentType: 'text' }))).toMatchObject({
      message: 'Queue send failed: Payload Too Large',
    });
    await expect(today.send('x'.repeat(MAX_MESSAGE_BYTES) as never, { contentType: 'text' })).resolves.toBeDefined();
  });

  it('a batch over 100 messages (10206) or 256 KB (10205), or with one message over 128 KB (10204)', async () => {
    const many = Array.from({ length: 101 }, () => ({ body: 'x' as never }));
    expect(await rejection(today.sendBatch(many))).toMatchObject({ message: 'Batch count out of bounds (10206)' });
    expect(await rejection(before.sendBatch(many))).toMatchObject({
      message: 'Queue sendBatch failed: Payload Too Large',
    });
    const heavy = Array.from({ length: 3 }, () => ({
      body: 'x'.repeat(100_000) as never,
      contentType: 'text' as const,
    }));
    expect(await rejection(today.sendBatch(heavy))).toMatchObject({ message: 'Batch size out of bounds (10205)' });
    expect(await rejection(today.sendBatch([{ body: big as never, contentType: 'text' }]))).toMatchObject({
      message: 'Message size out of bounds (10204)',
    });
  });

  it('a delay outside 0–43,200 s (10203), for send, sendBatch and a message of a batch; fractions are truncated', async () => {
    for (const delaySeconds of [-1, 43_201]) {
      expect(await rejection(today.send('x' as never, { delaySeconds }))).toMatchObject({
        message: 'Invalid message metadata (10203)',
      });
      expect(await rejection(today.sendBatch([{ body: 'x' as never }], { delaySeconds }))).toMatchObject({
        message: 'Invalid message metadata (10203)',
      });
      expect(await rejection(today.sendBatch([{ body: 'x' as never, delaySeconds }]))).toMatchObject({
        message: 'Invalid message metadata (10203)',
      });
    }
    expect(await rejection(before.send('x' as never, { delaySeconds: -1 }))).toMatchObject({
      message: 'Queue send failed: Bad Request',
    });
    await expect(today.send('x' as never, { delaySeconds: 43_200 })).resolves.toBeDefined();
  });

  it('an endless iterable given to sendBatch is refused as too many messages, not read forever', async () => {
    function* endless() {
      for (;;) yield { body: 'x' as never };
    }
    expect(await rejection(today.sendBatch(endless()))).toMatchObject({ message: 'Batch count out of bounds (10206)' });
  });

  it('a refused send enqueues nothing, and a refused batch none of its messages', async () => {
    const q = new Queue();
    await rejection(q.sendBatch([{ body: 'ok' as never }, { body: 'x' as never, delaySeconds: -1 }]));
    await rejection(q.send(big as never, { contentType: 'text' }));
    expect(q.pending).toEqual([]);
  });
});

describe('what send and sendBatch resolve to', () => {
  it('the backlog before the send, as workers-types QueueSendResponse: { metadata: { metrics } }', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const q = new Queue({ clock });
    expect(await q.send('a' as never)).toEqual({ metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } });
    clock.advance(1000);
    expect(await q.sendBatch([{ body: 'bb' as never }])).toEqual({
      metadata: {
        metrics: { backlogCount: 1, backlogBytes: 3, oldestMessageTimestamp: new Date(Date.UTC(2026, 0, 1)) },
      },
    });
    expect(await q.metrics()).toMatchObject({ backlogCount: 2, backlogBytes: 7 });
  });
});

describe('sizes are UTF-8 bytes', () => {
  it('counts 2-, 3- and 4-byte characters as the encoder writes them', async () => {
    const { utf8Length } = await import('../../lib/bytes.js');
    for (const s of ['', 'abc', 'é', '€', '😀', 'a😀b', '\ud800', '\udc00x', 'x'.repeat(1000) + '€']) {
      expect(utf8Length(s)).toBe(new TextEncoder().encode(s).byteLength);
    }
  });
});
