import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';

// storageClass (docs/sources/r2-binding.md#storage-class). Production: 'Standard' by default, or
// 'InfrequentAccess'. The simulator always reports "" (difference 'simulator-storage-class').
// What production does with other values is not documented, so it is not tested here.

export const storageClass = defineGroup('storage class', (t) => {
  t.test('storageClass is a string on put, head, get and list results', async () => {
    const b = await t.bucket();
    const put = await b.put('k', 'v');
    const results = [put!, (await b.head('k'))!, (await b.get('k'))!, (await b.list()).objects[0]!];
    for (const r of results) expect(typeof r.storageClass).toBe('string');
  });

  t.test(
    "storageClass defaults to 'Standard' on put, head, get and list results",
    async () => {
      const b = await t.bucket();
      const put = await b.put('k', 'v');
      const results = [put!, (await b.head('k'))!, (await b.get('k'))!, (await b.list()).objects[0]!];
      expect(results.map((r) => r.storageClass)).toEqual(['Standard', 'Standard', 'Standard', 'Standard']);
    },
    { difference: 'simulator-storage-class' },
  );

  t.test(
    "storageClass 'Standard' given explicitly reads back as 'Standard'",
    async () => {
      const b = await t.bucket();
      await b.put('k', 'v', { storageClass: 'Standard' });
      expect((await b.head('k'))?.storageClass).toBe('Standard');
    },
    { difference: 'simulator-storage-class' },
  );

  t.test(
    "storageClass 'InfrequentAccess' round-trips through put, head, get and list",
    async () => {
      const b = await t.bucket();
      const put = await b.put('k', 'v', { storageClass: 'InfrequentAccess' });
      const results = [put!, (await b.head('k'))!, (await b.get('k'))!, (await b.list()).objects[0]!];
      expect(results.map((r) => r.storageClass)).toEqual([
        'InfrequentAccess',
        'InfrequentAccess',
        'InfrequentAccess',
        'InfrequentAccess',
      ]);
    },
    { difference: 'simulator-storage-class' },
  );

  t.test(
    "overwriting an 'InfrequentAccess' object without a storage class gives 'Standard'",
    async () => {
      const b = await t.bucket();
      await b.put('k', 'v', { storageClass: 'InfrequentAccess' });
      await b.put('k', 'w');
      expect((await b.head('k'))?.storageClass).toBe('Standard');
    },
    { difference: 'simulator-storage-class' },
  );

  t.test("storageClass 'InfrequentAccess' does not change the stored content or metadata", async () => {
    const b = await t.bucket();
    await b.put('k', 'content', { storageClass: 'InfrequentAccess', customMetadata: { a: '1' } });
    const got = await b.get('k');
    expect(await got?.text()).toBe('content');
    expect(got?.customMetadata).toEqual({ a: '1' });
  });
});
