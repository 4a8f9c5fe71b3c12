/** Consumer delivery: batching by size and time, acks and retries, dead letters, delays. */
import { expect } from '../../runner.js';
import { defineGroup, type SeenBatch } from '../harness.js';

const bodies = (batches: SeenBatch[]) => batches.map((b) => b.messages.map((m) => m.body.value));
const json = (n: number) => ({ json: n });

export const delivery = defineGroup(
  'delivery',
  [
    { name: 'by-size', consumer: { maxBatchSize: 3, maxBatchTimeout: 60, maxRetries: 0 } },
    { name: 'by-time', consumer: { maxBatchSize: 10, maxBatchTimeout: 1, maxRetries: 0 } },
    { name: 'defaults', consumer: {} },
    { name: 'fields', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 0 } },
    { name: 'throws', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 3 } },
    { name: 'retry-one', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 3 } },
    { name: 'retry-all', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 3 } },
    { name: 'first-call', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 3 } },
    {
      name: 'dead',
      consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 1, deadLetterQueue: 'dead-letters' },
    },
    { name: 'dead-letters', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 0 } },
    { name: 'retry-delay', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 3, retryDelay: 1 } },
    { name: 'retry-twice', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 3, retryDelay: 1 } },
    { name: 'send-delay', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 0 } },
    { name: 'delivery-delay', consumer: { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 0 }, deliveryDelay: 1 },
  ],
  (t) => {
    t.test('a full batch (max_batch_size) leaves without waiting for the batch timeout', async () => {
      const s = t.session();
      await s.sendBatch(
        'by-size',
        [1, 2, 3, 4].map((n) => ({ body: json(n) })),
      );
      await s.elapse(0.5);
      expect(bodies(t.seen('by-size'))).toEqual([[1, 2, 3]]);
    });

    t.test('a partial batch leaves when max_batch_timeout has passed', async () => {
      const s = t.session();
      await s.sendBatch('by-time', [{ body: json(1) }, { body: json(2) }]);
      await s.elapse(0.4);
      expect(t.seen('by-time')).toEqual([]);
      await s.elapse(1);
      expect(bodies(t.seen('by-time'))).toEqual([[1, 2]]);
    });

    t.test(
      "a consumer with no settings gets production's defaults: batches of 10",
      async () => {
        const s = t.session();
        await s.sendBatch(
          'defaults',
          Array.from({ length: 12 }, (_, n) => ({ body: json(n) })),
        );
        await s.elapse(0.5);
        expect(t.seen('defaults').map((b) => b.messages.length)).toEqual([10]);
      },
      { difference: 'miniflare-consumer-defaults' },
    );

    t.test('messages carry an id (32 hex digits), the send time and attempts from 1; returning acks them', async () => {
      const s = t.session();
      const before = Date.now();
      await s.send('fields', json(1));
      await s.elapse(0.3);
      const [m] = t.seen('fields')[0]!.messages;
      expect(m!.id).toMatch(/^[0-9a-f]{32}$/);
      expect(m!.attempts).toBe(1);
      expect(typeof m!.timestamp).toBe('number');
      await s.elapse(0.3);
      expect(t.seen('fields')).toHaveLength(1);
      void before;
    });

    t.test(
      'a handler that throws gets the batch retried, attempts counted, except messages it acked',
      async () => {
        const s = t.session();
        t.consumer('throws', (_b, i) => (i === 0 ? [['ack', 0], ['throw']] : []));
        await s.sendBatch(
          'throws',
          [1, 2, 3].map((n) => ({ body: json(n) })),
        );
        await s.elapse(0.5);
        const seen = t.seen('throws');
        expect(bodies(seen)).toEqual([
          [1, 2, 3],
          [2, 3],
        ]);
        expect(seen[1]!.messages.map((m) => m.attempts)).toEqual([2, 2]);
        expect(seen[1]!.messages.map((m) => m.id)).toEqual(seen[0]!.messages.slice(1).map((m) => m.id));
      },
      { difference: 'miniflare-retry-ignores-acks' },
    );

    t.test('retry() on one message retries it alone', async () => {
      const s = t.session();
      t.consumer('retry-one', (_b, i) => (i === 0 ? [['retry', 1]] : []));
      await s.sendBatch(
        'retry-one',
        [1, 2, 3].map((n) => ({ body: json(n) })),
      );
      await s.elapse(0.5);
      expect(bodies(t.seen('retry-one'))).toEqual([[1, 2, 3], [2]]);
    });

    t.test(
      'retryAll() retries the batch, except a message acked before it',
      async () => {
        const s = t.session();
        t.consumer('retry-all', (_b, i) => (i === 0 ? [['ack', 0], ['retryAll']] : []));
        await s.sendBatch(
          'retry-all',
          [1, 2].map((n) => ({ body: json(n) })),
        );
        await s.elapse(0.5);
        expect(bodies(t.seen('retry-all'))).toEqual([[1, 2], [2]]);
      },
      { difference: 'miniflare-retry-ignores-acks' },
    );

    t.test(
      'the first call on a message wins: ack then retry acks; retry then ack retries; ackAll after retryAll is ignored',
      async () => {
        const s = t.session();
        t.consumer('first-call', (_b, i) =>
          i === 0
            ? [
                ['ack', 0],
                ['retry', 0],
                ['retry', 1],
                ['ack', 1],
              ]
            : [],
        );
        await s.sendBatch(
          'first-call',
          [1, 2].map((n) => ({ body: json(n) })),
        );
        await s.elapse(0.5);
        expect(bodies(t.seen('first-call'))).toEqual([[1, 2], [2]]);
      },
    );

    t.test('after max_retries retries a message goes to the dead-letter queue with its id and body', async () => {
      const s = t.session();
      t.consumer('dead', () => [['throw']]);
      await s.send('dead', json(7));
      await s.elapse(0.6);
      const attempts = t.seen('dead').map((b) => b.messages[0]!.attempts);
      expect(attempts).toEqual([1, 2]);
      const dl = t.seen('dead-letters');
      expect(bodies(dl)).toEqual([[7]]);
      expect(dl[0]!.messages[0]!.id).toBe(t.seen('dead')[0]!.messages[0]!.id);
      expect(dl[0]!.messages[0]!.attempts).toBe(1);
    });

    t.test('retry_delay holds a retried message; retry({ delaySeconds: 0 }) overrides it', async () => {
      const s = t.session();
      t.consumer('retry-delay', (_b, i) =>
        i === 0
          ? [
              ['retry', 0],
              ['retry', 1, 0],
            ]
          : [],
      );
      await s.sendBatch(
        'retry-delay',
        [1, 2].map((n) => ({ body: json(n) })),
      );
      await s.elapse(0.4);
      expect(bodies(t.seen('retry-delay'))).toEqual([[1, 2], [2]]);
      await s.elapse(1);
      expect(bodies(t.seen('retry-delay'))).toEqual([[1, 2], [2], [1]]);
    });

    t.test(
      "a second retry() replaces the first's delay: one without a delay leaves the consumer's retry_delay (issue 26)",
      async () => {
        const s = t.session();
        // Message 0: retry({ delaySeconds: 30 }) then retry(): back after retry_delay (1 s), not 30 s.
        // Message 1: retry() then retry({ delaySeconds: 0 }): back at once.
        t.consumer('retry-twice', (_b, i) =>
          i === 0
            ? [
                ['retry', 0, 30],
                ['retry', 0],
                ['retry', 1],
                ['retry', 1, 0],
              ]
            : [],
        );
        await s.sendBatch(
          'retry-twice',
          [1, 2].map((n) => ({ body: json(n) })),
        );
        await s.elapse(0.4);
        expect(bodies(t.seen('retry-twice'))).toEqual([[1, 2], [2]]);
        await s.elapse(1);
        expect(bodies(t.seen('retry-twice'))).toEqual([[1, 2], [2], [1]]);
      },
    );

    t.test("send's delaySeconds holds a message; 0 sends it at once", async () => {
      const s = t.session();
      await s.send('send-delay', json(1), { delaySeconds: 1 });
      await s.send('send-delay', json(2), { delaySeconds: 0 });
      await s.elapse(0.4);
      expect(bodies(t.seen('send-delay'))).toEqual([[2]]);
      await s.elapse(1);
      expect(bodies(t.seen('send-delay'))).toEqual([[2], [1]]);
    });

    t.test(
      "the producer's delivery_delay holds messages that name no delay; delaySeconds: 0 overrides it",
      async () => {
        const s = t.session();
        await s.send('delivery-delay', json(1));
        await s.sendBatch('delivery-delay', [{ body: json(2) }], { delaySeconds: 0 });
        await s.elapse(0.4);
        expect(bodies(t.seen('delivery-delay'))).toEqual([[2]]);
        await s.elapse(1);
        expect(bodies(t.seen('delivery-delay'))).toEqual([[2], [1]]);
      },
    );
  },
);
