import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';
import type { R2BucketLike, R2PutOptions } from '../../../lib/bucket/types.js';
import { EMPTY_MD5, expectBackendError, expectRejection, fromHex, md5Hex, shaHex, toHex, utf8 } from '../util.js';

// R2Checksums and the integrity-hash options of put (docs/sources/r2-binding.md#checksums,
// docs/sources/r2-binding.md#put).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the suite calls the binding with arguments its types forbid, as untyped Worker code can
const loose = (b: R2BucketLike): any => b;

type Field = 'md5' | 'sha1' | 'sha256' | 'sha384' | 'sha512';
interface Algorithm {
  field: Field;
  name: 'MD5' | 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';
  bytes: number;
}
const ALGORITHMS: Algorithm[] = [
  { field: 'md5', name: 'MD5', bytes: 16 },
  { field: 'sha1', name: 'SHA-1', bytes: 20 },
  { field: 'sha256', name: 'SHA-256', bytes: 32 },
  { field: 'sha384', name: 'SHA-384', bytes: 48 },
  { field: 'sha512', name: 'SHA-512', bytes: 64 },
];
const SHAS = ALGORITHMS.filter((a) => a.field !== 'md5');

/** Lowercase hex digest of `content` under the algorithm. */
async function digest(a: Algorithm, content: string): Promise<string> {
  return a.field === 'md5' ? md5Hex(content) : shaHex(a.name as 'SHA-1', content);
}

const opts = (field: Field, value: unknown): R2PutOptions => ({ [field]: value }) as R2PutOptions;

export const checksums = defineGroup('checksums', (t) => {
  t.test('a put without a hash has an md5 checksum equal to the etag, and nothing else', async () => {
    const b = await t.bucket();
    const o = (await b.put('k', 'hello'))!;
    expect(o.etag).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(o.checksums.md5).toBeInstanceOf(ArrayBuffer);
    expect(o.checksums.md5!.byteLength).toBe(16);
    expect(toHex(o.checksums.md5!)).toBe(o.etag);
    for (const a of SHAS) expect(o.checksums[a.field]).toBeUndefined();
    expect(o.checksums.toJSON()).toEqual({ md5: o.etag });
  });

  t.test('the empty object has the md5 checksum d41d8cd98f00b204e9800998ecf8427e', async () => {
    const b = await t.bucket();
    await b.put('k', '');
    expect((await b.head('k'))?.checksums.toJSON()).toEqual({ md5: EMPTY_MD5 });
  });

  t.test('head, get and list return the same checksums as the put result', async () => {
    const b = await t.bucket();
    const put = (await b.put('k', 'abc', { sha256: await shaHex('SHA-256', 'abc') }))!;
    const expected = put.checksums.toJSON();
    expect(Object.keys(expected).sort()).toEqual(['md5', 'sha256']);
    expect((await b.head('k'))?.checksums.toJSON()).toEqual(expected);
    expect((await b.get('k'))?.checksums.toJSON()).toEqual(expected);
    expect((await b.list()).objects[0]!.checksums.toJSON()).toEqual(expected);
  });

  t.test('the checksums object is named Checksums and lists sha512, sha384, sha256, sha1, md5 as keys', async () => {
    const b = await t.bucket();
    const o = (await b.put('k', 'abc'))!;
    expect(o.checksums.constructor.name).toBe('Checksums');
    expect(Object.keys(o.checksums)).toEqual(['sha512', 'sha384', 'sha256', 'sha1', 'md5']);
    const h = await b.head('k');
    expect(Object.keys(h!.checksums)).toEqual(['sha512', 'sha384', 'sha256', 'sha1', 'md5']);
  });

  t.test(
    'JSON.stringify(checksums) equals JSON.stringify(checksums.toJSON()) and leaves out absent algorithms',
    async () => {
      const b = await t.bucket();
      const o = (await b.put('k', 'abc', { sha1: await shaHex('SHA-1', 'abc') }))!;
      expect(JSON.parse(JSON.stringify(o.checksums))).toEqual({
        md5: md5Hex('abc'),
        sha1: await shaHex('SHA-1', 'abc'),
      });
      expect(JSON.stringify(o.checksums)).toBe(JSON.stringify(o.checksums.toJSON()));
    },
  );

  for (const a of ALGORITHMS) {
    t.test(`${a.field} given as lowercase hex is checked and stored (${a.bytes}-byte ArrayBuffer)`, async () => {
      const b = await t.bucket();
      const hex = await digest(a, 'payload');
      const o = (await b.put('k', 'payload', opts(a.field, hex)))!;
      const h = await b.head('k');
      for (const r of [o, h!]) {
        const buf = r.checksums[a.field];
        expect(buf).toBeInstanceOf(ArrayBuffer);
        expect(buf!.byteLength).toBe(a.bytes);
        expect(toHex(buf!)).toBe(hex);
        expect(r.checksums.toJSON()).toEqual({ md5: md5Hex('payload'), [a.field]: hex });
      }
    });

    t.test(`${a.field} given as UPPERCASE hex is accepted and stored in lowercase`, async () => {
      const b = await t.bucket();
      const hex = await digest(a, 'payload');
      await b.put('k', 'payload', opts(a.field, hex.toUpperCase()));
      expect((await b.head('k'))?.checksums.toJSON()[a.field]).toBe(hex);
    });

    t.test(`${a.field} given as an ArrayBuffer, a Uint8Array or a DataView window is accepted`, async () => {
      const b = await t.bucket();
      const hex = await digest(a, 'payload');
      const raw = fromHex(hex);
      await b.put('ab', 'payload', opts(a.field, raw.slice().buffer));
      await b.put('u8', 'payload', opts(a.field, raw));
      // a view into a larger buffer: only the window counts
      const big = new Uint8Array(raw.length + 4);
      big.set(raw, 2);
      await b.put('dv', 'payload', opts(a.field, new DataView(big.buffer, 2, raw.length)));
      for (const k of ['ab', 'u8', 'dv']) expect((await b.head(k))?.checksums.toJSON()[a.field]).toBe(hex);
    });

    t.test(
      `a ${a.field} hex string of the wrong length rejects with "${a.name} is ${a.bytes * 2} hex characters, not N"`,
      async () => {
        const b = await t.bucket();
        await expectRejection(
          () => b.put('k', 'v', opts(a.field, 'abc')),
          TypeError,
          `${a.name} is ${a.bytes * 2} hex characters, not 3`,
        );
        await expectRejection(
          () => b.put('k', 'v', opts(a.field, 'a'.repeat(a.bytes * 2 + 2))),
          TypeError,
          `${a.name} is ${a.bytes * 2} hex characters, not ${a.bytes * 2 + 2}`,
        );
        await expectRejection(
          () => b.put('k', 'v', opts(a.field, '')),
          TypeError,
          `${a.name} is ${a.bytes * 2} hex characters, not 0`,
        );
        expect(await b.head('k')).toBeNull();
      },
    );

    t.test(`a ${a.field} buffer of the wrong length rejects with "${a.name} is ${a.bytes} bytes, not N"`, async () => {
      const b = await t.bucket();
      await expectRejection(
        () => b.put('k', 'v', opts(a.field, new Uint8Array(a.bytes - 1))),
        TypeError,
        `${a.name} is ${a.bytes} bytes, not ${a.bytes - 1}`,
      );
      await expectRejection(
        () => b.put('k', 'v', opts(a.field, new ArrayBuffer(a.bytes + 1))),
        TypeError,
        `${a.name} is ${a.bytes} bytes, not ${a.bytes + 1}`,
      );
      await expectRejection(
        () => b.put('k', 'v', opts(a.field, new DataView(new ArrayBuffer(64), 0, 0))),
        TypeError,
        `${a.name} is ${a.bytes} bytes, not 0`,
      );
    });

    t.test(
      `a ${a.field} string of the right length that is not hex rejects with "Provided ${a.name} wasn't a valid hex string"`,
      async () => {
        const b = await t.bucket();
        await expectRejection(
          () => b.put('k', 'v', opts(a.field, 'z'.repeat(a.bytes * 2))),
          TypeError,
          `Provided ${a.name} wasn't a valid hex string`,
        );
        await expectRejection(
          () => b.put('k', 'v', opts(a.field, 'g' + '0'.repeat(a.bytes * 2 - 1))),
          TypeError,
          `Provided ${a.name} wasn't a valid hex string`,
        );
      },
    );

    // workerd 1.20260426 said 'JsBufferSource or string'; this runtime says 'BufferSource'.
    t.test(
      `a ${a.field} that is neither a string nor a buffer rejects with the 'BufferSource or string' TypeError`,
      async () => {
        const b = await t.bucket();
        const message = `Incorrect type for the '${a.field}' field on 'PutOptions': the provided value is not of type 'BufferSource or string'.`;
        await expectRejection(() => b.put('k', 'v', opts(a.field, 5)), TypeError, message);
        await expectRejection(() => b.put('k', 'v', opts(a.field, {})), TypeError, message);
      },
    );

    t.test(
      `a ${a.field} that does not match the content rejects with the three-line 10037 message and stores nothing`,
      async () => {
        const b = await t.bucket();
        const wrong = await digest(a, 'something else');
        const actual = await digest(a, 'payload');
        await expectBackendError(
          () => b.put('k', 'payload', opts(a.field, wrong.toUpperCase())),
          `put: The ${a.name} checksum you specified did not match what we received.\n` +
            `You provided a ${a.name} checksum with value: ${wrong}\n` +
            `Actual ${a.name} was: ${actual} (10037)`,
        );
        expect(await b.head('k')).toBeNull();
      },
    );
  }

  t.test('a bad digest given as a buffer reports the provided value as lowercase hex', async () => {
    const b = await t.bucket();
    const wrong = await shaHex('SHA-1', 'nope');
    await expectBackendError(
      () => b.put('k', 'abc', { sha1: fromHex(wrong) }),
      `put: The SHA-1 checksum you specified did not match what we received.\nYou provided a SHA-1 checksum with value: ${wrong}\nActual SHA-1 was: ${await shaHex('SHA-1', 'abc')} (10037)`,
    );
  });

  t.test('a matching md5 given for an empty (null) value is accepted', async () => {
    const b = await t.bucket();
    const o = (await b.put('k', null, { md5: EMPTY_MD5 }))!;
    expect(o.etag).toBe(EMPTY_MD5);
  });

  t.test('two hashes together reject with "You cannot specify multiple hashing algorithms."', async () => {
    const b = await t.bucket();
    await expectRejection(
      () => b.put('k', 'abc', { md5: md5Hex('abc'), sha1: '' }),
      TypeError,
      'You cannot specify multiple hashing algorithms.',
    );
    const sha256 = await shaHex('SHA-256', 'abc');
    const sha512 = await shaHex('SHA-512', 'abc');
    await expectRejection(
      () => b.put('k', 'abc', { sha256, sha512 }),
      TypeError,
      'You cannot specify multiple hashing algorithms.',
    );
    expect(await b.head('k')).toBeNull();
  });

  t.test(
    'hash fields are checked in the order md5, sha1, …: an invalid md5 with a valid sha1 gives the MD5 length error',
    async () => {
      const b = await t.bucket();
      const sha1 = await shaHex('SHA-1', 'abc');
      await expectRejection(
        () => b.put('k', 'abc', { md5: 'abc', sha1 }),
        TypeError,
        'MD5 is 32 hex characters, not 3',
      );
    },
  );

  t.test(
    'a valid md5 with an invalid sha1 gives "multiple" (each field checks for an earlier hash first)',
    async () => {
      const b = await t.bucket();
      await expectRejection(
        () => b.put('k', 'abc', { md5: md5Hex('abc'), sha1: 'abc' }),
        TypeError,
        'You cannot specify multiple hashing algorithms.',
      );
    },
  );

  t.test(
    'a valid sha1 with an invalid sha512 gives "multiple"; an invalid sha1 with a valid sha512 gives the SHA-1 error',
    async () => {
      const b = await t.bucket();
      const sha1 = await shaHex('SHA-1', 'abc');
      const sha512 = await shaHex('SHA-512', 'abc');
      await expectRejection(
        () => b.put('k', 'abc', { sha1, sha512: 'x' }),
        TypeError,
        'You cannot specify multiple hashing algorithms.',
      );
      await expectRejection(
        () => b.put('k', 'abc', { sha1: 'x', sha512 }),
        TypeError,
        'SHA-1 is 40 hex characters, not 1',
      );
    },
  );

  t.test('a hash field set to undefined does not count as a second hash', async () => {
    const b = await t.bucket();
    const sha1 = await shaHex('SHA-1', 'abc');
    const o = (await b.put('k', 'abc', { md5: undefined, sha1, sha256: undefined }))!;
    expect(o.checksums.toJSON()).toEqual({ md5: md5Hex('abc'), sha1 });
  });

  // Argument conversion (the value) precedes option interpretation in this runtime; workerd
  // 1.20260426 checked the value last.
  t.test(
    "the value's type is checked before the hashes: put(k, 5, {md5: 'abc'}) gives the value TypeError",
    async () => {
      const b = await t.bucket();
      await expectRejection(
        () => loose(b).put('k', 5, { md5: 'abc' }),
        TypeError,
        "Failed to execute 'put' on 'R2Bucket': parameter 2 is not of type 'JsReadableStream or ArrayBuffer or ArrayBufferView or string or Blob'.",
      );
    },
  );

  t.test(
    'the hashes are checked before the stream length: an unknown-length stream with md5 "abc" gives the MD5 error',
    async () => {
      const b = await t.bucket();
      const stream = new ReadableStream({
        start(c) {
          c.close();
        },
      });
      await expectRejection(() => b.put('k', stream, { md5: 'abc' }), TypeError, 'MD5 is 32 hex characters, not 3');
    },
  );

  t.test('a bad digest together with a failing onlyIf rejects with 10037 rather than resolving to null', async () => {
    const b = await t.bucket();
    await b.put('k', 'old');
    await expectBackendError(
      () => b.put('k', 'abc', { md5: EMPTY_MD5, onlyIf: { etagMatches: 'not-the-etag' } }),
      `put: The MD5 checksum you specified did not match what we received.\nYou provided a MD5 checksum with value: ${EMPTY_MD5}\nActual MD5 was: ${md5Hex('abc')} (10037)`,
    );
    expect(await (await b.get('k'))?.text()).toBe('old');
  });

  t.test('a bad digest with an oversize key gives 10020 (key is checked first)', async () => {
    const b = await t.bucket();
    await expectBackendError(
      () => b.put('x'.repeat(1025), 'abc', { md5: EMPTY_MD5 }),
      'put: The specified object name is not valid. (10020)',
    );
  });

  t.test('overwriting without a hash leaves only md5', async () => {
    const b = await t.bucket();
    await b.put('k', 'abc', { sha384: await shaHex('SHA-384', 'abc') });
    expect(Object.keys((await b.head('k'))!.checksums.toJSON()).sort()).toEqual(['md5', 'sha384']);
    const o = (await b.put('k', 'abc'))!;
    expect(o.checksums.toJSON()).toEqual({ md5: md5Hex('abc') });
    expect((await b.head('k'))?.checksums.toJSON()).toEqual({ md5: md5Hex('abc') });
    expect((await b.head('k'))?.checksums.sha384).toBeUndefined();
  });

  t.test('a supplied md5 is stored as the md5 checksum and the etag', async () => {
    const b = await t.bucket();
    const bytes = utf8('abc');
    const o = (await b.put('k', bytes, { md5: fromHex(md5Hex('abc')) }))!;
    expect(o.etag).toBe(md5Hex('abc'));
    expect(o.checksums.toJSON()).toEqual({ md5: md5Hex('abc') });
  });
});
