/**
 * Buckets: create, get, list (filters, cursor), the default storage class, delete, jurisdictions,
 * and each refusal's code (docs/sources/r2-api.md#buckets; the `cloudflare` SDK's bucket types).
 */
import { expect } from '../../runner.js';
import { defineGroup, expectError } from '../harness.js';

const NOT_FOUND = 'The specified bucket does not exist.';

export const buckets = defineGroup('buckets', (t) => {
  t.test('create, get, list and delete a bucket', async (c) => {
    const name = await c.make('b', { locationHint: 'weur', storageClass: 'InfrequentAccess' });
    const got = await c.get(name);
    expect(got.status).toBe(200);
    expect(got.body.result).toMatchObject({ name, storage_class: 'InfrequentAccess' });
    // Shown upper-case although sent lower-case (terraform-provider-cloudflare#6026).
    expect(got.body.result.location).toBe('WEUR');
    expect(Number.isNaN(Date.parse(got.body.result.creation_date))).toBe(false);
    const listed = await c.list();
    expect(listed.body.result.buckets.map((b: { name: string }) => b.name)).toEqual([name]);
    const gone = await c.delete(name);
    expect(gone.status).toBe(200);
    expectError(await c.get(name), 404, 10006, NOT_FOUND);
  });

  t.test('a name already made in this account: 409 10004', async (c) => {
    const name = await c.make();
    expectError(await c.create({ name }), 409, 10004, 'The bucket you tried to create already exists, and you own it.');
  });

  t.test('names outside the rule: 400 10005', async (c) => {
    for (const name of [`${c.prefix}_x`, `${c.prefix}-UP`, 'ab', `-${c.prefix}`, `${c.prefix}-${'a'.repeat(60)}`]) {
      expectError(await c.create({ name }), 400, 10005, 'The specified bucket name is not valid.');
    }
    expect((await c.list()).body.result.buckets).toEqual([]);
  });

  t.test('a body that is not JSON, or a storage class outside the enum: 400 10040', async (c) => {
    expectError(
      await c.request('POST', c.url(), { body: '{"name":', headers: { 'content-type': 'application/json' } }),
      400,
      10040,
    );
    expectError(await c.create({ name: c.name(), storageClass: 'Glacier' }), 400, 10040);
    expect((await c.list()).body.result.buckets).toEqual([]);
  });

  t.test('PATCH with cf-r2-storage-class changes the default storage class', async (c) => {
    const name = await c.make();
    const r = await c.request('PATCH', c.url(`/${name}`), { headers: { 'cf-r2-storage-class': 'InfrequentAccess' } });
    expect(r.status, r.text).toBe(200);
    expect((await c.get(name)).body.result.storage_class).toBe('InfrequentAccess');
  });

  t.test('an unknown bucket: 404 10006 on get, patch and delete', async (c) => {
    const name = c.name('missing');
    expectError(await c.get(name), 404, 10006, NOT_FOUND);
    expectError(await c.delete(name), 404, 10006, NOT_FOUND);
    expectError(
      await c.request('PATCH', c.url(`/${name}`), { headers: { 'cf-r2-storage-class': 'Standard' } }),
      404,
      10006,
      NOT_FOUND,
    );
  });

  t.test(
    'a bucket that holds an object is not deleted: 409 10008',
    async (c) => {
      const name = await c.make();
      await c.putObject(name, 'k', 'v');
      expectError(await c.delete(name), 409, 10008, 'The bucket you tried to delete is not empty.');
      expect((await c.get(name)).status).toBe(200);
    },
    t.target.putObject ? { difference: 'unestablished-not-empty-text' } : { skip: 'the target has no putObject' },
  );

  t.test('list: name_contains, direction, per_page and a cursor that walks the rest', async (c) => {
    const names = [await c.make('c'), await c.make('a'), await c.make('b')];
    const sorted = [...names].sort();
    expect((await c.list('direction=desc')).body.result.buckets.map((b: { name: string }) => b.name)).toEqual(
      [...sorted].reverse(),
    );
    const first = await c.list('per_page=2');
    expect(first.body.result.buckets.map((b: { name: string }) => b.name)).toEqual(sorted.slice(0, 2));
    const cursor = first.body.result_info?.cursor;
    expect(typeof cursor).toBe('string');
    const rest = await c.list(`per_page=2&cursor=${encodeURIComponent(cursor)}`);
    expect(rest.body.result.buckets.map((b: { name: string }) => b.name)).toEqual(sorted.slice(2));
    const narrow = await c.request('GET', c.url(`?name_contains=${encodeURIComponent(c.name('a'))}`));
    expect(narrow.body.result.buckets.map((b: { name: string }) => b.name)).toEqual([c.name('a')]);
  });

  t.test('cf-r2-jurisdiction: a bucket of the same name in eu is another bucket', async (c) => {
    const name = await c.make();
    await c.make('b', {}, 'eu');
    expect((await c.get(name, 'eu')).body.result).toMatchObject({ name, jurisdiction: 'eu' });
    expect((await c.list('', 'eu')).body.result.buckets.map((b: { name: string }) => b.name)).toEqual([name]);
    expect((await c.delete(name, 'eu')).status).toBe(200);
    expect((await c.get(name)).status).toBe(200);
    expectError(await c.get(name, 'eu'), 404, 10006);
  });

  t.test(
    'an unknown cf-r2-jurisdiction: 400 10040',
    async (c) => {
      expectError(await c.request('GET', c.url(), { jurisdiction: 'mars' }), 400, 10040);
    },
    { difference: 'unestablished-jurisdiction-header' },
  );
});
