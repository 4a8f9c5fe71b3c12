import { expect } from '../../runner.js';
import type { R2BucketLike, R2ListOptions, R2ObjectLike, R2ObjectsLike } from '../../../lib/bucket/types.js';
import type { TestOptions } from '../harness.js';
import { defineGroup, type GroupContext } from '../harness.js';
import { expectRejection } from '../util.js';

// list() and `include`, per compatibility date: docs/sources/r2-binding.md#list-include.
// `t.honorsInclude` is configuration (the compatibility date or a flag), not a difference: the
// workerd-2022 and double-2022 targets run this group at 2022-01-01, where include is validated but
// ignored and both kinds of metadata always come back.

const HTTP = { contentType: 'text/plain', cacheControl: 'no-cache' };
const CUSTOM = { x: '1', y: 'two' };

/** A value of the wrong type, passed on purpose. */
const bad = (v: unknown): never => v as never;

/** A fresh bucket holding 'a' with both kinds of metadata. */
async function withMetadata(t: GroupContext): Promise<R2BucketLike> {
  const b = await t.bucket();
  await b.put('a', 'hello', { httpMetadata: HTTP, customMetadata: CUSTOM });
  return b;
}

/** The single entry listed with these options. */
async function entry(b: R2BucketLike, options: R2ListOptions): Promise<R2ObjectLike> {
  const { objects } = await b.list(options);
  expect(objects.length).toBe(1);
  return objects[0]!;
}

/** Puts `n` keys k000…, a batch at a time. */
async function putKeys(b: R2BucketLike, n: number): Promise<string[]> {
  const keys = Array.from({ length: n }, (_, i) => `k${String(i).padStart(3, '0')}`);
  for (let i = 0; i < keys.length; i += 50) {
    await Promise.all(keys.slice(i, i + 50).map((k) => b.put(k, 'v', { customMetadata: { k } })));
  }
  return keys;
}

async function allPages(b: R2BucketLike, options: R2ListOptions): Promise<R2ObjectsLike[]> {
  const pages: R2ObjectsLike[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const r = await b.list({ ...options, cursor });
    pages.push(r);
    if (!r.truncated) return pages;
    cursor = r.cursor;
  }
  throw new Error('list never stopped being truncated');
}

export const listInclude = defineGroup('list include', (t) => {
  const honors = t.honorsInclude;
  /** Where production leaves unrequested metadata undefined, the simulator gives {}. */
  const unrequested: TestOptions = honors ? { difference: 'simulator-list-unrequested-metadata' } : {};
  const era = honors ? '(include honoured)' : '(before 2022-08-04: include ignored)';

  // ---------------------------------------------------------------------------------------------
  // Requested metadata is always there
  // ---------------------------------------------------------------------------------------------

  t.test(`include ['httpMetadata'] returns the stored httpMetadata ${era}`, async () => {
    const b = await withMetadata(t);
    expect((await entry(b, { include: ['httpMetadata'] })).httpMetadata).toEqual(HTTP);
  });

  t.test(`include ['customMetadata'] returns the stored customMetadata ${era}`, async () => {
    const b = await withMetadata(t);
    expect((await entry(b, { include: ['customMetadata'] })).customMetadata).toEqual(CUSTOM);
  });

  t.test(`include ['httpMetadata', 'customMetadata'] returns both ${era}`, async () => {
    const b = await withMetadata(t);
    const o = await entry(b, { include: ['httpMetadata', 'customMetadata'] });
    expect(o.httpMetadata).toEqual(HTTP);
    expect(o.customMetadata).toEqual(CUSTOM);
  });

  t.test(`duplicate include values are allowed ${era}`, async () => {
    const b = await withMetadata(t);
    const o = await entry(b, { include: ['httpMetadata', 'httpMetadata', 'customMetadata', 'customMetadata'] });
    expect(o.httpMetadata).toEqual(HTTP);
    expect(o.customMetadata).toEqual(CUSTOM);
  });

  t.test(`requested metadata of an object that has none is {} ${era}`, async () => {
    const b = await t.bucket();
    await b.put('bare', 'v');
    const o = await entry(b, { include: ['httpMetadata', 'customMetadata'] });
    expect(o.httpMetadata).toEqual({});
    expect(o.customMetadata).toEqual({});
  });

  t.test(`writeHttpMetadata on an entry listed with include ['httpMetadata'] writes its headers ${era}`, async () => {
    const b = await withMetadata(t);
    const o = await entry(b, { include: ['httpMetadata'] });
    const headers = new Headers({ 'x-keep': '1' });
    expect(o.writeHttpMetadata(headers)).toBeUndefined();
    expect(headers.get('content-type')).toBe('text/plain');
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(headers.get('x-keep')).toBe('1');
  });

  // ---------------------------------------------------------------------------------------------
  // Unrequested metadata: undefined in production from 2022-08-04; always filled in before
  // ---------------------------------------------------------------------------------------------

  if (honors) {
    t.test(
      "include ['httpMetadata'] leaves customMetadata undefined",
      async () => {
        const b = await withMetadata(t);
        expect((await entry(b, { include: ['httpMetadata'] })).customMetadata).toBeUndefined();
      },
      unrequested,
    );

    t.test(
      "include ['customMetadata'] leaves httpMetadata undefined",
      async () => {
        const b = await withMetadata(t);
        expect((await entry(b, { include: ['customMetadata'] })).httpMetadata).toBeUndefined();
      },
      unrequested,
    );

    t.test(
      'list() without include leaves httpMetadata and customMetadata undefined',
      async () => {
        const b = await withMetadata(t);
        const o = await entry(b, {});
        expect([o.httpMetadata, o.customMetadata]).toEqual([undefined, undefined]);
      },
      unrequested,
    );

    t.test(
      'include [] leaves httpMetadata and customMetadata undefined',
      async () => {
        const b = await withMetadata(t);
        const o = await entry(b, { include: [] });
        expect([o.httpMetadata, o.customMetadata]).toEqual([undefined, undefined]);
      },
      unrequested,
    );

    t.test(
      'writeHttpMetadata on an entry listed without httpMetadata throws TypeError "HTTP metadata unknown for key `<key>`. …"',
      async () => {
        const b = await withMetadata(t);
        const o = await entry(b, { include: ['customMetadata'] });
        let thrown: unknown;
        try {
          o.writeHttpMetadata(new Headers());
        } catch (e) {
          thrown = e;
        }
        expect(thrown).toBeInstanceOf(TypeError);
        expect((thrown as Error).message).toBe(
          "HTTP metadata unknown for key `a`. Did you forget to add 'httpMetadata' to `include` when listing?",
        );
      },
      unrequested,
    );
  } else {
    t.test("include ['httpMetadata'] still returns customMetadata (include is ignored before 2022-08-04)", async () => {
      const b = await withMetadata(t);
      expect((await entry(b, { include: ['httpMetadata'] })).customMetadata).toEqual(CUSTOM);
    });

    t.test("include ['customMetadata'] still returns httpMetadata (include is ignored before 2022-08-04)", async () => {
      const b = await withMetadata(t);
      expect((await entry(b, { include: ['customMetadata'] })).httpMetadata).toEqual(HTTP);
    });

    t.test('list() without include returns both kinds of metadata before 2022-08-04', async () => {
      const b = await withMetadata(t);
      const o = await entry(b, {});
      expect(o.httpMetadata).toEqual(HTTP);
      expect(o.customMetadata).toEqual(CUSTOM);
    });

    t.test('include [] returns both kinds of metadata before 2022-08-04', async () => {
      const b = await withMetadata(t);
      const o = await entry(b, { include: [] });
      expect(o.httpMetadata).toEqual(HTTP);
      expect(o.customMetadata).toEqual(CUSTOM);
    });

    t.test('writeHttpMetadata works on an entry listed without include before 2022-08-04', async () => {
      const b = await withMetadata(t);
      const o = await entry(b, {});
      const headers = new Headers();
      o.writeHttpMetadata(headers);
      expect(headers.get('content-type')).toBe('text/plain');
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Validation happens at every date
  // ---------------------------------------------------------------------------------------------

  t.test(
    `include is validated at every compatibility date: an unknown value rejects with RangeError ${era}`,
    async () => {
      const b = await withMetadata(t);
      await expectRejection(() => b.list({ include: bad(['etag']) }), RangeError, 'Unsupported include value etag');
    },
  );

  // Before 2022-10-31 (workerd's capture_async_api_throws), argument-conversion errors are thrown
  // synchronously instead of rejecting; the RangeError above is raised later and still rejects.
  const syncConversionErrors = (t.target.compatibilityDate ?? '2025-01-01') < '2022-10-31';
  t.test(
    `a non-array include ${syncConversionErrors ? 'throws synchronously (compatibility date before 2022-10-31)' : 'rejects'} with TypeError … 'include' field … 'Array'`,
    async () => {
      const b = await withMetadata(t);
      const message =
        "Incorrect type for the 'include' field on 'ListOptions': the provided value is not of type 'Array'.";
      const call = () => b.list({ include: bad('customMetadata') });
      if (syncConversionErrors) {
        expect(call).toThrow(TypeError);
        expect(call).toThrow(message);
      } else {
        await expectRejection(call, TypeError, message);
      }
    },
  );

  // ---------------------------------------------------------------------------------------------
  // The 100-entry cap (workerd over its simulator; production only says "may return fewer")
  // ---------------------------------------------------------------------------------------------

  t.test(
    `with 150 keys, include ['httpMetadata'] and limit 120 gives 100 entries, truncated ${era}`,
    async () => {
      const b = await t.bucket();
      await putKeys(b, 150);
      const r = await b.list({ include: ['httpMetadata'], limit: 120 });
      expect(r.objects.length).toBe(100);
      expect(r.truncated).toBe(true);
      expect('cursor' in r).toBe(true);
    },
    { timeout: 30_000 },
  );

  t.test(
    `with 150 keys, include ['customMetadata'] without a limit gives 100 entries, truncated ${era}`,
    async () => {
      const b = await t.bucket();
      const keys = await putKeys(b, 150);
      const r = await b.list({ include: ['customMetadata'] });
      expect(r.objects.map((o) => o.key)).toEqual(keys.slice(0, 100));
      expect(r.objects[99]!.customMetadata).toEqual({ k: keys[99] });
      expect(r.truncated).toBe(true);
    },
    { timeout: 30_000 },
  );

  t.test(
    `with 150 keys and a non-empty include, paging visits every key once, 100 at most per page ${era}`,
    async () => {
      const b = await t.bucket();
      const keys = await putKeys(b, 150);
      const pages = await allPages(b, { include: ['httpMetadata', 'customMetadata'], limit: 1000 });
      expect(pages.map((p) => p.objects.length)).toEqual([100, 50]);
      expect(pages.flatMap((p) => p.objects.map((o) => o.key))).toEqual(keys);
      expect(pages[1]!.truncated).toBe(false);
    },
    { timeout: 30_000 },
  );

  t.test(
    honors
      ? 'with 150 keys, list without include (or include []) and limit 120 gives 120 entries: no cap'
      : 'with 150 keys, every list is capped at 100 before 2022-08-04, even without include',
    async () => {
      const b = await t.bucket();
      await putKeys(b, 150);
      const expected = honors ? 120 : 100;
      for (const options of [{ limit: 120 }, { limit: 120, include: [] }] as R2ListOptions[]) {
        const r = await b.list(options);
        expect(r.objects.length).toBe(expected);
        expect(r.truncated).toBe(true);
      }
      const all = await b.list();
      expect(all.objects.length).toBe(honors ? 150 : 100);
      expect(all.truncated).toBe(!honors);
    },
    { timeout: 30_000 },
  );

  t.test(`the cap does not apply below 100: include with limit 5 gives 5 ${era}`, async () => {
    const b = await t.bucket();
    await putKeys(b, 8);
    const r = await b.list({ include: ['httpMetadata'], limit: 5 });
    expect(r.objects.length).toBe(5);
    expect(r.truncated).toBe(true);
  });
});
