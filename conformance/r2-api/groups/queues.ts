/**
 * The account's queues over `/accounts/{id}/queues` (issue 19 point 2; lib/queue/routes.ts), as
 * `wrangler queues create/list/delete` and R2's notification setup use them: create, the `name`
 * filter wrangler resolves `--queue` with, get, delete, and the errors wrangler relays. Every queue a
 * test makes is deleted in its `finally` (the harness cleans up buckets only).
 */
import { expect } from '../../runner.js';
import { expectError, type ApiReply, type R2ApiClient } from '../harness.js';
import { defineGroup } from '../harness.js';

/** The Queues routes for one test: queues named `<prefix>-<label>`, deleted by `cleanup()`. */
export function queuesOf(c: R2ApiClient) {
  const base = `${c.target.baseUrl}/accounts/${c.target.accountId}/queues`;
  const made: string[] = [];
  return {
    name: (label: string) => c.name(label),
    async create(label: string, body: Record<string, unknown> = {}): Promise<ApiReply> {
      const r = await c.request('POST', base, { json: { queue_name: c.name(label), ...body } });
      if (r.status === 200 && r.body?.result?.queue_id) made.push(r.body.result.queue_id);
      return r;
    },
    /** Creates and insists on success; returns the queue's id. */
    async make(label: string): Promise<string> {
      const r = await this.create(label);
      expect(r.body?.errors, r.text).toEqual([]);
      return r.body.result.queue_id as string;
    },
    byName: (label: string) => c.request('GET', `${base}?name=${encodeURIComponent(c.name(label))}`),
    get: (id: string) => c.request('GET', `${base}/${id}`),
    delete: (id: string) => c.request('DELETE', `${base}/${id}`),
    async cleanup(): Promise<void> {
      for (const id of made.splice(0).reverse()) await c.request('DELETE', `${base}/${id}`);
    },
  };
}

export const queues = defineGroup('queues', (t) => {
  t.test(
    'create answers the queue (32-hex id, name, timestamps); the name filter, get and delete find it',
    async (c) => {
      const q = queuesOf(c);
      try {
        const made = await q.create('jobs');
        expect(made.status, made.text).toBe(200);
        expect(made.body.result).toMatchObject({
          queue_name: q.name('jobs'),
          queue_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        });
        expect(Date.parse(made.body.result.created_on)).not.toBeNaN();
        const id = made.body.result.queue_id as string;
        const found = await q.byName('jobs');
        expect(found.body.result.map((x: { queue_id: string }) => x.queue_id)).toEqual([id]);
        expect((await q.get(id)).body.result).toMatchObject({ queue_id: id, queue_name: q.name('jobs') });
        expect((await q.delete(id)).status).toBe(200);
        const gone = await q.get(id);
        expectError(gone, 404, 10104); // QueueNotFound (docs queues/reference/error-codes)
        expect((await q.byName('jobs')).body.result).toEqual([]);
      } finally {
        await q.cleanup();
      }
    },
  );

  t.test(
    'a name already taken is refused with 11009, the first queue untouched',
    async (c) => {
      const q = queuesOf(c);
      try {
        const id = await q.make('dup');
        const again = await q.create('dup');
        expectError(
          again,
          409,
          11009,
          `A queue with the name ${q.name('dup')} already exists: the name is already taken`,
        );
        expect((await q.byName('dup')).body.result.map((x: { queue_id: string }) => x.queue_id)).toEqual([id]);
      } finally {
        await q.cleanup();
      }
    },
    { difference: 'unestablished-queue-name-taken' },
  );

  t.test('an id that is not a queue id is 400 10107 (QueueIDMalformed)', async (c) => {
    expectError(await queuesOf(c).get('not-an-id!'), 400, 10107);
  });
});
