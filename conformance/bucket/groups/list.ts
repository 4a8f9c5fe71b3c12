import { expect } from '../../runner.js';
import type { R2BucketLike, R2ListOptions, R2ObjectsLike } from '../../../lib/bucket/types.js';
import { defineGroup } from '../harness.js';
import { expectBackendError, expectRejection, shaHex } from '../util.js';

// list(): docs/sources/r2-binding.md#list. Behaviour that depends on the
// compatibility date (`include`) is in list-include.ts. Cursors are opaque: their content is never
// asserted. A string the bucket never issued as a cursor is answered as workerd answers it (production's
// answer is not established): it is read as a position, never refused and never a restart.

const MAX_KEYS = 'list: MaxKeys params must be positive integer <= 1000. (10022)';

/** A value of the wrong type, passed on purpose. */
const bad = (v: unknown): never => v as never;

async function putAll(b: R2BucketLike, keys: readonly string[], value = ''): Promise<void> {
  // Sequential: keeps the workerd target's simulator happy and the order of writes deterministic.
  for (const k of keys) await b.put(k, value);
}

/** Puts many keys, a batch at a time. */
async function putMany(b: R2BucketLike, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 50) {
    await Promise.all(keys.slice(i, i + 50).map((k) => b.put(k, '')));
  }
}

const keysOf = (r: R2ObjectsLike): string[] => r.objects.map((o) => o.key);

/** The keys and prefixes of one page, plus its paging state. */
function page(r: R2ObjectsLike): { keys: string[]; prefixes: string[]; truncated: boolean; hasCursor: boolean } {
  return { keys: keysOf(r), prefixes: r.delimitedPrefixes, truncated: r.truncated, hasCursor: 'cursor' in r };
}

/** Follows cursors to the end (starting from `cursor`, if given); returns every page. */
async function allPages(b: R2BucketLike, options: R2ListOptions, cursor?: string): Promise<R2ObjectsLike[]> {
  const pages: R2ObjectsLike[] = [];
  for (let i = 0; i < 100; i++) {
    const r = await b.list({ ...options, cursor });
    pages.push(r);
    if (!r.truncated) return pages;
    cursor = r.cursor;
  }
  throw new Error('list never stopped being truncated');
}

/** Compares strings by Unicode code point (= UTF-8 byte order). */
const byCodePoint = (a: string, b: string): number => {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};

/** A tree of keys for the delimiter tests. */
const TREE = ['a//b', 'dir0', 'dir0/file0', 'dir0/file1', 'dir0/sub0/x', 'dir0/sub1/y', 'file8', 'x/'];

export const list = defineGroup('list', (t) => {
  // ---------------------------------------------------------------------------------------------
  // Result shape
  // ---------------------------------------------------------------------------------------------

  t.test('list() on an empty bucket: no objects, no prefixes, truncated false, no cursor key', async () => {
    const b = await t.bucket();
    const r = await b.list();
    expect(r.objects).toEqual([]);
    expect(r.delimitedPrefixes).toEqual([]);
    expect(r.truncated).toBe(false);
    expect(Object.keys(r).sort()).toEqual(['delimitedPrefixes', 'objects', 'truncated']);
    expect('cursor' in r).toBe(false);
  });

  t.test('an untruncated result has own keys objects, truncated and delimitedPrefixes only', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b']);
    const r = await b.list();
    expect(Object.keys(r).sort()).toEqual(['delimitedPrefixes', 'objects', 'truncated']);
    expect(r.truncated).toBe(false);
    expect(Array.isArray(r.objects)).toBe(true);
    expect(Array.isArray(r.delimitedPrefixes)).toBe(true);
  });

  t.test('a truncated result also has a cursor: a non-empty string', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b']);
    const r = await b.list({ limit: 1 });
    expect(Object.keys(r).sort()).toEqual(['cursor', 'delimitedPrefixes', 'objects', 'truncated']);
    expect(r.truncated).toBe(true);
    expect(r.truncated && typeof r.cursor).toBe('string');
    expect(r.truncated && r.cursor.length).toBeGreaterThan(0);
  });

  t.test(
    "list entries are HeadResults without a body, with the put result's key, size, etag, version and uploaded",
    async () => {
      const b = await t.bucket();
      const put = await b.put('k', 'hello');
      const [o] = (await b.list()).objects;
      expect(o!.constructor.name).toBe('HeadResult');
      expect('body' in o!).toBe(false);
      expect(o!.key).toBe('k');
      expect(o!.size).toBe(5);
      expect(o!.etag).toBe(put.etag);
      expect(o!.httpEtag).toBe(`"${put.etag}"`);
      expect(o!.version).toBe(put.version);
      expect(o!.uploaded).toBeInstanceOf(Date);
      expect(o!.uploaded.getTime()).toBe(put.uploaded.getTime());
    },
  );

  t.test('list entries have range undefined (an own property)', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello');
    const [o] = (await b.list()).objects;
    expect(o!.range).toBeUndefined();
    expect(Object.keys(o!)).toContain('range');
  });

  t.test('list entries carry the stored checksums: md5 (the etag) and the extra one given to put', async () => {
    const b = await t.bucket();
    const put = await b.put('k', 'hello', { sha256: await shaHex('SHA-256', 'hello') });
    await b.put('plain', 'hello');
    const { objects } = await b.list();
    const k = objects.find((o) => o.key === 'k')!;
    expect(k.checksums.toJSON()).toEqual({ md5: put.etag, sha256: await shaHex('SHA-256', 'hello') });
    expect(k.checksums.md5!.byteLength).toBe(16);
    expect(k.checksums.sha256!.byteLength).toBe(32);
    const plain = objects.find((o) => o.key === 'plain')!;
    expect(plain.checksums.toJSON()).toEqual({ md5: put.etag });
  });

  t.test('deleted keys are not listed and an overwritten key is listed once, with its new content', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c']);
    await b.delete('b');
    await b.put('c', 'longer');
    const r = await b.list();
    expect(keysOf(r)).toEqual(['a', 'c']);
    expect(r.objects[1]!.size).toBe(6);
  });

  // ---------------------------------------------------------------------------------------------
  // Ordering
  // ---------------------------------------------------------------------------------------------

  t.test("keys are listed in UTF-8 / code-point order, not UTF-16 order ('\\uFFFF' before '😀')", async () => {
    const b = await t.bucket();
    const expected = [' ', '0', 'A', 'B', 'a', 'a-b', 'a/b', 'ab', 'b', 'e', 'z', '~', 'é', 'ÿ', 'Ā', '\uFFFF', '😀'];
    // Written in a scrambled order, so the result cannot be insertion order.
    await putAll(b, ['😀', 'b', '~', ' ', 'Ā', 'a/b', 'A', '\uFFFF', 'e', '0', 'ÿ', 'a-b', 'z', 'B', 'é', 'ab', 'a']);
    const listed = keysOf(await b.list());
    expect(listed).toEqual(expected);
    expect([...listed].sort(byCodePoint)).toEqual(listed);
    // JavaScript's default sort would put the surrogate pair first.
    expect([...expected].sort()).not.toEqual(expected);
  });

  t.test('a key is listed before its extensions, and the empty key first', async () => {
    const b = await t.bucket();
    await putAll(b, ['ab', 'a', '', 'a\u0000', 'a/']);
    expect(keysOf(await b.list())).toEqual(['', 'a', 'a\u0000', 'a/', 'ab']);
  });

  // ---------------------------------------------------------------------------------------------
  // prefix
  // ---------------------------------------------------------------------------------------------

  t.test('prefix is a literal match: % and _ are not wildcards', async () => {
    const b = await t.bucket();
    await putAll(b, ['a%b', 'a_b', 'axb', 'ab']);
    expect(keysOf(await b.list({ prefix: 'a%' }))).toEqual(['a%b']);
    expect(keysOf(await b.list({ prefix: 'a_' }))).toEqual(['a_b']);
    expect(keysOf(await b.list({ prefix: 'a' }))).toEqual(['a%b', 'a_b', 'ab', 'axb']);
  });

  t.test('prefix is case-sensitive', async () => {
    const b = await t.bucket();
    await putAll(b, ['DIR/x', 'dir/y', 'Dir/z']);
    expect(keysOf(await b.list({ prefix: 'DIR' }))).toEqual(['DIR/x']);
    expect(keysOf(await b.list({ prefix: 'dir' }))).toEqual(['dir/y']);
  });

  t.test("prefix '' (or undefined) means no prefix", async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b']);
    expect(keysOf(await b.list({ prefix: '' }))).toEqual(['a', 'b']);
    expect(keysOf(await b.list({ prefix: undefined }))).toEqual(['a', 'b']);
  });

  t.test('a prefix equal to a key includes that key; a prefix matching nothing gives an empty result', async () => {
    const b = await t.bucket();
    await putAll(b, ['abc', 'abcd', 'abd']);
    expect(keysOf(await b.list({ prefix: 'abc' }))).toEqual(['abc', 'abcd']);
    expect(keysOf(await b.list({ prefix: 'abcde' }))).toEqual([]);
  });

  t.test('a prefix longer than 1024 characters is accepted and matches nothing', async () => {
    const b = await t.bucket();
    await putAll(b, ['x'.repeat(1024)]);
    const r = await b.list({ prefix: 'x'.repeat(1025) });
    expect(keysOf(r)).toEqual([]);
    expect(r.truncated).toBe(false);
  });

  // ---------------------------------------------------------------------------------------------
  // startAfter
  // ---------------------------------------------------------------------------------------------

  t.test('startAfter is exclusive', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c', 'd']);
    expect(keysOf(await b.list({ startAfter: 'b' }))).toEqual(['c', 'd']);
  });

  t.test('startAfter need not be an existing key', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c', 'd']);
    expect(keysOf(await b.list({ startAfter: 'bb' }))).toEqual(['c', 'd']);
    expect(keysOf(await b.list({ startAfter: '0' }))).toEqual(['a', 'b', 'c', 'd']);
  });

  t.test(
    "startAfter '' means no filter, and a value past the last key gives an empty, untruncated result",
    async () => {
      const b = await t.bucket();
      await putAll(b, ['a', 'b']);
      expect(keysOf(await b.list({ startAfter: '' }))).toEqual(['a', 'b']);
      const past = await b.list({ startAfter: 'z' });
      expect(keysOf(past)).toEqual([]);
      expect(past.truncated).toBe(false);
    },
  );

  t.test("startAfter '' is still a position: it skips the empty key '' and nothing else", async () => {
    // Found by the differential fuzzer: the key '' is the one key that is not after ''.
    const b = await t.bucket();
    await putAll(b, ['', 'a']);
    expect(keysOf(await b.list())).toEqual(['', 'a']);
    expect(keysOf(await b.list({ startAfter: '' }))).toEqual(['a']);
  });

  t.test('startAfter combines with prefix', async () => {
    const b = await t.bucket();
    await putAll(b, ['a/1', 'a/2', 'a/3', 'b/1']);
    expect(keysOf(await b.list({ prefix: 'a/', startAfter: 'a/1' }))).toEqual(['a/2', 'a/3']);
    // A startAfter before the prefix range does not widen it.
    expect(keysOf(await b.list({ prefix: 'b/', startAfter: 'a' }))).toEqual(['b/1']);
  });

  t.test('startAfter compares in code-point order', async () => {
    const b = await t.bucket();
    await putAll(b, ['\uFFFF', '😀']);
    expect(keysOf(await b.list({ startAfter: '\uFFFF' }))).toEqual(['😀']);
  });

  // ---------------------------------------------------------------------------------------------
  // cursor
  // ---------------------------------------------------------------------------------------------

  t.test('the cursor of a truncated page continues where it stopped', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c', 'd', 'e']);
    const p1 = await b.list({ limit: 2 });
    expect(page(p1)).toEqual({ keys: ['a', 'b'], prefixes: [], truncated: true, hasCursor: true });
    const p2 = await b.list({ limit: 2, cursor: p1.truncated ? p1.cursor : '' });
    expect(page(p2)).toEqual({ keys: ['c', 'd'], prefixes: [], truncated: true, hasCursor: true });
    const p3 = await b.list({ limit: 2, cursor: p2.truncated ? p2.cursor : '' });
    expect(page(p3)).toEqual({ keys: ['e'], prefixes: [], truncated: false, hasCursor: false });
  });

  t.test('reusing a cursor gives the same page again', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c']);
    const p1 = await b.list({ limit: 1 });
    const cursor = p1.truncated ? p1.cursor : '';
    expect(keysOf(await b.list({ limit: 1, cursor }))).toEqual(['b']);
    expect(keysOf(await b.list({ limit: 1, cursor }))).toEqual(['b']);
  });

  t.test("cursor '' (or undefined) means no cursor", async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b']);
    expect(keysOf(await b.list({ cursor: '' }))).toEqual(['a', 'b']);
    expect(keysOf(await b.list({ cursor: undefined }))).toEqual(['a', 'b']);
  });

  t.test('a garbage cursor does not throw: list resolves with a well-formed result', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b']);
    for (const cursor of ['not a real cursor!!', 'bad', '!!!', '\u0000', '😀', 'é']) {
      const r = await b.list({ cursor });
      expect(Array.isArray(r.objects)).toBe(true);
      expect(Array.isArray(r.delimitedPrefixes)).toBe(true);
      expect(typeof r.truncated).toBe('boolean');
    }
  });

  // Cursors the bucket never issued (issue 9). workerd's local R2 reads a cursor as the base64 of the
  // key to list after, so a string that is not one positions the scan where its decoding falls.
  t.test("cursor '' is a position too, like startAfter '': it skips the empty key '' and nothing else", async () => {
    const b = await t.bucket();
    await putAll(b, ['', 'a']);
    expect(keysOf(await b.list({ cursor: '' }))).toEqual(['a']);
  });

  t.test("cursor 'bad' lists nothing (after every ASCII key), as the simulator's own suite asserts", async () => {
    // workers-sdk packages/miniflare/test/plugins/r2/index.spec.ts, "list: returns an empty list with an invalid cursor".
    const b = await t.bucket();
    await putAll(b, ['key1', 'key2', 'key3']);
    expect(page(await b.list({ cursor: 'bad' }))).toEqual({
      keys: [],
      prefixes: [],
      truncated: false,
      hasCursor: false,
    });
  });

  t.test(
    "cursor '!!!' lists from the first key: nothing in it is base64, so it positions before every key",
    async () => {
      const b = await t.bucket();
      await putAll(b, ['a', 'key1', 'zz']);
      expect(keysOf(await b.list({ cursor: '!!!' }))).toEqual(['a', 'key1', 'zz']);
    },
  );

  t.test("another bucket's cursor positions this bucket's scan after the key it was made at", async () => {
    const other = await t.bucket();
    await putAll(other, ['key1', 'key2', 'key25']);
    const p1 = await other.list({ limit: 2 });
    expect(keysOf(p1)).toEqual(['key1', 'key2']);
    const foreign = p1.truncated ? p1.cursor : '';
    const b = await t.bucket(); // on a real binding, the same bucket emptied: the cursor outlives its keys
    await putAll(b, ['key1', 'key2', 'key3', 'key4']);
    expect(page(await b.list({ cursor: foreign }))).toEqual({
      keys: ['key3', 'key4'],
      prefixes: [],
      truncated: false,
      hasCursor: false,
    });
  });

  t.test('a cursor made for another prefix positions the scan at its key: the prefix is not part of it', async () => {
    const b = await t.bucket();
    await putAll(b, ['a/1', 'a/2', 'b/1', 'b/2']);
    const pa = await b.list({ prefix: 'a/', limit: 1 });
    const pb = await b.list({ prefix: 'b/', limit: 1 });
    const afterA1 = pa.truncated ? pa.cursor : '';
    const afterB1 = pb.truncated ? pb.cursor : '';
    expect(keysOf(await b.list({ prefix: 'b/', cursor: afterA1 }))).toEqual(['b/1', 'b/2']);
    expect(keysOf(await b.list({ cursor: afterA1 }))).toEqual(['a/2', 'b/1', 'b/2']);
    expect(page(await b.list({ prefix: 'a/', cursor: afterB1 }))).toEqual({
      keys: [],
      prefixes: [],
      truncated: false,
      hasCursor: false,
    });
    expect(keysOf(await b.list({ cursor: afterB1, delimiter: '/' }))).toEqual([]);
    expect((await b.list({ cursor: afterA1, delimiter: '/' })).delimitedPrefixes).toEqual(['a/', 'b/']);
  });

  t.test('a cursor is a stable position: keys added after it are seen, keys added before it are not', async () => {
    const b = await t.bucket();
    await putAll(b, ['b', 'd', 'f']);
    const p1 = await b.list({ limit: 1 });
    expect(keysOf(p1)).toEqual(['b']);
    await putAll(b, ['a', 'c', 'e']);
    const rest = await allPages(b, { limit: 1 }, p1.truncated ? p1.cursor : '');
    expect(rest.flatMap(keysOf)).toEqual(['c', 'd', 'e', 'f']);
  });

  t.test('a key deleted after the cursor position is not returned', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c']);
    const p1 = await b.list({ limit: 1 });
    await b.delete('b');
    expect(keysOf(await b.list({ cursor: p1.truncated ? p1.cursor : '' }))).toEqual(['c']);
  });

  t.test('with both cursor and startAfter, the later position wins (startAfter later)', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c', 'd', 'e']);
    const p1 = await b.list({ limit: 1 }); // cursor after 'a'
    expect(keysOf(await b.list({ cursor: p1.truncated ? p1.cursor : '', startAfter: 'c' }))).toEqual(['d', 'e']);
  });

  t.test(
    "'later' of cursor and startAfter is judged in UTF-16 order: a cursor past '😀' loses to startAfter '\uFFFD'",
    async () => {
      // Found by the differential fuzzer. Keys are listed in code-point order ('😀' after '\uFFFF'), but
      // R2 picks the later of the two positions with a JS string comparison, where '😀' (D83D DE00)
      // comes before '\uFFFD'. So startAfter wins here and the listing restarts after '\uFFFD'.
      const b = await t.bucket();
      await putAll(b, ['\uFFFD', '\uFFFF', '😀', '😀z']);
      const p1 = await b.list({ limit: 3 });
      expect(keysOf(p1)).toEqual(['\uFFFD', '\uFFFF', '😀']);
      expect(p1.truncated).toBe(true);
      const p2 = await b.list({ cursor: p1.truncated ? p1.cursor : '', startAfter: '\uFFFD' });
      expect(keysOf(p2)).toEqual(['\uFFFF', '😀', '😀z']);
    },
  );

  t.test('with both cursor and startAfter, the later position wins (cursor later)', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c', 'd', 'e']);
    const p1 = await b.list({ limit: 3 }); // cursor after 'c'
    expect(keysOf(await b.list({ cursor: p1.truncated ? p1.cursor : '', startAfter: 'a' }))).toEqual(['d', 'e']);
  });

  // ---------------------------------------------------------------------------------------------
  // limit
  // ---------------------------------------------------------------------------------------------

  t.test(
    'with 1001 keys, list(), {limit: 1000} and {limit: -1} each return the first 1000, truncated; the cursor gives the last one',
    async () => {
      const b = await t.bucket();
      const keys = Array.from({ length: 1001 }, (_, i) => `k${String(i).padStart(4, '0')}`);
      await putMany(b, keys);
      for (const options of [undefined, { limit: 1000 }, { limit: -1 }]) {
        const r = await b.list(options);
        expect(r.objects.length).toBe(1000);
        expect(r.objects[0]!.key).toBe('k0000');
        expect(r.objects[999]!.key).toBe('k0999');
        expect(r.truncated).toBe(true);
        const next = await b.list({ ...options, cursor: r.truncated ? r.cursor : '' });
        expect(page(next)).toEqual({ keys: ['k1000'], prefixes: [], truncated: false, hasCursor: false });
      }
    },
    { timeout: 60_000 },
  );

  t.test('limit 1 returns one key and a cursor', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b']);
    expect(page(await b.list({ limit: 1 }))).toEqual({ keys: ['a'], prefixes: [], truncated: true, hasCursor: true });
  });

  t.test('limit -1 behaves as no limit', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c']);
    expect(page(await b.list({ limit: -1 }))).toEqual({
      keys: ['a', 'b', 'c'],
      prefixes: [],
      truncated: false,
      hasCursor: false,
    });
  });

  const invalidLimits: [string, unknown][] = [
    ['0', 0],
    ['NaN', NaN],
    ['null', null],
    ['Infinity', Infinity],
    ['1001', 1001],
    ['-2', -2],
    ['-1000', -1000],
    ['-2147483648', -(2 ** 31)],
    ["'x'", 'x'],
  ];
  for (const [label, limit] of invalidLimits) {
    t.test(`limit ${label} rejects with 10022 "MaxKeys params must be positive integer <= 1000."`, async () => {
      const b = await t.bucket();
      await b.put('a', '');
      await expectBackendError(() => b.list({ limit: bad(limit) }), MAX_KEYS);
    });
  }

  t.test("limit is truncated to an integer: 1.5 → 1, 2.7 → 2, '2' → 2, true → 1, -1.5 → -1 (no limit)", async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c']);
    const count = async (limit: unknown): Promise<number> => (await b.list({ limit: bad(limit) })).objects.length;
    expect({
      1.5: await count(1.5),
      2.7: await count(2.7),
      "'2'": await count('2'),
      true: await count(true),
      '-1.5': await count(-1.5),
    }).toEqual({
      1.5: 1,
      2.7: 2,
      "'2'": 2,
      true: 1,
      '-1.5': 3,
    });
  });

  t.test('limit outside int32 (2^31, 2^32-1, -2^31-1) rejects with TypeError "Value out of range. …"', async () => {
    const b = await t.bucket();
    const message = 'Value out of range. Must be between -2147483648 and 2147483647 (inclusive).';
    for (const limit of [2 ** 31, 2 ** 32 - 1, -(2 ** 31) - 1]) {
      await expectRejection(() => b.list({ limit }), TypeError, message);
    }
  });

  t.test('when limit equals the number of remaining keys: truncated false and no cursor key', async () => {
    const b = await t.bucket();
    await putAll(b, ['a', 'b', 'c', 'd']);
    expect(page(await b.list({ limit: 4 }))).toEqual({
      keys: ['a', 'b', 'c', 'd'],
      prefixes: [],
      truncated: false,
      hasCursor: false,
    });
    const p1 = await b.list({ limit: 2 });
    const p2 = await b.list({ limit: 2, cursor: p1.truncated ? p1.cursor : '' });
    expect(page(p2)).toEqual({ keys: ['c', 'd'], prefixes: [], truncated: false, hasCursor: false });
  });

  t.test('paging through everything with a small limit visits each key exactly once, in order', async () => {
    const b = await t.bucket();
    const keys = Array.from({ length: 25 }, (_, i) => `key-${String(i).padStart(2, '0')}`);
    await putMany(b, [...keys].reverse());
    const pages = await allPages(b, { limit: 7 });
    expect(pages.map((p) => p.objects.length)).toEqual([7, 7, 7, 4]);
    expect(pages.flatMap(keysOf)).toEqual(keys);
    expect(pages.slice(0, -1).every((p) => p.truncated && 'cursor' in p)).toBe(true);
    expect('cursor' in pages.at(-1)!).toBe(false);
  });

  // ---------------------------------------------------------------------------------------------
  // delimiter
  // ---------------------------------------------------------------------------------------------

  t.test("delimiter '/' without a prefix groups keys up to the first '/'; other keys stay objects", async () => {
    const b = await t.bucket();
    await putAll(b, TREE);
    const r = await b.list({ delimiter: '/' });
    expect(keysOf(r)).toEqual(['dir0', 'file8']);
    expect(r.delimitedPrefixes).toEqual(['a/', 'dir0/', 'x/']);
    expect(r.truncated).toBe(false);
  });

  t.test("delimiter '/' with prefix 'dir0/' groups the next level", async () => {
    const b = await t.bucket();
    await putAll(b, TREE);
    const r = await b.list({ delimiter: '/', prefix: 'dir0/' });
    expect(keysOf(r)).toEqual(['dir0/file0', 'dir0/file1']);
    expect(r.delimitedPrefixes).toEqual(['dir0/sub0/', 'dir0/sub1/']);
  });

  t.test("delimiter '/' with prefix 'dir0' gives the object dir0 and the prefix dir0/", async () => {
    const b = await t.bucket();
    await putAll(b, TREE);
    const r = await b.list({ delimiter: '/', prefix: 'dir0' });
    expect(keysOf(r)).toEqual(['dir0']);
    expect(r.delimitedPrefixes).toEqual(['dir0/']);
  });

  t.test("multi-character delimiters work: 'sub' and '//'", async () => {
    const b = await t.bucket();
    await putAll(b, TREE);
    const sub = await b.list({ delimiter: 'sub', prefix: 'dir0/' });
    expect(keysOf(sub)).toEqual(['dir0/file0', 'dir0/file1']);
    expect(sub.delimitedPrefixes).toEqual(['dir0/sub']);
    const slashes = await b.list({ delimiter: '//' });
    expect(slashes.delimitedPrefixes).toEqual(['a//']);
    expect(keysOf(slashes)).toEqual(TREE.filter((k) => k !== 'a//b'));
  });

  t.test("delimiter '' means no delimiter", async () => {
    const b = await t.bucket();
    await putAll(b, TREE);
    const r = await b.list({ delimiter: '' });
    expect(keysOf(r)).toEqual(TREE);
    expect(r.delimitedPrefixes).toEqual([]);
  });

  t.test('without a delimiter, delimitedPrefixes is an empty array', async () => {
    const b = await t.bucket();
    await putAll(b, TREE);
    expect((await b.list()).delimitedPrefixes).toEqual([]);
  });

  t.test('each delimited prefix counts toward limit, like an object', async () => {
    const b = await t.bucket();
    await putAll(b, ['a/1', 'a/2', 'b', 'c/1']);
    const p1 = await b.list({ delimiter: '/', limit: 2 });
    expect(page(p1)).toEqual({ keys: ['b'], prefixes: ['a/'], truncated: true, hasCursor: true });
    const p2 = await b.list({ delimiter: '/', limit: 2, cursor: p1.truncated ? p1.cursor : '' });
    expect(page(p2)).toEqual({ keys: [], prefixes: ['c/'], truncated: false, hasCursor: false });
  });

  t.test('with limit 3 the same keys fit on one page: one object and two prefixes', async () => {
    const b = await t.bucket();
    await putAll(b, ['a/1', 'a/2', 'b', 'c/1']);
    expect(page(await b.list({ delimiter: '/', limit: 3 }))).toEqual({
      keys: ['b'],
      prefixes: ['a/', 'c/'],
      truncated: false,
      hasCursor: false,
    });
  });

  t.test('paging with a delimiter never repeats a prefix group', async () => {
    const b = await t.bucket();
    await putAll(b, ['a/1', 'a/2', 'a/3', 'b', 'c/1', 'c/2', 'd', 'e/x/1', 'e/y']);
    const pages = await allPages(b, { delimiter: '/', limit: 1 });
    expect(pages.flatMap((p) => p.delimitedPrefixes)).toEqual(['a/', 'c/', 'e/']);
    expect(pages.flatMap(keysOf)).toEqual(['b', 'd']);
    expect(pages.every((p) => p.objects.length + p.delimitedPrefixes.length <= 1)).toBe(true);
  });

  t.test('startAfter inside a group still shows the group while keys of it remain after startAfter', async () => {
    const b = await t.bucket();
    await putAll(b, ['a/1', 'a/2', 'b', 'c/1']);
    expect((await b.list({ delimiter: '/', startAfter: 'a/' })).delimitedPrefixes).toEqual(['a/', 'c/']);
    expect((await b.list({ delimiter: '/', startAfter: 'a/1' })).delimitedPrefixes).toEqual(['a/', 'c/']);
    // After the group's last key nothing of it is left.
    expect((await b.list({ delimiter: '/', startAfter: 'a/2' })).delimitedPrefixes).toEqual(['c/']);
  });

  // ---------------------------------------------------------------------------------------------
  // Option types (docs/sources/r2-binding.md#argument-conversion)
  // ---------------------------------------------------------------------------------------------

  for (const field of ['prefix', 'delimiter', 'cursor', 'startAfter'] as const) {
    t.test(
      `a non-string ${field} (number, null) rejects with TypeError … '${field}' field on 'ListOptions' …`,
      async () => {
        const b = await t.bucket();
        const message = `Incorrect type for the '${field}' field on 'ListOptions': the provided value is not of type 'string'.`;
        await expectRejection(() => b.list({ [field]: bad(5) }), TypeError, message);
        await expectRejection(() => b.list({ [field]: bad(null) }), TypeError, message);
      },
    );
  }

  t.test('option fields set to undefined count as absent; unknown fields are ignored', async () => {
    const b = await t.bucket();
    await putAll(b, ['a/1', 'b']);
    const r = await b.list(
      bad({
        prefix: undefined,
        delimiter: undefined,
        cursor: undefined,
        startAfter: undefined,
        limit: undefined,
        include: undefined,
        foo: 1,
      }),
    );
    expect(page(r)).toEqual({ keys: ['a/1', 'b'], prefixes: [], truncated: false, hasCursor: false });
  });

  t.test('an unknown include value rejects with RangeError "Unsupported include value <v>"', async () => {
    const b = await t.bucket();
    await expectRejection(() => b.list({ include: bad(['foo']) }), RangeError, 'Unsupported include value foo');
    await expectRejection(
      () => b.list({ include: bad(['httpMetadata', 'HTTPMETADATA']) }),
      RangeError,
      'Unsupported include value HTTPMETADATA',
    );
  });

  t.test(
    "an include that is not an array (string, null, object, Set) rejects with TypeError … 'include' field … 'Array'",
    async () => {
      const b = await t.bucket();
      const message =
        "Incorrect type for the 'include' field on 'ListOptions': the provided value is not of type 'Array'.";
      for (const include of ['httpMetadata', null, {}, new Set(['httpMetadata'])]) {
        await expectRejection(() => b.list({ include: bad(include) }), TypeError, message);
      }
    },
  );

  t.test('a non-string include element rejects with TypeError "Incorrect type for array element N: …"', async () => {
    const b = await t.bucket();
    await expectRejection(
      () => b.list({ include: bad([5]) }),
      TypeError,
      "Incorrect type for array element 0: the provided value is not of type 'string'.",
    );
    await expectRejection(
      () => b.list({ include: bad(['httpMetadata', null]) }),
      TypeError,
      "Incorrect type for array element 1: the provided value is not of type 'string'.",
    );
  });
});
