/** The producer binding: content types, workerd's body errors, the service's limits, what a send resolves to. */
import { expect } from '../../runner.js';
import { defineGroup, type SendOutcome } from '../harness.js';

const acked = { maxBatchSize: 100, maxBatchTimeout: 0, maxRetries: 0 };

const refused = (r: SendOutcome) => {
  expect(r.ok, JSON.stringify(r)).toBe(false);
  return r as Extract<SendOutcome, { ok: false }>;
};

export const producer = defineGroup(
  'producer',
  [
    { name: 'content-types', consumer: acked },
    { name: 'limits', consumer: acked },
  ],
  (t) => {
    t.test("json is the default content type at today's date: a Date arrives as its JSON text", async () => {
      const s = t.session();
      await s.send('content-types', { json: { n: 1, nested: { ok: true } } });
      await s.sendBatch('content-types', [{ body: { date: 0 } }]);
      await s.elapse(0.3);
      const bodies = t.seen('content-types').flatMap((b) => b.messages.map((m) => m.body));
      expect(bodies).toEqual([
        { kind: 'object', value: { n: 1, nested: { ok: true } } },
        { kind: 'string', value: '1970-01-01T00:00:00.000Z' },
      ]);
    });

    t.test('text and v8 bodies arrive as sent (v8 keeps Dates and Maps)', async () => {
      const s = t.session();
      const before = t.seen('content-types').length;
      await s.send('content-types', { text: 'hello' }, { contentType: 'text' });
      await s.send('content-types', { date: 5 }, { contentType: 'v8' });
      await s.send('content-types', { map: [['k', 1]] }, { contentType: 'V8' });
      await s.elapse(0.3);
      const bodies = t
        .seen('content-types')
        .slice(before)
        .flatMap((b) => b.messages.map((m) => m.body));
      expect(bodies).toEqual([
        { kind: 'string', value: 'hello' },
        { kind: 'Date', value: 5 },
        { kind: 'Map', value: [['k', 1]] },
      ]);
    });

    t.test(
      'bytes arrive as a Uint8Array',
      async () => {
        const s = t.session();
        const before = t.seen('content-types').length;
        await s.send('content-types', { bytes: [1, 2, 3] }, { contentType: 'bytes' });
        await s.elapse(0.3);
        expect(
          t
            .seen('content-types')
            .slice(before)
            .flatMap((b) => b.messages.map((m) => m.body)),
        ).toEqual([{ kind: 'Uint8Array', value: [1, 2, 3] }]);
      },
      { difference: 'miniflare-bytes-arraybuffer' },
    );

    t.test("a bytes body holds the view's bytes only, whatever the view's type (issue 26)", async () => {
      const s = t.session();
      const before = t.seen('content-types').length;
      // A DataView over bytes 2..4 of an 8-byte buffer: the consumer gets [3, 4, 5], not the buffer.
      await s.send('content-types', { view: [[1, 2, 3, 4, 5, 6, 7, 8], 2, 3] }, { contentType: 'bytes' });
      await s.elapse(0.3);
      expect(
        t
          .seen('content-types')
          .slice(before)
          .flatMap((b) => b.messages.map((m) => m.body.value)),
      ).toEqual([[3, 4, 5]]);
    });

    t.test("workerd's TypeErrors for a body its content type cannot take", async () => {
      const s = t.session();
      const cases: [Promise<SendOutcome>, string][] = [
        [s.send('limits', { undefined: true }), 'Message body cannot be undefined'],
        [
          s.send('limits', { json: 1 }, { contentType: 'text' }),
          'Content Type "text" requires a value of type string, but received: number',
        ],
        [
          s.send('limits', { text: 'x' }, { contentType: 'bytes' }),
          'Content Type "bytes" requires a value of type ArrayBufferView, but received: string',
        ],
        [
          s.send('limits', { arrayBuffer: [1] }, { contentType: 'bytes' }),
          'Content Type "bytes" requires a value of type ArrayBufferView, but received: object',
        ],
        [s.send('limits', { text: 'x' }, { contentType: 'xml' }), 'Unsupported queue message content type: xml'],
        [s.send('limits', { bigint: '1' }, { contentType: 'json' }), 'Do not know how to serialize a BigInt'],
        [s.sendBatch('limits', []), 'sendBatch() requires at least one message'],
        [s.sendBatch('limits', [{ body: { undefined: true } }]), 'Message body cannot be undefined'],
      ];
      for (const [p, message] of cases) expect(refused(await p)).toMatchObject({ ctor: 'TypeError', message });
    });

    t.test('a body of 128,000 bytes is accepted; one byte more is refused with an Error', async () => {
      const s = t.session();
      expect(await s.send('limits', { repeat: ['x', 128_000] }, { contentType: 'text' })).toMatchObject({ ok: true });
      expect(refused(await s.send('limits', { repeat: ['x', 128_001] }, { contentType: 'text' }))).toMatchObject({
        ctor: 'Error',
      });
      expect(
        refused(await s.sendBatch('limits', [{ body: { repeat: ['x', 128_001] }, contentType: 'text' }])),
      ).toMatchObject({ ctor: 'Error' });
    });

    t.test(
      "the service's refusals name their cause and code (10204 message size, 10206 batch count)",
      async () => {
        const s = t.session();
        expect(refused(await s.send('limits', { repeat: ['x', 128_001] }, { contentType: 'text' })).message).toBe(
          'Message size out of bounds (10204)',
        );
        const many = Array.from({ length: 101 }, () => ({ body: { json: 1 } }));
        expect(refused(await s.sendBatch('limits', many)).message).toBe('Batch count out of bounds (10206)');
      },
      { difference: 'miniflare-error-causes' },
    );

    t.test('a batch of 100 messages is accepted; 101 are refused with an Error', async () => {
      const s = t.session();
      expect(
        await s.sendBatch(
          'limits',
          Array.from({ length: 100 }, () => ({ body: { json: 1 } })),
        ),
      ).toMatchObject({ ok: true });
      expect(
        refused(
          await s.sendBatch(
            'limits',
            Array.from({ length: 101 }, () => ({ body: { json: 1 } })),
          ),
        ),
      ).toMatchObject({ ctor: 'Error' });
    });

    t.test(
      'a batch over 256 KB in all is refused (270,000 bytes)',
      async () => {
        const s = t.session();
        const heavy = Array.from({ length: 3 }, () => ({
          body: { repeat: ['x', 90_000] as [string, number] },
          contentType: 'text',
        }));
        expect(refused(await s.sendBatch('limits', heavy))).toMatchObject({ ctor: 'Error' });
      },
      { difference: 'miniflare-batch-288kb' },
    );

    t.test('a negative delay is refused with an Error', async () => {
      const s = t.session();
      expect(refused(await s.send('limits', { json: 1 }, { delaySeconds: -1 }))).toMatchObject({ ctor: 'Error' });
      expect(refused(await s.sendBatch('limits', [{ body: { json: 1 } }], { delaySeconds: -1 }))).toMatchObject({
        ctor: 'Error',
      });
    });

    t.test(
      'a delay over 12 hours (43,201 s) is refused',
      async () => {
        const s = t.session();
        expect(refused(await s.send('limits', { json: 1 }, { delaySeconds: 43_201 }))).toMatchObject({ ctor: 'Error' });
      },
      { difference: 'miniflare-delay-24h' },
    );

    t.test('send and sendBatch resolve to { metadata: { metrics: { backlogCount, backlogBytes } } }', async () => {
      const s = t.session();
      const r = await s.send('limits', { json: 1 });
      expect(r).toMatchObject({
        ok: true,
        result: { metadata: { metrics: { backlogCount: expect.any(Number), backlogBytes: expect.any(Number) } } },
      });
      const b = await s.sendBatch('limits', [{ body: { json: 1 } }]);
      expect(b).toMatchObject({
        ok: true,
        result: { metadata: { metrics: { backlogCount: expect.any(Number), backlogBytes: expect.any(Number) } } },
      });
    });
  },
);
