/**
 * `wrangler queues consumer add/remove/list`, `queues consumer http add/remove/list` and
 * `queues purge` against `api serve` (issue 28 point 3), each checked through another surface: the
 * worker consumer's settings are what a Worker consuming the queue gets, the HTTP pull consumer is
 * the one a client pulls from, and a purge empties the queue the Worker's producer sent to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountState } from '../../lib/account/state.js';
import { QUEUES } from '../../lib/queue/backend.js';
import { startWrangler, WRANGLER_TIMEOUT, type WranglerHarness } from '../helpers/wrangler.js';

describe('wrangler queues consumer / purge, against api serve', () => {
  let w: WranglerHarness;
  const queue = (name: string) => accountState(w.api.account).backend(QUEUES).get(name)!;
  const api = (path: string, init?: RequestInit) =>
    w.api.fetch(`${w.baseURL}/accounts/${w.api.account.id}/queues${path}`, {
      ...init,
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    });

  beforeAll(async () => {
    w = await startWrangler();
    await w.ok('queues', 'create', 'work');
    await w.ok('queues', 'create', 'pulled');
  }, WRANGLER_TIMEOUT);
  afterAll(() => w?.close());

  it(
    'consumer add sets the settings a Worker consuming the queue gets; list shows it; a second consumer is refused; remove',
    async () => {
      await w.ok(
        'queues',
        'consumer',
        'add',
        'work',
        'my-worker',
        '--batch-size',
        '3',
        '--message-retries',
        '1',
        '--batch-timeout',
        '2',
        '--dead-letter-queue',
        'work-dlq',
      );
      const q = queue('work');
      q.consume(() => {});
      expect(q.consumerSettings).toMatchObject({
        maxBatchSize: 3,
        maxRetries: 1,
        maxBatchTimeout: 2,
        deadLetterQueue: 'work-dlq',
      });
      const listed = await w.ok('queues', 'consumer', 'list', 'work');
      expect(listed.output).toContain('my-worker');
      const second = await w.run('queues', 'consumer', 'http', 'add', 'work');
      expect(second.code).not.toBe(0);
      await w.ok('queues', 'consumer', 'remove', 'work', 'my-worker');
      expect((await w.ok('queues', 'consumer', 'list', 'work')).output).not.toContain('my-worker');
    },
    WRANGLER_TIMEOUT * 3,
  );

  it(
    'consumer http add makes the pull consumer a client pulls from; http list shows it; http remove',
    async () => {
      await w.ok('queues', 'consumer', 'http', 'add', 'pulled', '--batch-size', '5', '--visibility-timeout-secs', '10');
      const listed = await w.ok('queues', 'consumer', 'http', 'list', 'pulled');
      expect(listed.output).toMatch(/batch_size[\s\S]*5/);
      await queue('pulled').send('hello', { contentType: 'text' });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
      const id = ((await (await api('?name=pulled')).json()) as any).result[0].queue_id;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the assertions below
      const pulled = (await (await api(`/${id}/messages/pull`, { method: 'POST', body: '{}' })).json()) as any;
      expect(pulled.result.messages.map((m: { body: string }) => m.body)).toEqual(['hello']);
      await w.ok('queues', 'consumer', 'http', 'remove', 'pulled');
      expect((await w.ok('queues', 'consumer', 'http', 'list', 'pulled')).output).toContain(
        'No HTTP pull consumers found',
      );
    },
    WRANGLER_TIMEOUT * 3,
  );

  it(
    'purge drops the messages a producer sent',
    async () => {
      await w.ok('queues', 'create', 'full');
      const q = queue('full');
      await q.sendBatch([{ body: 1 }, { body: 2 }]);
      expect(q.pending).toHaveLength(2);
      const out = await w.ok('queues', 'purge', 'full', '--force');
      expect(out.output).toContain("Purged Queue 'full'");
      expect(q.pending).toEqual([]);
    },
    WRANGLER_TIMEOUT * 2,
  );
});
