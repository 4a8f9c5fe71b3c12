import { Miniflare } from 'miniflare';
import { describeBody, fromWire, miniflareQueueDifferences, queueConformance, type SeenBatch } from '../queue/index.js';

// Miniflare 4.20260730.0's queues inside workerd 1.20261117.1: one Worker is producer (through a
// binding per queue) and consumer of every queue; each batch is reported to the suite through a
// service binding that answers what to do with it. Real time: elapse() sleeps.
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const binding = (queue: string) => `Q_${queue.replace(/-/g, '_')}`;

const script = `
const fromWire = ${fromWire.toString()};
const describeBody = ${describeBody.toString()};
export default {
  async fetch(request, env) {
    const { op, queue, body, messages, options } = await request.json();
    const q = env[${JSON.stringify('Q_')} + queue.replace(/-/g, '_')];
    try {
      const result = op === 'send'
        ? await q.send(fromWire(body), options)
        : await q.sendBatch(messages.map((m) => ({ ...m, body: fromWire(m.body) })), options);
      return Response.json({ ok: true, result });
    } catch (e) {
      return Response.json({ ok: false, ctor: e.constructor.name, name: e.name, message: e.message });
    }
  },
  async queue(batch, env) {
    const seen = {
      queue: batch.queue,
      messages: batch.messages.map((m) => ({ id: m.id, timestamp: m.timestamp.getTime(), attempts: m.attempts, body: describeBody(m.body) })),
    };
    const ops = await (await env.REPORT.fetch('http://report/', { method: 'POST', body: JSON.stringify(seen) })).json();
    for (const op of ops) {
      if (op[0] === 'ack') batch.messages[op[1]].ack();
      else if (op[0] === 'retry') batch.messages[op[1]].retry(op[2] === undefined ? undefined : { delaySeconds: op[2] });
      else if (op[0] === 'ackAll') batch.ackAll();
      else if (op[0] === 'retryAll') batch.retryAll(op[1] === undefined ? undefined : { delaySeconds: op[1] });
      else throw new Error('the conformance consumer throws');
    }
  },
};`;

queueConformance({
  name: 'queue-miniflare',
  differences: miniflareQueueDifferences,
  timeout: 30_000,
  async open(declared, onBatch) {
    // When the consumer last reported: elapse() waits for a quiet spell after the time has passed,
    // so a loaded machine's late timers still land before the test looks.
    let lastReport = 0;
    let inFlight = 0;
    const mf = new Miniflare({
      modules: true,
      script,
      compatibilityDate: '2026-11-01',
      queueProducers: Object.fromEntries(
        declared.map((d) => [
          binding(d.name),
          { queueName: d.name, ...(d.deliveryDelay !== undefined ? { deliveryDelay: d.deliveryDelay } : {}) },
        ]),
      ),
      queueConsumers: Object.fromEntries(
        declared.map((d) => [
          d.name,
          Object.fromEntries(Object.entries(d.consumer).filter(([, v]) => v !== undefined)),
        ]),
      ),
      serviceBindings: {
        REPORT: async (request: Request) => {
          inFlight++;
          lastReport = Date.now();
          try {
            return Response.json(onBatch((await request.json()) as SeenBatch));
          } finally {
            inFlight--;
            lastReport = Date.now();
          }
        },
      },
    });
    await mf.ready;
    const call = async (payload: object) => {
      const res = await mf.dispatchFetch('http://producer/', { method: 'POST', body: JSON.stringify(payload) });
      return (await res.json()) as never;
    };
    return {
      send: (queue, body, options) => call({ op: 'send', queue, body, options }),
      sendBatch: (queue, messages, options) => call({ op: 'sendBatch', queue, messages, options }),
      // The broker's timers are real: wait them out, with a margin, then for 300 ms without a report.
      async elapse(seconds) {
        await sleep(seconds * 1000 + 250);
        for (let waited = 0; waited < 5000 && (inFlight > 0 || Date.now() - lastReport < 300); waited += 50)
          await sleep(50);
      },
      close: () => mf.dispose(),
    };
  },
});
