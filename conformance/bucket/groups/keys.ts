import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';
import { expectBackendError, rejection, utf8 } from '../util.js';

// Keys are limited to 1024 UTF-8 bytes, checked by every operation; nothing else is restricted
// (docs r2/platform/limits; docs/sources/r2-binding.md#keys).
const invalid = (action: string) => `${action}: The specified object name is not valid. (10020)`;

export const keys = defineGroup('keys', (t) => {
  t.test('a key of 1024 ASCII characters is stored and read back by head, get and list', async () => {
    const b = await t.bucket();
    const key = 'x'.repeat(1024);
    expect((await b.put(key, 'v'))!.key).toBe(key);
    expect((await b.head(key))?.size).toBe(1);
    expect(await (await b.get(key))?.text()).toBe('v');
    expect((await b.list()).objects.map((o) => o.key)).toEqual([key]);
  });

  t.test('put with a key of 1025 ASCII characters rejects with 10020 and stores nothing', async () => {
    const b = await t.bucket();
    await expectBackendError(() => b.put('x'.repeat(1025), 'v'), invalid('put'));
    expect((await b.list()).objects).toEqual([]);
  });

  t.test(
    'the 10020 error is a plain Error with only message and stack as own properties (no code)',
    async () => {
      const b = await t.bucket();
      const e = (await rejection(() => b.put('x'.repeat(1025), 'v'))) as Error;
      expect(e.constructor).toBe(Error);
      expect(e.name).toBe('Error');
      expect(Object.getOwnPropertyNames(e).sort()).toEqual(['message', 'stack']);
      expect(String(e)).toBe('Error: put: The specified object name is not valid. (10020)');
    },
    { difference: 'jsc-error-own-properties' },
  );

  t.test('head with a 1025-byte key rejects with 10020 (not null)', async () => {
    const b = await t.bucket();
    await expectBackendError(() => b.head('x'.repeat(1025)), invalid('head'));
  });

  t.test('get with a 1025-byte key rejects with 10020 (not null)', async () => {
    const b = await t.bucket();
    await expectBackendError(() => b.get('x'.repeat(1025)), invalid('get'));
  });

  t.test('delete with a 1025-byte key rejects with 10020', async () => {
    const b = await t.bucket();
    await expectBackendError(() => b.delete('x'.repeat(1025)), invalid('delete'));
  });

  t.test('delete with a 1025-byte key as an array element rejects with 10020', async () => {
    const b = await t.bucket();
    await expectBackendError(() => b.delete(['a', 'x'.repeat(1025)]), invalid('delete'));
  });

  t.test('createMultipartUpload with a 1025-byte key rejects with 10020', async () => {
    const b = await t.bucket();
    await expectBackendError(() => b.createMultipartUpload('x'.repeat(1025)), invalid('createMultipartUpload'));
  });

  t.test('head, get and delete accept a key of exactly 1024 bytes that does not exist', async () => {
    const b = await t.bucket();
    const key = 'y'.repeat(1024);
    expect(await b.head(key)).toBeNull();
    expect(await b.get(key)).toBeNull();
    await expect(b.delete(key)).resolves.toBeUndefined();
  });

  t.test('the limit counts UTF-8 bytes: 512 × "é" (1024 bytes) is stored, 513 × "é" gives 10020', async () => {
    const b = await t.bucket();
    const ok = 'é'.repeat(512);
    expect(utf8(ok).length).toBe(1024);
    expect((await b.put(ok, 'v'))!.key).toBe(ok);
    expect((await b.head(ok))?.key).toBe(ok);
    await expectBackendError(() => b.put('é'.repeat(513), 'v'), invalid('put'));
    await expectBackendError(() => b.head('é'.repeat(513)), invalid('head'));
  });

  t.test('the limit counts UTF-8 bytes: 256 × "🙂" (1024 bytes) is stored, one more byte gives 10020', async () => {
    const b = await t.bucket();
    const ok = '🙂'.repeat(256);
    expect((await b.put(ok, 'v'))!.key).toBe(ok);
    expect((await b.get(ok))?.key).toBe(ok);
    await expectBackendError(() => b.put(ok + 'x', 'v'), invalid('put'));
    await expectBackendError(() => b.get(ok + 'x'), invalid('get'));
  });

  t.test('a key of 1024 UTF-16 code units but 1025 UTF-8 bytes is rejected with 10020', async () => {
    const b = await t.bucket();
    const key = 'x'.repeat(1023) + 'é';
    expect(key.length).toBe(1024);
    await expectBackendError(() => b.put(key, 'v'), invalid('put'));
    // and 1022 ASCII + é is exactly 1024 bytes: accepted
    expect((await b.put('x'.repeat(1022) + 'é', 'v'))!.size).toBe(1);
  });

  t.test('the empty key "" works for put, head, get, list and delete', async () => {
    const b = await t.bucket();
    expect((await b.put('', 'empty-key'))!.key).toBe('');
    expect((await b.head(''))?.key).toBe('');
    expect(await (await b.get(''))?.text()).toBe('empty-key');
    expect((await b.list()).objects.map((o) => o.key)).toEqual(['']);
    await b.delete('');
    expect(await b.head('')).toBeNull();
    expect((await b.list()).objects).toEqual([]);
  });

  t.test('a key with NUL characters is an ordinary key, distinct from its prefix', async () => {
    const b = await t.bucket();
    await b.put('a\0b', 'nul');
    await b.put('a', 'plain');
    expect(await (await b.get('a\0b'))?.text()).toBe('nul');
    expect(await (await b.get('a'))?.text()).toBe('plain');
    expect((await b.list()).objects.map((o) => o.key)).toEqual(['a', 'a\0b']);
  });

  t.test('leading, trailing and double slashes and ../ are kept literally in keys', async () => {
    const b = await t.bucket();
    const names = ['/lead', 'a//b', 'a/b', 'trail/', '../up', 'a/./b', 'a/../b', '.', '..'];
    for (const k of names) await b.put(k, k);
    for (const k of names) expect(await (await b.get(k))?.text()).toBe(k);
    expect((await b.list()).objects.map((o) => o.key).sort()).toEqual([...names].sort());
  });

  t.test('keys are case-sensitive and whitespace is significant', async () => {
    const b = await t.bucket();
    await b.put('Key', '1');
    await b.put('key', '2');
    await b.put(' key', '3');
    expect(await (await b.get('Key'))?.text()).toBe('1');
    expect(await (await b.get('key'))?.text()).toBe('2');
    expect(await (await b.get(' key'))?.text()).toBe('3');
    expect(await b.head('KEY')).toBeNull();
  });

  t.test('a key with a lone surrogate is found by the same JS string but listed as three U+FFFD', async () => {
    const b = await t.bucket();
    // stored as the surrogate's 3-byte WTF-8 form, which decodes as three replacement characters
    await b.put('a\uD800b', 'v');
    expect((await b.head('a\uD800b'))?.size).toBe(1);
    expect(await (await b.get('a\uD800b'))?.text()).toBe('v');
    expect((await b.list()).objects.map((o) => o.key)).toEqual(['a\uFFFD\uFFFD\uFFFDb']);
    expect(await b.head('a\uFFFDb')).toBeNull();
  });

  t.test(
    'a lone surrogate in a key is three U+FFFD to R2: same key, U+FFFD order, 9 bytes toward the limit',
    async () => {
      // Found by the differential fuzzer. The binding sends the surrogate's 3-byte WTF-8 form, which R2
      // reads as three replacement characters: that string is the key from then on.
      const b = await t.bucket();
      await b.put('\uDC00b', 'v');
      expect((await b.head('\uFFFD\uFFFD\uFFFDb'))?.size).toBe(1);
      await b.put('\uFFFF', 'w');
      expect((await b.list()).objects.map((o) => o.key)).toEqual(['\uFFFD\uFFFD\uFFFDb', '\uFFFF']);
      expect((await b.list({ prefix: '\uDC00' })).objects.map((o) => o.key)).toEqual(['\uFFFD\uFFFD\uFFFDb']);
      expect((await b.put('\uD800'.repeat(113), 'v'))!.key).toBe('\uFFFD'.repeat(339));
      await expectBackendError(() => b.put('\uD800'.repeat(114), 'v'), invalid('put'));
    },
  );

  t.test('head and get of a lone-surrogate key report the key as three U+FFFD', async () => {
    const b = await t.bucket();
    await b.put('a\uD800b', 'v');
    expect((await b.head('a\uD800b'))?.key).toBe('a\uFFFD\uFFFD\uFFFDb');
    expect((await b.get('a\uD800b'))?.key).toBe('a\uFFFD\uFFFD\uFFFDb');
  });
});
