/**
 * Consumer delivery: batches, implicit acks, retries, dead letters and delays, on the double's
 * clock (ManualClock and Vitest's fake timers), with drain() so no test sleeps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from 'edge-doubles';
import { Queue, SIMULATOR_CONSUMER_DEFAULTS, type MessageBatch } from 'edge-doubles/queue';

const T0 = Date.UTC(2026, 0, 1);

/** A consumer that records each batch's bodies and attempts, then does what `act` says. */
function recorder(act: (batch: MessageBatch) => unknown = () => {}) {
  const batches: { bodies: unknown[]; attempts: number[]; at: number }[] = [];
  let clock: () => number = Date.now;
  const handler = async (batch: MessageBatch) => {
    batches.push({
      bodies: batch.messages.map((m) => m.body),
      attempts: batch.messages.map((m) => m.attempts),
      at: clock(),
    });
    await act(batch);
  };
  return { batches, handler, useClock: (c: () => number) => (clock = c) };
}

const sendAll = async (q: Queue, bodies: unknown[]) => {
  for (const b of bodies) await q.send(b as never);
};

describe('batching', () => {
  it('production defaults: batches of 10, sent after 5 s of waiting for a batch to fill, 3 retries', () => {
    const q = new Queue().consume(() => {});
    expect(q.consumerSettings).toEqual({ maxBatchSize: 10, maxBatchTimeout: 5, maxRetries: 3, retryDelay: 0 });
    const sim = new Queue({ consumerDefaults: SIMULATOR_CONSUMER_DEFAULTS }).consume(() => {});
    expect(sim.consumerSettings).toEqual({ maxBatchSize: 5, maxBatchTimeout: 1, maxRetries: 2, retryDelay: 0 });
  });

  it('a full batch leaves at once; a partial one when max_batch_timeout has passed on the clock', async () => {
    const clock = new ManualClock(T0);
    const r = recorder();
    r.useClock(() => clock.now());
    const q = new Queue({ clock }).consume(r.handler, { maxBatchSize: 3, maxBatchTimeout: 2 });
    await sendAll(q, [1, 2, 3, 4]);
    await q.drain({ waitForBatchTimeout: true });
    expect(r.batches.map((b) => b.bodies)).toEqual([[1, 2, 3]]);
    clock.advance(1999);
    await q.drain({ waitForBatchTimeout: true });
    expect(r.batches).toHaveLength(1);
    clock.advance(1); // the partial batch's timeout: the clock wakes the queue, no drain needed
    await vi.waitFor(() => expect(r.batches).toHaveLength(2));
    expect(r.batches[1]).toMatchObject({ bodies: [4], at: T0 + 2000 });
  });

  it('with max_batch_timeout 0, the messages of one sendBatch still leave as one batch (found by the conformance suite)', async () => {
    const clock = new ManualClock(T0);
    const r = recorder();
    const q = new Queue({ clock }).consume(r.handler, { maxBatchTimeout: 0 });
    await q.sendBatch([{ body: 1 }, { body: 2 }, { body: 3 }]);
    await q.drain({ waitForBatchTimeout: true });
    expect(r.batches.map((b) => b.bodies)).toEqual([[1, 2, 3]]);
  });

  it('drain() delivers every visible message now, in batches of max_batch_size, without waiting for the timeout', async () => {
    const r = recorder();
    const q = new Queue({ clock: new ManualClock(T0) }).consume(r.handler, { maxBatchSize: 2 });
    await sendAll(q, [1, 2, 3, 4, 5]);
    await q.drain();
    expect(r.batches.map((b) => b.bodies)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('a batch carries the queue name, ids (32 hex), send timestamps, attempts from 1, and the backlog left', async () => {
    const clock = new ManualClock(T0);
    const q = new Queue({ name: 'uploads', clock });
    await sendAll(q, ['a', 'b', 'c']);
    let seen: MessageBatch | undefined;
    q.consume((b) => void (seen = b), { maxBatchSize: 2 });
    await q.drain();
    expect(seen!.queue).toBe('uploads');
    expect(seen!.messages[0]!.id).toMatch(/^[0-9a-f]{32}$/);
    expect(seen!.messages[0]!.timestamp).toEqual(new Date(T0));
    expect(seen!.messages[0]!.attempts).toBe(1);
  });

  it('ids stay 32 hex digits and distinct past every 256th message (the id is made in two parts), and a timestamp is the same Date each read', async () => {
    const clock = new ManualClock(T0);
    const q = new Queue({ clock });
    for (let n = 0; n < 6; n++) await q.sendBatch(Array.from({ length: 100 }, (_, i) => ({ body: n * 100 + i })));
    const ids: string[] = [];
    const stamps: boolean[] = [];
    q.consume(
      (b) => {
        for (const m of b.messages) {
          ids.push(m.id);
          stamps.push(m.timestamp === m.timestamp && m.timestamp.getTime() === T0);
        }
      },
      { maxBatchSize: 100 },
    );
    await q.drain();
    expect(ids).toHaveLength(600);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(600);
    // One counter: ids sort as they were sent, across the 256th and 512th.
    expect([...ids].sort()).toEqual(ids);
    expect(stamps.every(Boolean)).toBe(true);
  });

  it("a message's fields are read-only, and its body is the same value each read", async () => {
    const q = new Queue();
    await q.send({ n: 1 });
    let checked = false;
    q.consume((b) => {
      const m = b.messages[0]!;
      expect(() => ((m as { body: unknown }).body = 2)).toThrow(TypeError);
      expect(() => ((m as { attempts: number }).attempts = 9)).toThrow(TypeError);
      expect(m.body).toBe(m.body);
      checked = true;
    });
    await q.drain();
    expect(checked).toBe(true);
  });

  it('messages wait for a consumer attached later', async () => {
    const q = new Queue();
    await sendAll(q, [1]);
    const r = recorder();
    q.consume(r.handler);
    await q.drain();
    expect(r.batches.map((b) => b.bodies)).toEqual([[1]]);
  });
});

describe('ack and retry', () => {
  it('implicit ack when the handler returns and its waitUntil promises settle', async () => {
    const q = new Queue({ log: true });
    let settled = false;
    q.consume((_b, _env, ctx) => {
      ctx.waitUntil(Promise.resolve().then(() => (settled = true)));
    });
    await q.send('a' as never);
    await q.drain();
    expect(settled).toBe(true);
    expect(q.log.filter({ op: 'deliver' })).toMatchObject([{ messages: [{ body: 'a', outcome: 'acked' }] }]);
  });

  it('a handler that throws gets the whole batch retried, except the messages it acked first', async () => {
    const r = recorder((b) => {
      if (b.messages[0]!.attempts === 1) {
        b.messages.find((m) => m.body === 2)!.ack();
        throw new Error('boom');
      }
    });
    const q = new Queue().consume(r.handler);
    await sendAll(q, [1, 2, 3]);
    await q.drain();
    expect(r.batches.map((b) => [b.bodies, b.attempts])).toEqual([
      [
        [1, 2, 3],
        [1, 1, 1],
      ],
      [
        [1, 3],
        [2, 2],
      ],
    ]);
  });

  it('the first call on a message wins; a call on a message beats a later ackAll/retryAll', async () => {
    const r = recorder((b) => {
      if (b.messages[0]!.attempts > 1) return;
      const [m1, m2, m3, m4] = b.messages;
      m1!.ack();
      m1!.retry(); // ignored: ack came first
      m2!.retry();
      m2!.ack(); // ignored: retry came first
      m3!.ack();
      b.retryAll(); // m3 stays acked, m4 is retried
      b.ackAll(); // ignored after retryAll
      m4!.ack(); // ignored after retryAll
    });
    const q = new Queue().consume(r.handler);
    await sendAll(q, [1, 2, 3, 4]);
    await q.drain();
    expect(r.batches.map((b) => b.bodies)).toEqual([
      [1, 2, 3, 4],
      [2, 4],
    ]);
  });

  it('retry() after ackAll() is ignored; a retry() before ackAll() stands', async () => {
    const r = recorder((b) => {
      if (b.messages[0]!.attempts > 1) return;
      b.messages[0]!.retry();
      b.ackAll();
      b.messages[1]!.retry();
    });
    const q = new Queue().consume(r.handler);
    await sendAll(q, [1, 2]);
    await q.drain();
    expect(r.batches.map((b) => b.bodies)).toEqual([[1, 2], [1]]);
  });

  it('retry delays: retry({delaySeconds}) beats retryAll({delaySeconds}), which beats retry_delay; on the clock', async () => {
    const clock = new ManualClock(T0);
    const r = recorder((b) => {
      if (b.messages[0]!.attempts > 1) return;
      b.messages[0]!.retry({ delaySeconds: 10 });
      b.retryAll({ delaySeconds: 20 });
    });
    r.useClock(() => clock.now());
    const q = new Queue({ clock }).consume(r.handler, { retryDelay: 30 });
    await sendAll(q, [1, 2]);
    await q.drain();
    expect(r.batches).toHaveLength(1);
    clock.advance(10_000);
    await q.drain();
    expect(r.batches.map((b) => b.bodies)).toEqual([[1, 2], [1]]);
    clock.advance(10_000);
    await q.drain();
    expect(r.batches.map((b) => b.bodies)).toEqual([[1, 2], [1], [2]]);

    const r2 = recorder(() => {
      throw new Error('always');
    });
    const q2 = new Queue({ clock }).consume(r2.handler, { retryDelay: 30, maxRetries: 1 });
    await sendAll(q2, ['x']);
    await q2.drain();
    clock.advance(29_999);
    await q2.drain();
    expect(r2.batches).toHaveLength(1);
    clock.advance(1);
    await q2.drain();
    expect(r2.batches).toHaveLength(2);
  });
});

describe('max_retries and dead letters', () => {
  it('after max_retries retries a message goes to the dead-letter queue, same id, timestamp and body, attempts afresh', async () => {
    const queues = new Map<string, Queue>();
    const r = recorder(() => {
      throw new Error('always');
    });
    const q = new Queue({ name: 'work', queues, log: true }).consume(r.handler, {
      maxRetries: 2,
      deadLetterQueue: 'work-dlq',
    });
    await q.send({ job: 1 });
    await q.drain();
    expect(r.batches.map((b) => b.attempts)).toEqual([[1], [2], [3]]);
    const dlq = queues.get('work-dlq')!;
    expect(dlq).toBe(q.deadLetterQueue);
    const sentId = q.log.filter({ op: 'send' })[0]!.messages[0]!.id;
    expect(dlq.pending).toMatchObject([{ id: sentId, body: { job: 1 }, attempts: 1 }]);
    expect(q.log.last()).toMatchObject({ op: 'deliver', messages: [{ outcome: 'dead-lettered', attempts: 3 }] });
    expect(dlq.log.recording).toBe(true); // made recording, as the queue that made it
    const dead: unknown[] = [];
    dlq.consume((b) => void dead.push(...b.messages.map((m) => [m.body, m.attempts])));
    await dlq.drain();
    expect(dead).toEqual([[{ job: 1 }, 1]]);
  });

  it('without a dead-letter queue the message is dropped', async () => {
    const q = new Queue({ log: true }).consume(
      () => {
        throw new Error('always');
      },
      { maxRetries: 0 },
    );
    await q.send('x' as never);
    await q.drain();
    expect(q.log.last()).toMatchObject({ messages: [{ outcome: 'dropped', attempts: 1 }] });
    expect(q.pending).toEqual([]);
  });
});

describe('delays', () => {
  it("send's delaySeconds, sendBatch's, a message's own (which wins), and the producer's delivery_delay", async () => {
    const clock = new ManualClock(T0);
    const r = recorder();
    const q = new Queue({ clock, deliveryDelay: 5 }).consume(r.handler);
    await q.send('default' as never);
    await q.send('now' as never, { delaySeconds: 0 });
    await q.sendBatch([{ body: 'own' as never, delaySeconds: 1 }, { body: 'batch' as never }], { delaySeconds: 3 });
    const deliveredBy = async (ms: number) => {
      clock.set(T0 + ms);
      await q.drain();
      return r.batches.flatMap((b) => b.bodies);
    };
    expect(await deliveredBy(0)).toEqual(['now']);
    expect(await deliveredBy(1000)).toEqual(['now', 'own']);
    expect(await deliveredBy(3000)).toEqual(['now', 'own', 'batch']);
    expect(await deliveredBy(4999)).toHaveLength(3);
    expect(await deliveredBy(5000)).toEqual(['now', 'own', 'batch', 'default']);
  });
});

describe("Vitest's fake timers", () => {
  afterEach(() => void vi.useRealTimers());

  it('move delays and batch timeouts with no clock option', async () => {
    vi.useFakeTimers({ now: T0 });
    const r = recorder();
    const q = new Queue().consume(r.handler);
    await q.send('later' as never, { delaySeconds: 60 });
    await q.send('soon' as never);
    await vi.advanceTimersByTimeAsync(4999);
    expect(r.batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1); // batch timeout (5 s)
    expect(r.batches.map((b) => b.bodies)).toEqual([['soon']]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(r.batches.map((b) => b.bodies)).toEqual([['soon'], ['later']]);
  });
});

describe('a lost wake-up (issue 24)', () => {
  afterEach(() => void vi.useRealTimers());

  it('a later send notices a wake-up cleared from the fake timers and delivers what fell due', async () => {
    vi.useFakeTimers({ now: T0 });
    const r = recorder();
    const q = new Queue().consume(r.handler);
    await q.send('first' as never);
    vi.clearAllTimers(); // as workerd drops a timer set during a request
    await vi.advanceTimersByTimeAsync(5000);
    expect(r.batches).toHaveLength(0);
    await q.send('second' as never); // its batch timeout has passed for 'first'
    await vi.advanceTimersByTimeAsync(0);
    expect(r.batches.map((b) => b.bodies)).toEqual([['first', 'second']]);
    await q.send('third' as never);
    await vi.advanceTimersByTimeAsync(5000);
    expect(r.batches.map((b) => b.bodies)).toEqual([['first', 'second'], ['third']]);
  });

  it('a send after fake timers are switched off and on again is delivered without drain()', async () => {
    vi.useFakeTimers({ now: T0 });
    const r = recorder();
    const q = new Queue().consume(r.handler);
    await q.send('one' as never); // its wake-up is a timer of this fake clock
    vi.useRealTimers();
    vi.useFakeTimers({ now: T0 + 1000 }); // a fresh fake clock: that timer is gone
    await q.send('two' as never);
    await vi.advanceTimersByTimeAsync(4000);
    expect(r.batches.map((b) => b.bodies)).toEqual([['one', 'two']]);
  });

  it('metrics() is an operation too: a wake-up lost past its moment is noticed there', async () => {
    vi.useFakeTimers({ now: T0 });
    const r = recorder();
    const q = new Queue().consume(r.handler);
    await q.send('only' as never);
    vi.clearAllTimers();
    await vi.advanceTimersByTimeAsync(6000);
    await q.metrics();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.batches.map((b) => b.bodies)).toEqual([['only']]);
  });
});

describe('snapshot, restore, reset', () => {
  it('restore puts back the messages held then; reset empties the queue', async () => {
    const q = new Queue();
    await q.send('a' as never);
    const snap = q.snapshot();
    await q.send('b' as never);
    q.restore(snap);
    expect(q.pending.map((m) => m.body)).toEqual(['a']);
    q.reset();
    expect(q.pending).toEqual([]);
    expect(() => new Queue().restore(snap)).toThrow(TypeError);
  });
});

describe('restore during a delivery', () => {
  it('forgets the batch in flight: its outcome changes nothing restored', async () => {
    const q = new Queue();
    await q.send('a');
    const snap = q.snapshot();
    let release!: () => void;
    const attempts: number[] = [];
    q.consume(async (b) => {
      attempts.push(b.messages[0]!.attempts);
      if (attempts.length === 1) {
        await new Promise<void>((r) => (release = r));
        throw new Error('would retry'); // ignored: the queue was restored meanwhile
      }
    });
    const drained = q.drain();
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    q.restore(snap); // the message is back, as before the delivery
    release();
    await drained;
    expect(attempts).toEqual([1, 1]);
    expect(q.pending).toEqual([]);
  });
});

describe('options are checked', () => {
  it('unknown options, a bad date, a bad delivery delay', () => {
    expect(() => new Queue({ nmae: 'x' } as never)).toThrow("Queue: unknown option 'nmae'");
    expect(() => new Queue({ compatibilityDate: '2024-3-1' })).toThrow(/compatibilityDate/);
    expect(() => new Queue({ deliveryDelay: 43_201 })).toThrow(/deliveryDelay/);
  });
});

describe('settings are checked', () => {
  it.each([
    [{ maxBatchSize: 0 }, /maxBatchSize/],
    [{ maxBatchSize: 101 }, /maxBatchSize/],
    [{ maxBatchTimeout: 61 }, /maxBatchTimeout/],
    [{ maxRetries: 101 }, /maxRetries/],
    [{ retryDelay: 43_201 }, /retryDelay/],
  ])('%o', (settings, message) => {
    expect(() => new Queue().consume(() => {}, settings)).toThrow(message);
  });
});
