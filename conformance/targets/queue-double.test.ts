import { ManualClock } from '../../lib/clock.js';
import { Queue } from '../../lib/queue.js';
import { describeBody, fromWire, queueConformance, type ConsumerOp, type SendOutcome } from '../queue/index.js';

// The Queues double in Node, on a ManualClock: elapse() advances it and drains what became due.
queueConformance({
  name: 'queue-double',
  async open(declared, onBatch) {
    const clock = new ManualClock(Date.now());
    const queues = new Map<string, Queue>();
    for (const d of declared)
      queues.set(d.name, new Queue({ name: d.name, clock, queues, deliveryDelay: d.deliveryDelay }));
    for (const d of declared) {
      queues.get(d.name)!.consume((batch) => {
        const ops = onBatch({
          queue: batch.queue,
          messages: batch.messages.map((m) => ({
            id: m.id,
            timestamp: m.timestamp.getTime(),
            attempts: m.attempts,
            body: describeBody(m.body),
          })),
        });
        apply(batch, ops);
      }, d.consumer);
    }
    const outcome = async (p: () => Promise<unknown>): Promise<SendOutcome> => {
      try {
        return { ok: true, result: await p() };
      } catch (e) {
        return {
          ok: false,
          ctor: (e as object).constructor.name,
          name: (e as Error).name,
          message: (e as Error).message,
        };
      }
    };
    const q = (name: string) => queues.get(name)!;
    return {
      send: (name, body, options) => outcome(() => q(name).send(fromWire(body), options as never)),
      sendBatch: (name, messages, options) =>
        outcome(() => q(name).sendBatch(messages.map((m) => ({ ...m, body: fromWire(m.body) })) as never, options)),
      async elapse(seconds) {
        clock.advance(seconds * 1000);
        // A delivery may dead-letter into another queue: drain until a round delivers nothing new.
        for (let round = 0; round < 5; round++)
          for (const queue of queues.values()) await queue.drain({ waitForBatchTimeout: true });
      },
      async close() {
        for (const queue of queues.values()) queue.reset();
      },
    };
  },
});

/** What the conformance consumer does, in order (the same steps the Miniflare target's Worker takes). */
function apply(
  batch: {
    messages: readonly { ack(): void; retry(o?: { delaySeconds?: number }): void }[];
    ackAll(): void;
    retryAll(o?: { delaySeconds?: number }): void;
  },
  ops: ConsumerOp[],
): void {
  for (const op of ops) {
    if (op[0] === 'ack') batch.messages[op[1]]!.ack();
    else if (op[0] === 'retry') batch.messages[op[1]]!.retry(op[2] === undefined ? undefined : { delaySeconds: op[2] });
    else if (op[0] === 'ackAll') batch.ackAll();
    else if (op[0] === 'retryAll') batch.retryAll(op[1] === undefined ? undefined : { delaySeconds: op[1] });
    else throw new Error('the conformance consumer throws');
  }
}
