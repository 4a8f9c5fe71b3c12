/**
 * R2's event notification rules over `/accounts/{id}/event_notifications/r2/{bucket}/configuration`
 * (issue 19 point 3; lib/r2-api/notifications.ts; docs/sources/r2-api.md#event-notifications): as
 * wrangler's `r2 bucket notification create/list/delete` send them. Rules are added per queue (each
 * PUT adds), read back with `ruleId` and `createdAt`, removed by id or all of a queue's; an
 * overlapping rule on the same queue is refused, the same rule on another queue is not
 * (cloudflare-docs#17949, PR #19130). What a rule delivers is not observable through these routes:
 * spec/bucket/notifications.test.ts and spec/r2-api/wrangler-notifications.test.ts check it on the
 * double.
 */
import { expect } from '../../runner.js';
import { defineGroup, expectError, type R2ApiClient } from '../harness.js';
import { queuesOf } from './queues.js';

/** The notification routes of one bucket; `cleanup()` removes the rules a test set on each queue. */
function notificationsOf(c: R2ApiClient, bucket: string) {
  const base = `${c.target.baseUrl}/accounts/${c.target.accountId}/event_notifications/r2/${bucket}/configuration`;
  const touched = new Set<string>();
  return {
    get: () => c.request('GET', base),
    getQueue: (queueId: string) => c.request('GET', `${base}/queues/${queueId}`),
    put(queueId: string, rules: unknown) {
      touched.add(queueId);
      return c.request('PUT', `${base}/queues/${queueId}`, { json: { rules } });
    },
    remove: (queueId: string, ruleIds?: string[]) =>
      c.request('DELETE', `${base}/queues/${queueId}`, ruleIds ? { json: { ruleIds } } : {}),
    async cleanup() {
      for (const id of touched) await c.request('DELETE', `${base}/queues/${id}`);
    },
  };
}

/** A bucket and two queues for one test, torn down (rules, then queues) however it ends. */
async function withSetup(
  c: R2ApiClient,
  run: (s: {
    bucket: string;
    n: ReturnType<typeof notificationsOf>;
    q1: string;
    q2: string;
    queueName: (l: string) => string;
  }) => Promise<void>,
) {
  const bucket = await c.make();
  const q = queuesOf(c);
  const n = notificationsOf(c, bucket);
  try {
    const q1 = await q.make('q1');
    const q2 = await q.make('q2');
    await run({ bucket, n, q1, q2, queueName: q.name });
  } finally {
    await n.cleanup();
    await q.cleanup();
  }
}

export const notifications = defineGroup('notifications', (t) => {
  t.test(
    'a new bucket has no rules; PUT adds, GET shows them with ruleId and createdAt, per queue and in all',
    async (c) => {
      await withSetup(c, async ({ bucket, n, q1, queueName }) => {
        // No rules: the schema's "No Configuration Found response" (cloudflare/api-schemas).
        expectError(await n.get(), 404, 11015, 'workers.api.error.no_configs_found_for_bucket');

        const put = await n.put(q1, [
          { prefix: 'img/', suffix: '.png', actions: ['PutObject', 'CopyObject'], description: 'thumbnails' },
        ]);
        expect(put.body?.errors, put.text).toEqual([]);
        expect((await n.put(q1, [{ prefix: 'logs/', actions: ['DeleteObject', 'LifecycleDeletion'] }])).status).toBe(
          200,
        ); // added, not replaced
        const all = (await n.get()).body.result;
        expect(all.bucketName).toBe(bucket);
        expect(all.queues).toHaveLength(1);
        expect(all.queues[0]).toMatchObject({ queueId: q1, queueName: queueName('q1') });
        expect(all.queues[0].rules).toMatchObject([
          { prefix: 'img/', suffix: '.png', actions: ['PutObject', 'CopyObject'], description: 'thumbnails' },
          { prefix: 'logs/', actions: ['DeleteObject', 'LifecycleDeletion'] },
        ]);
        for (const r of all.queues[0].rules) {
          expect(typeof r.ruleId).toBe('string');
          expect(Date.parse(r.createdAt)).not.toBeNaN();
        }
        expect((await n.getQueue(q1)).body.result).toMatchObject({ queueId: q1, rules: all.queues[0].rules });
      });
    },
  );

  t.test('DELETE with ruleIds removes those rules; without a body every rule of the queue', async (c) => {
    await withSetup(c, async ({ n, q1, q2 }) => {
      await n.put(q1, [{ prefix: 'a/', actions: ['PutObject'] }]);
      await n.put(q1, [{ prefix: 'b/', actions: ['PutObject'] }]);
      await n.put(q2, [{ actions: ['DeleteObject'] }]);
      const [first, second] = (await n.getQueue(q1)).body.result.rules as { ruleId: string }[];
      expect((await n.remove(q1, [first!.ruleId])).status).toBe(200);
      expect((await n.getQueue(q1)).body.result.rules.map((r: { ruleId: string }) => r.ruleId)).toEqual([
        second!.ruleId,
      ]);
      expect((await n.remove(q1)).status).toBe(200);
      const left = (await n.get()).body.result.queues as { queueId: string }[];
      expect(left.map((x) => x.queueId)).toEqual([q2]);
      expect((await n.remove(q2)).status).toBe(200);
      expectError(await n.get(), 404, 11015);
    });
  });

  t.test(
    'an overlapping rule on the same queue is refused (400), the rules kept; the same rule on another queue is accepted',
    async (c) => {
      await withSetup(c, async ({ n, q1, q2 }) => {
        expect((await n.put(q1, [{ actions: ['PutObject'] }])).status).toBe(200);
        const overlap = await n.put(q1, [{ prefix: 'img/', actions: ['PutObject', 'DeleteObject'] }]);
        expect(overlap.status, overlap.text).toBe(400);
        expect(overlap.body.success).toBe(false);
        expect((await n.getQueue(q1)).body.result.rules).toHaveLength(1);
        expect((await n.put(q2, [{ actions: ['PutObject'] }])).status).toBe(200);
      });
    },
  );

  t.test(
    "the overlap's code and text",
    async (c) => {
      await withSetup(c, async ({ n, q1 }) => {
        await n.put(q1, [{ actions: ['PutObject'] }]);
        const overlap = await n.put(q1, [{ suffix: '.png', actions: ['PutObject'] }]);
        expectError(overlap, 400, 10040);
        expect(overlap.body.errors[0].message).toMatch(/conflicting event notification rules/);
      });
    },
    { difference: 'unestablished-notification-errors' },
  );

  t.test("a PUT with no rules is refused (the schema's minItems: 1) and adds nothing", async (c) => {
    await withSetup(c, async ({ n, q1 }) => {
      const empty = await n.put(q1, []);
      expect([empty.status, empty.body?.success], empty.text).toEqual([400, false]);
      expectError(await n.get(), 404, 11015);
    });
  });

  t.test("an unknown bucket is 404 10085 (the notification service's bucket_not_found)", async (c) => {
    const missing = notificationsOf(c, c.name('absent'));
    expectError(await missing.get(), 404, 10085, 'workers.api.error.bucket_not_found');
  });

  t.test(
    'an unknown queue is 404 10104; a rule naming no action or an unknown one is 400 10040; nothing is kept',
    async (c) => {
      await withSetup(c, async ({ n, q1 }) => {
        expectError(await n.put('c'.repeat(32), [{ actions: ['PutObject'] }]), 404, 10104);
        expectError(await n.put(q1, [{ actions: [] }]), 400, 10040);
        expectError(await n.put(q1, [{ actions: ['AbortMultipartUpload'] }]), 400, 10040); // no rule can name it (OpenAPI enum)
        expectError(await n.get(), 404, 11015);
      });
    },
    { difference: 'unestablished-notification-errors' },
  );
});
