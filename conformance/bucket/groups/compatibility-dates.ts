import { expect } from '../../runner.js';
import { defineGroup, type GroupContext } from '../harness.js';
import { EMPTY_MD5, expectBackendError, expectRejection } from '../util.js';

// What changes with the Worker's compatibility date, asserted for the target's own date: this group
// runs on today's targets and on the 2022-01-01 ones, so each boundary is checked from both sides.
// The dates and flags are workerd's (src/workerd/io/compatibility-date.capnp).

/** Whether a feature is on for the target: its enable flag, else its date unless its disable flag is given. */
function enabled(t: GroupContext, since: string, enable: string, disable: string): boolean {
  const flags = t.target.compatibilityFlags ?? [];
  if (flags.includes(enable)) return true;
  return (t.target.compatibilityDate ?? '2025-01-01') >= since && !flags.includes(disable);
}

const VALUE_TYPE_ERROR =
  "Failed to execute 'put' on 'R2Bucket': parameter 2 is not of type 'JsReadableStream or ArrayBuffer or ArrayBufferView or string or Blob'.";

/** Values put cannot convert: neither a stream, a buffer, a string nor a Blob. */
const UNCONVERTIBLE: [string, unknown][] = [
  ['a plain object', { a: 1 }],
  ['an empty object', {}],
  ['an array', [1, 2]],
  ['a number', 5],
  ['a boolean', true],
  ['a Date', new Date(0)],
  ['a function', () => 1],
];

/** The error a call throws or rejects with (before 2022-10-31 conversion errors throw synchronously). */
async function errorOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

export const compatibilityDates = defineGroup('compatibility dates', (t) => {
  // noSubstituteNull, 2022-06-01 (`dont_substitute_null_on_type_error` / `substitute_null_on_type_error`):
  // before it, jsg read a nullable argument it could not convert as null instead of refusing it.
  const refuses = enabled(t, '2022-06-01', 'dont_substitute_null_on_type_error', 'substitute_null_on_type_error');
  for (const [label, value] of UNCONVERTIBLE) {
    t.test(
      refuses
        ? `put with ${label} as the value rejects with the parameter TypeError (date 2022-06-01 on)`
        : `put with ${label} as the value stores an empty object, as put(k, null) does (date before 2022-06-01)`,
      async () => {
        const b = await t.bucket();
        if (refuses) {
          await expectRejection(() => b.put('k', value as never), TypeError, VALUE_TYPE_ERROR);
          expect(await b.head('k')).toBeNull();
        } else {
          const put = await b.put('k', value as never);
          expect([put.size, put.etag]).toEqual([0, EMPTY_MD5]);
          expect(await (await b.get('k'))!.text()).toBe('');
        }
      },
    );
  }

  t.test('put with the value left out rejects with the parameter TypeError at every date', async () => {
    const b = await t.bucket();
    const put = b.put.bind(b) as (key: string) => Promise<unknown>;
    const e = await errorOf(() => put('k'));
    expect(e).toBeInstanceOf(TypeError);
    expect((e as Error).message).toBe(VALUE_TYPE_ERROR);
  });

  t.test(
    'uploadPart with a plain object rejects with its parameter TypeError at every date (its value is not nullable)',
    async () => {
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('k');
      const e = await errorOf(() => upload.uploadPart(1, {} as never));
      expect(e).toBeInstanceOf(TypeError);
      expect((e as Error).message).toBe(
        "Failed to execute 'uploadPart' on 'R2MultipartUpload': parameter 2 is not of type 'JsReadableStream or ArrayBuffer or ArrayBufferView or string or Blob'.",
      );
      await upload.abort();
    },
  );

  // captureThrowsAsRejections, 2022-10-31 (`capture_async_api_throws` / `do_not_capture_async_api_throws`).
  const captures = enabled(t, '2022-10-31', 'capture_async_api_throws', 'do_not_capture_async_api_throws');
  t.test(
    captures
      ? 'an argument-conversion error is a rejected promise, like a backend error (date 2022-10-31 on)'
      : 'an argument-conversion error is thrown synchronously; a backend error still rejects (date before 2022-10-31)',
    async () => {
      const b = await t.bucket();
      const call = () => b.list({ prefix: 5 as never });
      if (captures) {
        await expectRejection(
          call,
          TypeError,
          "Incorrect type for the 'prefix' field on 'ListOptions': the provided value is not of type 'string'.",
        );
      } else {
        expect(call).toThrow(
          new TypeError(
            "Incorrect type for the 'prefix' field on 'ListOptions': the provided value is not of type 'string'.",
          ),
        );
      }
      // The limit is converted fine and refused by R2: a rejection at every date.
      await expectBackendError(
        () => b.list({ limit: 0 }),
        'list: MaxKeys params must be positive integer <= 1000. (10022)',
      );
      // resumeMultipartUpload is synchronous at every date.
      expect(() => (b.resumeMultipartUpload as (...a: unknown[]) => unknown)('k')).toThrow(TypeError);
    },
  );

  // setToStringTag, 2024-09-26 (`set_tostring_tag` / `do_not_set_tostring_tag`).
  const tagged = enabled(t, '2024-09-26', 'set_tostring_tag', 'do_not_set_tostring_tag');
  t.test(
    tagged
      ? 'Object.prototype.toString names the class: [object R2Bucket], [object HeadResult], … (date 2024-09-26 on)'
      : 'Object.prototype.toString gives [object Object] for the bucket and its results (date before 2024-09-26)',
    async () => {
      const b = await t.bucket();
      const tag = (o: unknown) => Object.prototype.toString.call(o);
      const name = (n: string) => (tagged ? `[object ${n}]` : '[object Object]');
      const put = await b.put('k', 'v');
      const got = (await b.get('k'))!;
      const upload = await b.createMultipartUpload('u');
      const done = await upload.complete([]);
      expect(tag(b)).toBe(name('R2Bucket'));
      expect([tag(put), tag(await b.head('k')), tag((await b.list()).objects[0]), tag(done)]).toEqual(
        Array(4).fill(name('HeadResult')),
      );
      expect(tag(got)).toBe(name('GetResult'));
      expect([tag(got.checksums), tag(done.checksums)]).toEqual([name('Checksums'), name('Checksums')]);
      expect(tag(upload)).toBe(name('R2MultipartUpload'));
      expect(tag(await b.list())).toBe('[object Object]');
      if (tagged) {
        // As workerd defines it: a plain data property of the prototype.
        const proto = Object.getPrototypeOf(put);
        expect(Object.getOwnPropertyDescriptor(proto, Symbol.toStringTag)).toEqual({
          value: 'HeadResult',
          writable: true,
          enumerable: false,
          configurable: true,
        });
        expect(Object.getOwnPropertyDescriptor(put, Symbol.toStringTag)).toBeUndefined();
      }
    },
  );
});
