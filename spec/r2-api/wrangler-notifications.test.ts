/**
 * `wrangler queues create/list/delete` and `wrangler r2 bucket notification create/list/delete`
 * against `api serve`, each checked by what the double then delivers: a Worker made by
 * `createEnv(config, { api, worker })` over the same account consumes the queue wrangler made, and
 * its `queue` handler sees R2's message bodies for the rules wrangler set, on the double's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnv, ManualClock, type Bucket, type R2EventNotification } from 'edge-doubles';
import type { MessageBatch, Queue } from 'edge-doubles/queue';
import { accountState } from '../../lib/account/state.js';
import { QUEUES } from '../../lib/queue/backend.js';
import { startWrangler, WRANGLER_TIMEOUT, type WranglerHarness } from '../helpers/wrangler.js';

const quiet = { onWarning: () => {} };
const worker = {
  compatibility_date: '2025-01-01',
  r2_buckets: [{ binding: 'PHOTOS', bucket_name: 'photos' }],
  queues: { consumers: [{ queue: 'uploads', max_batch_timeout: 1 }] },
};
const T0 = Date.UTC(2030, 0, 1);

describe('wrangler queues / r2 bucket notification, against api serve', () => {
  const clock = new ManualClock(T0);
  let w: WranglerHarness;
  let PHOTOS: Bucket;
  let uploads: Queue;
  /** The bodies the Worker's consumer received since the last call. */
  let seen: R2EventNotification[] = [];
  const received = async () => {
    await uploads.drain();
    const out = seen;
    seen = [];
    return out;
  };
  const queuesOf = () => accountState(w.api.account).backend(QUEUES);
  const ruleIds = (listed: string) => [...listed.matchAll(/^rule_id:\s+(\S+)$/gm)].map((m) => m[1]);

  beforeAll(async () => {
    w = await startWrangler({ buckets: ['photos'], clock });
    await w.ok('queues', 'create', 'uploads');
    const consumer = {
      queue: (batch: MessageBatch<R2EventNotification>) => void seen.push(...batch.messages.map((m) => m.body)),
    };
    const made = createEnv<{ PHOTOS: Bucket }>(worker, { ...quiet, api: w.api, worker: consumer });
    PHOTOS = made.env.PHOTOS;
    uploads = made.queues.get('uploads')!;
    // The queue wrangler made is the one the Worker consumes (the account's, by name).
    expect(uploads).toBe(queuesOf().get('uploads'));
  }, WRANGLER_TIMEOUT);
  afterAll(() => w?.close());

  it(
    'queues list prints the queue wrangler made in its table',
    async () => {
      const listed = await w.ok('queues', 'list');
      expect(listed.stdout).toMatch(/│ id\s+│ name\s+│ created_on\s+│ modified_on\s+│ producers │ consumers │/);
      expect(listed.stdout).toMatch(
        /│ [0-9a-f]{32} │ uploads │ 2030-01-01T00:00:00\.000Z │ 2030-01-01T00:00:00\.000Z │ 0\s+│ 0\s+│/,
      );
    },
    WRANGLER_TIMEOUT,
  );

  it(
    'notification create (object-create, prefix, suffix) delivers PutObject to the consumer for matching keys only; list shows the rule',
    async () => {
      await w.ok(
        'r2',
        'bucket',
        'notification',
        'create',
        'photos',
        '--event-type',
        'object-create',
        '--queue',
        'uploads',
        '--prefix',
        'img/',
        '--suffix',
        '.png',
        '--description',
        'thumbnails',
      );
      const listed = await w.ok('r2', 'bucket', 'notification', 'list', 'photos');
      expect(listed.stdout).toMatch(
        /queue_name:\s+uploads\nprefix:\s+img\/\nsuffix:\s+\.png\nevent_type:\s+PutObject,CompleteMultipartUpload,CopyObject/,
      );
      expect(listed.stdout).toMatch(/created_at:\s+2030-01-01T00:00:00\.000Z/);

      clock.advance(60_000);
      const put = await PHOTOS.put('img/cat.png', 'meow');
      await PHOTOS.put('img/cat.jpg', 'not this suffix');
      await PHOTOS.put('docs/cat.png', 'not this prefix');
      await PHOTOS.delete('img/cat.png'); // no object-delete rule yet
      expect(await received()).toEqual([
        {
          account: w.api.account.id,
          action: 'PutObject',
          bucket: 'photos',
          object: { key: 'img/cat.png', size: 4, eTag: put!.etag },
          eventTime: '2030-01-01T00:01:00.000Z',
        },
      ]);
    },
    WRANGLER_TIMEOUT * 2,
  );

  it(
    "both event types in one rule; delete --rule removes that rule only, delete --queue all of the queue's",
    async () => {
      await w.ok(
        'r2',
        'bucket',
        'notification',
        'create',
        'photos',
        '--event-type',
        'object-create',
        'object-delete',
        '--queue',
        'uploads',
        '--prefix',
        'logs/',
      );
      const listed = await w.ok('r2', 'bucket', 'notification', 'list', 'photos');
      expect(listed.stdout).toMatch(
        /prefix:\s+logs\/\nsuffix:\s+\(all suffixes\)\nevent_type:\s+PutObject,CompleteMultipartUpload,CopyObject,DeleteObject,LifecycleDeletion/,
      );
      const [first, second] = ruleIds(listed.stdout);

      await PHOTOS.put('logs/a', 'x');
      await PHOTOS.delete('logs/a');
      expect((await received()).map((m) => [m.action, m.object])).toEqual([
        ['PutObject', { key: 'logs/a', size: 1, eTag: expect.stringMatching(/^[0-9a-f]{32}$/) }],
        ['DeleteObject', { key: 'logs/a' }], // size and eTag absent on deletes
      ]);

      await w.ok('r2', 'bucket', 'notification', 'delete', 'photos', '--queue', 'uploads', '--rule', second!);
      expect(ruleIds((await w.ok('r2', 'bucket', 'notification', 'list', 'photos')).stdout)).toEqual([first]);
      await PHOTOS.put('logs/b', 'x');
      await PHOTOS.put('img/b.png', 'x');
      expect((await received()).map((m) => m.object.key)).toEqual(['img/b.png']);

      await w.ok('r2', 'bucket', 'notification', 'delete', 'photos', '--queue', 'uploads');
      // No rule left: the configuration GET is the schema's 404 11015, which wrangler prints as an error.
      const none = await w.run('r2', 'bucket', 'notification', 'list', 'photos');
      expect(none.code).not.toBe(0);
      expect(none.output).toContain('workers.api.error.no_configs_found_for_bucket [code: 11015]');
      await PHOTOS.put('img/c.png', 'x');
      expect(await received()).toEqual([]);
    },
    WRANGLER_TIMEOUT * 4,
  );

  it(
    "errors: wrangler's own text for a missing queue, the API's for an overlap, a missing bucket and a taken name; nothing changes",
    async () => {
      const missing = await w.run(
        'r2',
        'bucket',
        'notification',
        'create',
        'photos',
        '--event-type',
        'object-create',
        '--queue',
        'nope',
      );
      expect(missing.code).not.toBe(0);
      expect(missing.output).toContain('Queue "nope" does not exist. To create it, run: wrangler queues create nope');

      await w.ok(
        'r2',
        'bucket',
        'notification',
        'create',
        'photos',
        '--event-type',
        'object-delete',
        '--queue',
        'uploads',
      );
      const overlap = await w.run(
        'r2',
        'bucket',
        'notification',
        'create',
        'photos',
        '--event-type',
        'object-delete',
        '--queue',
        'uploads',
        '--prefix',
        'tmp/',
      );
      expect(overlap.code).not.toBe(0);
      expect(overlap.output).toMatch(/conflicting event notification rules \[code: 10040\]/);
      expect(ruleIds((await w.ok('r2', 'bucket', 'notification', 'list', 'photos')).stdout)).toHaveLength(1);

      const noBucket = await w.run('r2', 'bucket', 'notification', 'list', 'absent');
      expect(noBucket.output).toContain('workers.api.error.bucket_not_found [code: 10085]');

      const taken = await w.run('queues', 'create', 'uploads');
      expect(taken.code).not.toBe(0);
      expect(taken.output).toContain('[code: 11009]');
    },
    WRANGLER_TIMEOUT * 4,
  );

  it(
    "queues delete: the rules of a deleted queue send nothing; deleting it again is wrangler's missing-queue error",
    async () => {
      await w.ok('queues', 'create', 'gone');
      await w.ok(
        'r2',
        'bucket',
        'notification',
        'create',
        'photos',
        '--event-type',
        'object-create',
        '--queue',
        'gone',
      );
      const gone = queuesOf().get('gone')!;
      await w.ok('queues', 'delete', 'gone');
      expect(queuesOf().get('gone')).toBeUndefined();
      await PHOTOS.put('after-delete', 'x');
      expect(gone.pending).toEqual([]);
      const again = await w.run('queues', 'delete', 'gone');
      expect(again.code).not.toBe(0);
      expect(again.output).toContain('Queue "gone" does not exist. To create it, run: wrangler queues create gone');
    },
    WRANGLER_TIMEOUT * 3,
  );
});
