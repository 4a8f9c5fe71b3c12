/**
 * `wrangler r2 object put/get/delete --remote` against `api serve` (issue 28 point 1), each checked
 * through another surface: the Worker's binding over the same account sees what wrangler put (bytes,
 * HTTP metadata, storage class), wrangler gets what the binding put, a put fires the bucket's event
 * notifications, and a lock rule refuses wrangler's overwrite and delete with R2's 10069.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnv, ManualClock, type Bucket, type R2EventNotification } from 'edge-doubles';
import type { MessageBatch, Queue } from 'edge-doubles/queue';
import { startWrangler, WRANGLER_TIMEOUT, type WranglerHarness } from '../helpers/wrangler.js';

const quiet = { onWarning: () => {} };
const worker = {
  compatibility_date: '2025-01-01',
  r2_buckets: [{ binding: 'FILES', bucket_name: 'files' }],
  queues: { consumers: [{ queue: 'events', max_batch_timeout: 1 }] },
};

describe('wrangler r2 object --remote, against api serve', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  let w: WranglerHarness;
  let FILES: Bucket;
  let events: Queue;
  const seen: R2EventNotification[] = [];

  beforeAll(async () => {
    w = await startWrangler({ buckets: ['files'], clock });
    await w.ok('queues', 'create', 'events');
    const made = createEnv<{ FILES: Bucket }>(worker, {
      ...quiet,
      api: w.api,
      worker: { queue: (b: MessageBatch<R2EventNotification>) => void seen.push(...b.messages.map((m) => m.body)) },
    });
    FILES = made.env.FILES;
    events = made.queues.get('events')!;
  }, WRANGLER_TIMEOUT);
  afterAll(() => w?.close());

  it(
    'put stores the file with the HTTP metadata flags and the storage class; the binding reads it',
    async () => {
      const file = w.file('report.csv', 'a,b\n1,2\n');
      await w.ok(
        'r2',
        'object',
        'put',
        'files/reports/2030/report.csv',
        '--remote',
        '--file',
        file,
        '--content-type',
        'text/csv',
        '--content-disposition',
        'attachment; filename="r.csv"',
        '--content-encoding',
        'identity',
        '--content-language',
        'en',
        '--cache-control',
        'max-age=60',
        '--expires',
        'Wed, 02 Jan 2030 00:00:00 GMT',
        '--storage-class',
        'InfrequentAccess',
      );
      const got = await FILES.get('reports/2030/report.csv');
      expect(await got!.text()).toBe('a,b\n1,2\n');
      expect(got!.httpMetadata).toEqual({
        contentType: 'text/csv',
        contentDisposition: 'attachment; filename="r.csv"',
        contentEncoding: 'identity',
        contentLanguage: 'en',
        cacheControl: 'max-age=60',
        cacheExpiry: new Date('2030-01-02T00:00:00.000Z'),
      });
      expect(got!.storageClass).toBe('InfrequentAccess');
    },
    WRANGLER_TIMEOUT,
  );

  it(
    'get writes what the binding put to a file and to stdout; a missing key fails',
    async () => {
      await FILES.put('notes/hello.txt', 'hello from the binding');
      await w.ok('r2', 'object', 'get', 'files/notes/hello.txt', '--remote', '--file', 'out.txt');
      expect(readFileSync(join(w.cwd, 'out.txt'), 'utf8')).toBe('hello from the binding');
      const piped = await w.ok('r2', 'object', 'get', 'files/notes/hello.txt', '--remote', '--pipe');
      expect(piped.stdout).toBe('hello from the binding');
      const missing = await w.run('r2', 'object', 'get', 'files/notes/absent.txt', '--remote', '--file', 'none.txt');
      expect(missing.code).not.toBe(0);
      expect(missing.output).toContain('The specified key does not exist.');
    },
    WRANGLER_TIMEOUT,
  );

  it(
    'delete removes the object from the binding',
    async () => {
      await FILES.put('tmp/gone.txt', 'x');
      await w.ok('r2', 'object', 'delete', 'files/tmp/gone.txt', '--remote');
      expect(await FILES.head('tmp/gone.txt')).toBeNull();
    },
    WRANGLER_TIMEOUT,
  );

  it(
    "a put fires the bucket's event notification rule; a delete its delete rule",
    async () => {
      await w.ok(
        'r2',
        'bucket',
        'notification',
        'create',
        'files',
        '--event-type',
        'object-create',
        'object-delete',
        '--queue',
        'events',
        '--prefix',
        'up/',
      );
      const file = w.file('up.txt', 'uploaded');
      await w.ok('r2', 'object', 'put', 'files/up/one.txt', '--remote', '--file', file);
      await w.ok('r2', 'object', 'delete', 'files/up/one.txt', '--remote');
      await events.drain();
      expect(seen.map((m) => [m.action, m.object.key])).toEqual([
        ['PutObject', 'up/one.txt'],
        ['DeleteObject', 'up/one.txt'],
      ]);
      expect(seen[0]!.object.size).toBe(8);
    },
    WRANGLER_TIMEOUT * 2,
  );

  it(
    'a lock rule refuses the overwrite and the delete with 10069, and the object stays',
    async () => {
      await FILES.put('locked/keep.txt', 'original');
      await w.ok('r2', 'bucket', 'lock', 'add', 'files', 'keep', 'locked/', '--retention-indefinite', '--force');
      const file = w.file('new.txt', 'replacement');
      const put = await w.run('r2', 'object', 'put', 'files/locked/keep.txt', '--remote', '--file', file, '--force');
      expect(put.code).not.toBe(0);
      expect(put.output).toContain('10069');
      const del = await w.run('r2', 'object', 'delete', 'files/locked/keep.txt', '--remote', '--force');
      expect(del.code).not.toBe(0);
      expect(del.output).toContain('10069');
      expect(await (await FILES.get('locked/keep.txt'))!.text()).toBe('original');
    },
    WRANGLER_TIMEOUT * 2,
  );
});
