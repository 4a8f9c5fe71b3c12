/** docs/queues.md's snippet (between the markers), run as a test: spec/docs.test.ts checks the page still shows it verbatim. */
// README: queues
import { expect, it } from 'vitest';
import { ManualClock, createEnv } from 'edge-doubles';
import type { MessageBatch, Queue } from 'edge-doubles/queue';
import 'edge-doubles/vitest'; // toHaveSent, toHaveAcked, toHaveRetried, toHaveDeadLettered

const config = {
  compatibility_date: '2025-01-01',
  queues: {
    producers: [{ binding: 'JOBS', queue: 'jobs' }],
    consumers: [{ queue: 'jobs', max_retries: 1, retry_delay: 10, dead_letter_queue: 'jobs-dlq' }],
  },
};

it('a consumer that throws is retried after retry_delay, then dead-lettered', async () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const worker = {
    async queue(batch: MessageBatch<{ id: number }>) {
      throw new Error(`cannot handle ${batch.messages.length} message(s)`);
    },
  };
  const { env, queues } = createEnv<{ JOBS: Queue<{ id: number }> }>(config, { worker, clock, log: true });
  await env.JOBS.send({ id: 1 });

  const jobs = queues.get('jobs')!;
  await jobs.drain(); // delivers now (the 5 s batch timeout is not waited for): attempt 1 throws
  expect(jobs).toHaveRetried({ body: { id: 1 }, attempts: 1 });
  clock.advance(10_000); // retry_delay
  await jobs.drain(); // attempt 2 throws too: out of retries
  expect(jobs).toHaveDeadLettered({ body: { id: 1 }, attempts: 2 });
  expect(queues.get('jobs-dlq')!.pending.map((m) => m.body)).toEqual([{ id: 1 }]);
});
// README: end
