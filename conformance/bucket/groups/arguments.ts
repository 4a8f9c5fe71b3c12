import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';
import type { R2BucketLike } from '../../../lib/bucket/types.js';
import { expectRejection, rejection } from '../util.js';

// The binding converts its arguments the WebIDL way
// (docs/sources/r2-binding.md#argument-conversion). Casts through `any` are deliberate: these tests
// pass what TypeScript would not allow.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the suite calls the binding with arguments its types forbid, as untyped Worker code can
const loose = (b: R2BucketLike): any => b;

export const argumentCoercion = defineGroup('argument coercion', (t) => {
  t.test('a number key is converted to its string: put(123) is found by head("123") and listed as "123"', async () => {
    const b = await t.bucket();
    const put = await loose(b).put(123, 'v');
    expect(put.key).toBe('123');
    expect((await b.head('123'))?.key).toBe('123');
    expect((await loose(b).head(123))?.key).toBe('123');
    expect((await b.list()).objects.map((o) => o.key)).toEqual(['123']);
  });

  t.test('a null key is the string "null"', async () => {
    const b = await t.bucket();
    expect((await loose(b).put(null, 'v')).key).toBe('null');
    expect((await b.head('null'))?.size).toBe(1);
    expect(await (await loose(b).get(null))?.text()).toBe('v');
  });

  t.test('an explicit undefined key is the string "undefined"', async () => {
    const b = await t.bucket();
    expect((await loose(b).put(undefined, 'v')).key).toBe('undefined');
    expect((await b.head('undefined'))?.key).toBe('undefined');
    expect((await loose(b).head(undefined))?.key).toBe('undefined');
  });

  t.test('an object key is converted with its toString()', async () => {
    const b = await t.bucket();
    const key = { toString: () => 'from-toString' };
    expect((await loose(b).put(key, 'v')).key).toBe('from-toString');
    expect((await b.head('from-toString'))?.key).toBe('from-toString');
    await loose(b).delete(key);
    expect(await b.head('from-toString')).toBeNull();
  });

  t.test('a plain object key becomes "[object Object]"', async () => {
    const b = await t.bucket();
    expect((await loose(b).put({}, 'v')).key).toBe('[object Object]');
    expect((await b.list()).objects.map((o) => o.key)).toEqual(['[object Object]']);
  });

  t.test('a Symbol key rejects with TypeError "Cannot convert a Symbol value to a string"', async () => {
    const b = await t.bucket();
    await expectRejection(() => loose(b).head(Symbol('k')), TypeError, 'Cannot convert a Symbol value to a string');
    await expectRejection(() => loose(b).put(Symbol('k'), 'v'), TypeError, 'Cannot convert a Symbol value to a string');
    expect((await b.list()).objects).toEqual([]);
  });

  t.test('an array key is converted with its toString(): ["a", "b"] → "a,b"', async () => {
    const b = await t.bucket();
    expect((await loose(b).put(['a', 'b'], 'v')).key).toBe('a,b');
    expect((await loose(b).head(['a', 'b']))?.key).toBe('a,b');
    expect((await b.head('a,b'))?.size).toBe(1);
  });

  t.test('a boolean key is converted: true → "true"', async () => {
    const b = await t.bucket();
    expect((await loose(b).put(true, 'v')).key).toBe('true');
    expect((await b.head('true'))?.key).toBe('true');
  });

  t.test("head() without a key rejects with TypeError parameter 1 is not of type 'string'", async () => {
    const b = await t.bucket();
    await expectRejection(
      () => loose(b).head(),
      TypeError,
      "Failed to execute 'head' on 'R2Bucket': parameter 1 is not of type 'string'.",
    );
  });

  t.test("get() without a key rejects with TypeError parameter 1 is not of type 'string'", async () => {
    const b = await t.bucket();
    await expectRejection(
      () => loose(b).get(),
      TypeError,
      "Failed to execute 'get' on 'R2Bucket': parameter 1 is not of type 'string'.",
    );
  });

  t.test("put() without any argument rejects with TypeError parameter 1 is not of type 'string'", async () => {
    const b = await t.bucket();
    await expectRejection(
      () => loose(b).put(),
      TypeError,
      "Failed to execute 'put' on 'R2Bucket': parameter 1 is not of type 'string'.",
    );
    expect((await b.list()).objects).toEqual([]);
  });

  t.test(
    "delete() without an argument rejects with TypeError parameter 1 is not of type 'string or Array'",
    async () => {
      const b = await t.bucket();
      await expectRejection(
        () => loose(b).delete(),
        TypeError,
        "Failed to execute 'delete' on 'R2Bucket': parameter 1 is not of type 'string or Array'.",
      );
    },
  );

  t.test(
    "createMultipartUpload() without a key rejects with TypeError parameter 1 is not of type 'string'",
    async () => {
      const b = await t.bucket();
      await expectRejection(
        () => loose(b).createMultipartUpload(),
        TypeError,
        "Failed to execute 'createMultipartUpload' on 'R2Bucket': parameter 1 is not of type 'string'.",
      );
    },
  );

  t.test("get(k, 'x') rejects with TypeError parameter 2 is not of type 'GetOptions'", async () => {
    const b = await t.bucket();
    await b.put('k', 'v');
    await expectRejection(
      () => loose(b).get('k', 'x'),
      TypeError,
      "Failed to execute 'get' on 'R2Bucket': parameter 2 is not of type 'GetOptions'.",
    );
    await expectRejection(
      () => loose(b).get('k', 5),
      TypeError,
      "Failed to execute 'get' on 'R2Bucket': parameter 2 is not of type 'GetOptions'.",
    );
  });

  t.test("list('x') rejects with TypeError parameter 1 is not of type 'ListOptions'", async () => {
    const b = await t.bucket();
    await expectRejection(
      () => loose(b).list('x'),
      TypeError,
      "Failed to execute 'list' on 'R2Bucket': parameter 1 is not of type 'ListOptions'.",
    );
    await expectRejection(
      () => loose(b).list(5),
      TypeError,
      "Failed to execute 'list' on 'R2Bucket': parameter 1 is not of type 'ListOptions'.",
    );
  });

  t.test(
    "put(k, v, 'x') rejects with TypeError parameter 3 is not of type 'PutOptions' and stores nothing",
    async () => {
      const b = await t.bucket();
      await expectRejection(
        () => loose(b).put('k', 'v', 'x'),
        TypeError,
        "Failed to execute 'put' on 'R2Bucket': parameter 3 is not of type 'PutOptions'.",
      );
      await expectRejection(
        () => loose(b).put('k', 'v', 5),
        TypeError,
        "Failed to execute 'put' on 'R2Bucket': parameter 3 is not of type 'PutOptions'.",
      );
      expect(await b.head('k')).toBeNull();
    },
  );

  t.test('get(k, undefined) and get(k, null) behave as get(k)', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello');
    expect(await (await loose(b).get('k', undefined))?.text()).toBe('hello');
    expect(await (await loose(b).get('k', null))?.text()).toBe('hello');
  });

  t.test('list(undefined) and list(null) behave as list()', async () => {
    const b = await t.bucket();
    await b.put('a', '1');
    await b.put('b', '2');
    for (const options of [undefined, null]) {
      const page = await loose(b).list(options);
      expect(page.objects.map((o: { key: string }) => o.key)).toEqual(['a', 'b']);
      expect(page.truncated).toBe(false);
    }
  });

  t.test('put(k, v, undefined) and put(k, v, null) behave as put(k, v)', async () => {
    const b = await t.bucket();
    const a = await loose(b).put('a', 'x', undefined);
    const n = await loose(b).put('n', 'x', null);
    for (const o of [a, n]) {
      expect(o.size).toBe(1);
      expect(o.httpMetadata).toEqual({});
      expect(o.customMetadata).toEqual({});
    }
  });

  t.test('option fields set to undefined count as absent', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello', {
      httpMetadata: undefined,
      customMetadata: undefined,
      md5: undefined,
      onlyIf: undefined,
    });
    const got = await loose(b).get('k', { range: undefined, onlyIf: undefined });
    expect(got.range).toEqual({ offset: 0, length: 5 });
    expect(await got.text()).toBe('hello');
    const page = await loose(b).list({
      prefix: undefined,
      limit: undefined,
      cursor: undefined,
      delimiter: undefined,
      include: undefined,
    });
    expect(page.objects.map((o: { key: string }) => o.key)).toEqual(['k']);
  });

  t.test('unknown option fields are ignored by get, put and list', async () => {
    const b = await t.bucket();
    const put = await loose(b).put('k', 'hello', { bogus: 1, contentType: 'text/plain' });
    expect(put.httpMetadata).toEqual({});
    const got = await loose(b).get('k', { bogus: 1, offset: 2 });
    expect(await got.text()).toBe('hello');
    const page = await loose(b).list({ bogus: 1, maxKeys: 0 });
    expect(page.objects.map((o: { key: string }) => o.key)).toEqual(['k']);
  });

  t.test('head ignores extra arguments such as a range', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello');
    const h = await loose(b).head('k', { range: { offset: 1, length: 1 } });
    expect(h.size).toBe(5);
  });

  t.test('every method except resumeMultipartUpload reports argument errors as a rejected promise', async () => {
    const b = await t.bucket();
    // `rejection` fails the test if the call throws synchronously instead of returning a promise.
    const calls: Array<() => unknown> = [
      () => loose(b).head(),
      () => loose(b).get(),
      () => loose(b).get('k', 'x'),
      () => loose(b).put('k'),
      () => loose(b).put('k', 5),
      () => loose(b).put('k', 'v', { md5: 'abc' }),
      () => loose(b).delete(),
      () => loose(b).list('x'),
      () => loose(b).list({ limit: 2 ** 31 }),
      () => loose(b).createMultipartUpload(),
    ];
    for (const call of calls) expect(await rejection(call)).toBeInstanceOf(TypeError);
  });

  t.test('resumeMultipartUpload(k) without an upload id throws a TypeError synchronously', async () => {
    const b = await t.bucket();
    expect(() => loose(b).resumeMultipartUpload('k')).toThrow(TypeError);
    expect(() => loose(b).resumeMultipartUpload('k')).toThrow(
      new TypeError("Failed to execute 'resumeMultipartUpload' on 'R2Bucket': parameter 2 is not of type 'string'."),
    );
  });

  t.test('resumeMultipartUpload() without arguments throws synchronously about parameter 1', async () => {
    const b = await t.bucket();
    let thrown: unknown;
    try {
      loose(b).resumeMultipartUpload();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toBe(
      "Failed to execute 'resumeMultipartUpload' on 'R2Bucket': parameter 1 is not of type 'string'.",
    );
  });

  t.test(
    'resumeMultipartUpload(Symbol()) throws the Symbol TypeError: parameter 1 is converted before parameter 2 is missed',
    async () => {
      // Found by the differential fuzzer.
      const b = await t.bucket();
      expect(() => loose(b).resumeMultipartUpload(Symbol('k'))).toThrow(
        new TypeError('Cannot convert a Symbol value to a string'),
      );
    },
  );

  t.test(
    'a BigInt where a number is expected (part number, list limit, range offset) is refused: "Cannot convert a BigInt value to a number"',
    async () => {
      // Found by the differential fuzzer: Number(1n) is 1, the runtime's ToNumber refuses it.
      const b = await t.bucket();
      await b.put('k', 'abc');
      const message = 'Cannot convert a BigInt value to a number';
      const upload = await b.createMultipartUpload('m');
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the suite calls the binding with arguments its types forbid, as untyped Worker code can
      await expectRejection(() => (upload as any).uploadPart(1n, 'part'), TypeError, message);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the suite calls the binding with arguments its types forbid, as untyped Worker code can
      await expectRejection(() => (upload as any).complete([{ partNumber: 1n, etag: 'x' }]), TypeError, message);
      await expectRejection(() => loose(b).list({ limit: 1n }), TypeError, message);
      await expectRejection(() => loose(b).get('k', { range: { offset: 1n } }), TypeError, message);
      await upload.abort();
      expect((await b.list()).objects.map((o) => o.key)).toEqual(['k']);
    },
  );

  t.test('resumeMultipartUpload converts its arguments to strings and returns synchronously', async () => {
    const b = await t.bucket();
    const upload = loose(b).resumeMultipartUpload(123, 456);
    expect(upload).not.toBeInstanceOf(Promise);
    expect(upload.key).toBe('123');
    expect(upload.uploadId).toBe('456');
  });
});
