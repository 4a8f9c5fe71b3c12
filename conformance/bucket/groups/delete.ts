import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';
import type { R2BucketLike } from '../../../lib/bucket/types.js';
import { expectBackendError, expectRejection } from '../util.js';

// delete(keys) (docs/sources/r2-binding.md#delete).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the suite calls the binding with arguments its types forbid, as untyped Worker code can
const loose = (b: R2BucketLike): any => b;

const keysOf = async (b: R2BucketLike) => (await b.list()).objects.map((o) => o.key);

export const deletion = defineGroup('delete', (t) => {
  t.test('delete(key) removes the object and resolves to undefined', async () => {
    const b = await t.bucket();
    await b.put('a', '1');
    await b.put('b', '2');
    expect(await b.delete('a')).toBeUndefined();
    expect(await b.head('a')).toBeNull();
    expect(await b.get('a')).toBeNull();
    expect(await keysOf(b)).toEqual(['b']);
  });

  t.test('delete([keys]) removes every listed object and leaves the others', async () => {
    const b = await t.bucket();
    for (const k of ['a', 'b', 'c', 'd']) await b.put(k, k);
    expect(await b.delete(['a', 'c', 'd'])).toBeUndefined();
    expect(await keysOf(b)).toEqual(['b']);
  });

  t.test('deleting a missing key resolves silently', async () => {
    const b = await t.bucket();
    await expect(b.delete('missing')).resolves.toBeUndefined();
  });

  t.test('missing keys in an array are ignored and the existing ones are deleted', async () => {
    const b = await t.bucket();
    await b.put('a', '1');
    await b.put('b', '2');
    await b.delete(['missing-1', 'a', 'missing-2']);
    expect(await keysOf(b)).toEqual(['b']);
  });

  t.test('duplicate keys in an array are fine', async () => {
    const b = await t.bucket();
    await b.put('a', '1');
    await b.put('b', '2');
    await b.delete(['a', 'a', 'a']);
    expect(await keysOf(b)).toEqual(['b']);
  });

  t.test('delete([]) resolves and deletes nothing', async () => {
    const b = await t.bucket();
    await b.put('a', '1');
    await expect(b.delete([])).resolves.toBeUndefined();
    expect(await keysOf(b)).toEqual(['a']);
  });

  t.test('non-string array elements are converted: 5 → "5", null → "null"', async () => {
    const b = await t.bucket();
    for (const k of ['5', 'null', 'keep']) await b.put(k, k);
    await loose(b).delete([5, null]);
    expect(await keysOf(b)).toEqual(['keep']);
  });

  t.test('a nested array element is converted with toString(): [["a", "b"]] deletes "a,b"', async () => {
    const b = await t.bucket();
    for (const k of ['a', 'b', 'a,b']) await b.put(k, k);
    await loose(b).delete([['a', 'b']]);
    expect(await keysOf(b)).toEqual(['a', 'b']);
  });

  t.test('a number argument is converted to a single key: 5 → "5"', async () => {
    const b = await t.bucket();
    await b.put('5', 'five');
    await b.put('6', 'six');
    await loose(b).delete(5);
    expect(await keysOf(b)).toEqual(['6']);
  });

  t.test('a plain object argument is the single key "[object Object]"', async () => {
    const b = await t.bucket();
    await b.put('[object Object]', 'x');
    await b.put('a', 'x');
    await loose(b).delete({ a: 1 });
    expect(await keysOf(b)).toEqual(['a']);
  });

  t.test('a Set is NOT iterated: it is the single key "[object Set]"', async () => {
    const b = await t.bucket();
    await b.put('a', '1');
    await b.put('[object Set]', 's');
    await loose(b).delete(new Set(['a']));
    expect(await keysOf(b)).toEqual(['a']);
  });

  t.test(
    "delete() without an argument rejects with TypeError (parameter 1 is not of type 'string or Array')",
    async () => {
      const b = await t.bucket();
      await b.put('a', '1');
      await expectRejection(
        () => loose(b).delete(),
        TypeError,
        "Failed to execute 'delete' on 'R2Bucket': parameter 1 is not of type 'string or Array'.",
      );
      expect(await keysOf(b)).toEqual(['a']);
    },
  );

  t.test('an array with one oversize key rejects with 10020 and deletes none of the others', async () => {
    const b = await t.bucket();
    for (const k of ['a', 'b', 'c']) await b.put(k, k);
    await expectBackendError(
      () => b.delete(['a', 'x'.repeat(1025), 'c']),
      'delete: The specified object name is not valid. (10020)',
    );
    expect(await keysOf(b)).toEqual(['a', 'b', 'c']);
  });

  t.test('an oversize key at the start of the array also deletes nothing', async () => {
    const b = await t.bucket();
    await b.put('a', 'a');
    await expectBackendError(
      () => b.delete(['é'.repeat(513), 'a']),
      'delete: The specified object name is not valid. (10020)',
    );
    expect(await keysOf(b)).toEqual(['a']);
  });

  t.test('delete removes exactly the key: objects sharing its prefix stay', async () => {
    const b = await t.bucket();
    for (const k of ['a', 'ab', 'a/b', 'A']) await b.put(k, k);
    await b.delete('a');
    expect(await keysOf(b)).toEqual(['A', 'a/b', 'ab']);
  });

  t.test('a deleted key can be written again and reads the new content', async () => {
    const b = await t.bucket();
    await b.put('k', 'first', { customMetadata: { old: '1' } });
    await b.delete('k');
    await b.put('k', 'second');
    const got = await b.get('k');
    expect(await got?.text()).toBe('second');
    expect(got?.customMetadata).toEqual({});
  });

  t.test('the empty key "" can be deleted by string and in an array', async () => {
    const b = await t.bucket();
    await b.put('', 'empty');
    await b.delete(['']);
    expect(await b.head('')).toBeNull();
  });

  t.test('deleting twice is fine', async () => {
    const b = await t.bucket();
    await b.put('k', 'v');
    await b.delete('k');
    await expect(b.delete('k')).resolves.toBeUndefined();
    expect(await b.head('k')).toBeNull();
  });

  t.test('delete of 100 keys in one call removes them all', async () => {
    const b = await t.bucket();
    const keys = Array.from({ length: 100 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    await Promise.all(keys.map((k) => b.put(k, 'v')));
    await b.delete(keys);
    expect(await keysOf(b)).toEqual([]);
  });
});
