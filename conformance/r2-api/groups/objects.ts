/**
 * A bucket's object collection over `/r2/buckets/{bucket}/objects` (cloudflare/api-schemas
 * 2026-08-14 `r2-list-objects`, `r2-delete-objects`) and its jobs (`r2-list-bucket-jobs`,
 * `r2-get-bucket-job`): a listing as the binding sees the bucket, a delete by list, a prefix delete
 * answered with its job, and the schema's refusals. Objects are written through the target's
 * `putObject` and checked with its `objectExists`; the jobs here stay small (a few objects), so a
 * target that finishes small jobs in the request answers COMPLETED at once.
 */
import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';

const needsObjects = (t: { target: { putObject?: unknown; objectExists?: unknown } }) =>
  t.target.putObject && t.target.objectExists ? undefined : 'the target has no putObject or objectExists';

export const objects = defineGroup('objects', (t) => {
  const skip = needsObjects(t);
  const when = (o: object = {}) => (skip ? { skip } : o);

  t.test(
    'GET …/objects lists the keys in order with their size, paged by per_page and the cursor',
    async (c) => {
      const name = await c.make();
      for (const k of ['a/1', 'a/2', 'b']) await c.putObject(name, k, `body ${k}`);
      const first = await c.request('GET', c.url(`/${name}/objects?per_page=2`));
      expect(first.status, first.text).toBe(200);
      expect(first.body.result.map((o: { key: string; size: number }) => [o.key, o.size])).toEqual([
        ['a/1', 8],
        ['a/2', 8],
      ]);
      expect(first.body.result_info).toMatchObject({ per_page: 2, is_truncated: true });
      const cursor = encodeURIComponent(first.body.result_info.cursor);
      const rest = await c.request('GET', c.url(`/${name}/objects?per_page=2&cursor=${cursor}`));
      expect(rest.body.result.map((o: { key: string }) => o.key)).toEqual(['b']);
      const grouped = await c.request('GET', c.url(`/${name}/objects?delimiter=/`));
      expect(grouped.body.result.map((o: { key: string }) => o.key)).toEqual(['b']);
      expect(grouped.body.result_info.delimited).toEqual(['a/']);
    },
    when(),
  );

  t.test('per_page outside 1..1000 is refused', async (c) => {
    const name = await c.make();
    for (const n of ['0', '1001'])
      expect((await c.request('GET', c.url(`/${name}/objects?per_page=${n}`))).status).toBe(400);
  });

  t.test(
    'DELETE …/objects with a JSON array deletes those keys and answers them',
    async (c) => {
      const name = await c.make();
      for (const k of ['x', 'y', 'z']) await c.putObject(name, k, k);
      const r = await c.request('DELETE', c.url(`/${name}/objects`), { json: ['x', 'z'] });
      expect(r.body?.errors, r.text).toEqual([]);
      expect(r.body.result).toEqual([{ key: 'x' }, { key: 'z' }]);
      expect(await t.target.objectExists!(name, 'x')).toBe(false);
      expect(await t.target.objectExists!(name, 'y')).toBe(true);
    },
    when({ difference: 'unestablished-delete-list-errors' }),
  );

  t.test(
    'DELETE …/objects?prefix=dir/ answers a prefixDelete job; the job reads back; keys outside the prefix stay',
    async (c) => {
      const name = await c.make();
      for (const k of ['dir/1', 'dir/2', 'dirt']) await c.putObject(name, k, k);
      const r = await c.request('DELETE', c.url(`/${name}/objects?prefix=dir/`));
      expect(r.body?.errors, r.text).toEqual([]);
      const job = r.body.result;
      expect(job).toMatchObject({
        jobType: 'prefixDelete',
        prefixDelete: { prefix: 'dir/', isBucketClear: false },
      });
      expect(['ENQUEUED', 'RUNNING', 'COMPLETED']).toContain(job.status);
      const read = await c.request('GET', c.url(`/${name}/jobs/${job.id}`));
      expect(read.body.result).toMatchObject({ id: job.id, jobType: 'prefixDelete' });
      expect(await t.target.objectExists!(name, 'dirt')).toBe(true);
      const listed = await c.request('GET', c.url(`/${name}/jobs?jobType=prefixDelete`));
      expect(listed.body.result.jobs.map((j: { id: string }) => j.id)).toContain(job.id);
    },
    when({ difference: 'unestablished-prefix-delete-pace' }),
  );

  t.test(
    'a non-empty prefix that does not end in / is refused and deletes nothing',
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'dir/1', '1');
      const r = await c.request('DELETE', c.url(`/${name}/objects?prefix=dir`));
      expect(r.status, r.text).toBe(400);
      expect(await t.target.objectExists!(name, 'dir/1')).toBe(true);
    },
    when(),
  );

  t.test(
    'an unknown job id is 404',
    async (c) => {
      const name = await c.make();
      const r = await c.request('GET', c.url(`/${name}/jobs/7f24658b-31d7-4b91-9a12-cb5a2c99b294`));
      expectError(r, 404, 10040, 'The specified job does not exist.');
    },
    { difference: 'unestablished-jobs-errors' },
  );
});
