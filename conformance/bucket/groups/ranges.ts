import { expect } from '../../runner.js';
import type { R2BucketLike, R2Conditional, R2ObjectBodyLike, R2Range } from '../../../lib/bucket/types.js';
import { defineGroup, type GroupContext } from '../harness.js';
import { expectBackendError, expectRejection } from '../util.js';

// Ranged reads: docs/sources/r2-binding.md#ranges.
// Most tests use a 10-byte object '0123456789' so a range's bytes are easy to read.

const TEN = '0123456789';
const NOT_SATISFIABLE = 'get: The requested range is not satisfiable (10039)';

/** A value of the wrong type, passed on purpose. */
const bad = (v: unknown): never => v as never;

/** A fresh bucket holding 'k' = '0123456789' and 'empty' = ''. */
async function tenBytes(t: GroupContext): Promise<R2BucketLike> {
  const b = await t.bucket();
  await b.put('k', TEN);
  await b.put('empty', '');
  return b;
}

interface Read {
  range: unknown;
  size: number;
  text: string;
}

/** get(key, {range}) that must return a body; gives the returned range, size and text. */
async function read(b: R2BucketLike, range: R2Range | Headers | undefined, key = 'k'): Promise<Read> {
  const o = await b.get(key, { range });
  if (o === null) throw new Error(`get(${key}) returned null`);
  return { range: o.range, size: o.size, text: await o.text() };
}

/** The expected read of `TEN` (or another content) for a normalised range. */
const slice = (offset: number, length: number, content = TEN): Read => ({
  range: { offset, length },
  size: content.length,
  text: content.slice(offset, offset + length),
});

export const ranges = defineGroup('ranges', (t) => {
  // ---------------------------------------------------------------------------------------------
  // R2Range object: client-side validation, always a rejection
  // ---------------------------------------------------------------------------------------------

  const clientErrors: [string, R2Range, typeof RangeError | typeof TypeError, string][] = [
    [
      'a negative offset',
      { offset: -1 },
      RangeError,
      'Invalid range. Starting offset (-1) must be greater than or equal to 0.',
    ],
    ['a negative length', { length: -1 }, RangeError, 'Invalid range. Length (-1) must be greater than or equal to 0.'],
    [
      'a negative suffix',
      { suffix: -1 },
      RangeError,
      'Invalid suffix. Suffix (-1) must be greater than or equal to 0.',
    ],
    [
      'a fractional offset',
      { offset: 1.5 },
      RangeError,
      'Invalid range. Starting offset (1.5) must be an integer, not floating point.',
    ],
    [
      'a fractional length',
      { length: 1.5 },
      RangeError,
      'Invalid range. Length (1.5) must be an integer, not floating point.',
    ],
    // Note "Invalid range." here, not "Invalid suffix.".
    [
      'a fractional suffix',
      { suffix: 1.5 },
      RangeError,
      'Invalid range. Suffix (1.5) must be an integer, not floating point.',
    ],
    // The sign is checked before the fraction.
    [
      'a negative fractional offset',
      { offset: -1.5 },
      RangeError,
      'Invalid range. Starting offset (-1.5) must be greater than or equal to 0.',
    ],
    [
      'a negative fractional length',
      { length: -1.5 },
      RangeError,
      'Invalid range. Length (-1.5) must be greater than or equal to 0.',
    ],
    [
      'a negative fractional suffix',
      { suffix: -1.5 },
      RangeError,
      'Invalid suffix. Suffix (-1.5) must be greater than or equal to 0.',
    ],
    // NaN prints as "nan" and fails the sign check; so does a non-numeric string.
    [
      'a NaN offset',
      { offset: NaN },
      RangeError,
      'Invalid range. Starting offset (nan) must be greater than or equal to 0.',
    ],
    ['a NaN length', { length: NaN }, RangeError, 'Invalid range. Length (nan) must be greater than or equal to 0.'],
    ['a NaN suffix', { suffix: NaN }, RangeError, 'Invalid suffix. Suffix (nan) must be greater than or equal to 0.'],
    [
      "a suffix of 'x'",
      { suffix: bad('x') },
      RangeError,
      'Invalid suffix. Suffix (nan) must be greater than or equal to 0.',
    ],
    [
      'an offset of -Infinity',
      { offset: -Infinity },
      RangeError,
      'Invalid range. Starting offset (-inf) must be greater than or equal to 0.',
    ],
    ['suffix with offset', bad({ suffix: 2, offset: 1 }), TypeError, 'Suffix is incompatible with offset.'],
    ['suffix with offset 0', bad({ suffix: 2, offset: 0 }), TypeError, 'Suffix is incompatible with offset.'],
    ['suffix with length', bad({ suffix: 2, length: 1 }), TypeError, 'Suffix is incompatible with length.'],
    [
      'suffix with offset and length',
      bad({ suffix: 2, offset: 1, length: 1 }),
      TypeError,
      'Suffix is incompatible with offset.',
    ],
  ];
  for (const [label, range, cls, message] of clientErrors) {
    t.test(`${label} rejects with ${cls.name} "${message}"`, async () => {
      const b = await tenBytes(t);
      await expectRejection(() => b.get('k', { range }), cls, message);
    });
  }

  t.test(
    "a range of the wrong type (string, number) rejects with TypeError … 'range' field on 'GetOptions' …",
    async () => {
      const b = await tenBytes(t);
      const message =
        "Incorrect type for the 'range' field on 'GetOptions': the provided value is not of type 'Range or Headers'.";
      await expectRejection(() => b.get('k', { range: bad('bytes=1-2') }), TypeError, message);
      await expectRejection(() => b.get('k', { range: bad(5) }), TypeError, message);
    },
  );

  t.test('suffix with offset or length explicitly undefined is accepted (undefined counts as absent)', async () => {
    const b = await tenBytes(t);
    expect(await read(b, bad({ suffix: 2, offset: undefined, length: undefined }))).toEqual(slice(8, 2));
  });

  t.test('-0 is accepted as 0', async () => {
    const b = await tenBytes(t);
    expect(await read(b, { offset: -0 })).toEqual(slice(0, 10));
  });

  t.test('{} , range: null and range: undefined mean no range: the whole object', async () => {
    const b = await tenBytes(t);
    expect(await read(b, bad({}))).toEqual(slice(0, 10));
    expect(await read(b, bad(null))).toEqual(slice(0, 10));
    expect(await read(b, undefined)).toEqual(slice(0, 10));
  });

  t.test("numeric strings are converted: {offset: '3'} reads from 3, {length: '2'} reads 2 bytes", async () => {
    const b = await tenBytes(t);
    expect(await read(b, { offset: bad('3') })).toEqual(slice(3, 7));
    expect(await read(b, { length: bad('2') })).toEqual(slice(0, 2));
  });

  t.test('offset: Infinity (and other huge offsets) reach the server and give 10039', async () => {
    const b = await tenBytes(t);
    await expectBackendError(() => b.get('k', { range: { offset: Infinity } }), NOT_SATISFIABLE);
    await expectBackendError(() => b.get('k', { range: { offset: 2 ** 53 } }), NOT_SATISFIABLE);
  });

  t.test('length: Infinity and suffix: Infinity read the whole object', async () => {
    const b = await tenBytes(t);
    expect(await read(b, { length: Infinity })).toEqual(slice(0, 10));
    expect(await read(b, { suffix: Infinity })).toEqual(slice(0, 10));
    expect(await read(b, { offset: 4, length: 2 ** 64 })).toEqual(slice(4, 6));
  });

  // ---------------------------------------------------------------------------------------------
  // R2Range object: server side, object size S = 10
  // ---------------------------------------------------------------------------------------------

  const served: [string, R2Range | undefined, Read][] = [
    ['no range', undefined, slice(0, 10)],
    ['{offset: 3}', { offset: 3 }, slice(3, 7)],
    ['{offset: 0}', { offset: 0 }, slice(0, 10)],
    ['{offset: 9}', { offset: 9 }, slice(9, 1)],
    ['{length: 4}', { length: 4 }, slice(0, 4)],
    ['{length: 20} (clamped)', { length: 20 }, slice(0, 10)],
    ['{offset: 3, length: 4}', { offset: 3, length: 4 }, slice(3, 4)],
    ['{offset: 8, length: 5} (clamped)', { offset: 8, length: 5 }, slice(8, 2)],
    ['{offset: 9, length: 1}', { offset: 9, length: 1 }, slice(9, 1)],
    ['{offset: 5, length: 5} (exactly to the end)', { offset: 5, length: 5 }, slice(5, 5)],
    ['{offset: 0, length: 10}', { offset: 0, length: 10 }, slice(0, 10)],
    ['{suffix: 1}', { suffix: 1 }, slice(9, 1)],
    ['{suffix: 4}', { suffix: 4 }, slice(6, 4)],
    ['{suffix: 10}', { suffix: 10 }, slice(0, 10)],
    ['{suffix: 20} (clamped)', { suffix: 20 }, slice(0, 10)],
  ];
  for (const [label, range, expected] of served) {
    t.test(
      `get with ${label} on a 10-byte object returns range {${String((expected.range as { offset: number }).offset)}, ${String((expected.range as { length: number }).length)}} and those bytes`,
      async () => {
        const b = await tenBytes(t);
        expect(await read(b, range)).toEqual(expected);
      },
    );
  }

  const unsatisfiable: [string, R2Range][] = [
    ['{offset: 10} (offset == size)', { offset: 10 }],
    ['{offset: 11}', { offset: 11 }],
    ['{length: 0}', { length: 0 }],
    ['{offset: 3, length: 0}', { offset: 3, length: 0 }],
    ['{offset: 0, length: 0}', { offset: 0, length: 0 }],
    ['{offset: 11, length: 1}', { offset: 11, length: 1 }],
    ['{suffix: 0}', { suffix: 0 }],
  ];
  for (const [label, range] of unsatisfiable) {
    t.test(`get with ${label} on a 10-byte object rejects with 10039`, async () => {
      const b = await tenBytes(t);
      await expectBackendError(() => b.get('k', { range }), NOT_SATISFIABLE);
    });
  }

  // A window that starts at the end and asks for bytes ({offset: size, length > 0}, length:
  // Infinity included; on an empty object also {length > 0} and {offset: 0, length > 0}): the
  // simulator's range rule accepts it and clamps it to {size, 0}, then reading a single-part
  // object's blob with that empty window fails inside the simulator (Miniflare 5.20261023.2-beta's
  // fetchSingleRange asserts on its blob store's answer, logs "AssertionError: false == true", and
  // answers R2 without a CF-R2-Error header), so the binding's caller sees "get: Unspecified error
  // (0)": a plain Error, not 10039 and not 10001. A passing onlyIf (object or Headers) changes
  // nothing; a failing one answers first (the HeadResult tests below). Production is not
  // established (docs/sources/r2-binding.md#ranges), so this follows the newest workerd: measured
  // on workerd 1.20261117.1, the same answer as on 1.20261023.1 (where the double's empty read was
  // a declared difference). A multipart object reads the empty window (the next tests).
  const UNSPECIFIED = 'get: Unspecified error (0)';
  const atEnd: [string, string, R2Range][] = [
    ['a 10-byte object', 'k', { offset: 10, length: 1 }],
    ['a 10-byte object', 'k', { offset: 10, length: 6 }],
    ['a 10-byte object', 'k', { offset: 10, length: Infinity }],
    ['an empty object', 'empty', { length: 1 }],
    ['an empty object', 'empty', { length: 6 }],
    ['an empty object', 'empty', { length: Infinity }],
    ['an empty object', 'empty', { offset: 0, length: 6 }],
    ['an empty object', 'empty', { offset: 0, length: Infinity }],
  ];
  const passing: [string, R2Conditional | Headers | undefined][] = [
    ['no onlyIf', undefined],
    ["onlyIf {etagMatches: '*'}", { etagMatches: '*' }],
    ["onlyIf {etagDoesNotMatch: 'x'}", { etagDoesNotMatch: 'x' }],
    ['onlyIf {uploadedAfter: epoch}', { uploadedAfter: new Date(0) }],
    ['onlyIf Headers If-Match: *', new Headers({ 'If-Match': '*' })],
  ];
  for (const [what, key, range] of atEnd) {
    t.test(
      `get of ${what} with ${JSON.stringify(range).replace('null', 'Infinity')}, with or without a passing onlyIf, rejects with "get: Unspecified error (0)"`,
      async () => {
        const b = await tenBytes(t);
        for (const [, onlyIf] of passing) await expectBackendError(() => b.get(key, { range, onlyIf }), UNSPECIFIED);
      },
    );
  }

  t.test('a window at the end with a failing onlyIf gives the HeadResult, not the error', async () => {
    const b = await tenBytes(t);
    for (const [key, range] of [
      ['k', { offset: 10, length: 1 }],
      ['empty', { length: 6 }],
      ['empty', { length: Infinity }],
    ] as const) {
      const o = await b.get(key, { range, onlyIf: { etagMatches: 'other' } });
      expect('body' in o!).toBe(false);
      expect(o!.range).toEqual({ offset: 0, length: key === 'k' ? 10 : 0 });
    }
  });

  t.test(
    'every empty single-part object fails so, whatever its value was (null, undefined, bytes, Blob, stream)',
    async () => {
      const b = await t.bucket();
      const values: [string, () => unknown][] = [
        ['null', () => null],
        ['undefined', () => undefined],
        ['bytes', () => new Uint8Array(0)],
        ['Blob', () => new Blob([])],
        ['Response body', () => new Response('').body],
      ];
      for (const [name, value] of values) {
        await b.put(name, value() as never);
        await expectBackendError(() => b.get(name, { range: { length: 6 } }), UNSPECIFIED);
        expect(await read(b, undefined, name)).toEqual(slice(0, 0, ''));
      }
    },
  );

  t.test(
    'a window just before the end reads the last byte (offset size - 1 with length 1, 2 or Infinity)',
    async () => {
      const b = await tenBytes(t);
      for (const length of [1, 2, Infinity]) expect(await read(b, { offset: 9, length })).toEqual(slice(9, 1));
    },
  );

  t.test(
    'an empty object written as one empty part reads the window at the end: range {0, 0}, an empty body',
    async () => {
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('mp');
      await upload.complete([await upload.uploadPart(1, '')]);
      for (const range of [{ length: 6 }, { length: Infinity }, { offset: 0, length: 1 }] as R2Range[]) {
        for (const [, onlyIf] of passing) {
          const o = await b.get('mp', { range, onlyIf });
          expect({ range: o!.range, size: o!.size, text: await (o as R2ObjectBodyLike).text() }).toEqual(
            slice(0, 0, ''),
          );
        }
      }
    },
  );

  t.test(
    'get with {offset: size, length > 0} on a multipart object reads range {size, 0} and an empty body',
    async () => {
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('mp');
      await upload.complete([await upload.uploadPart(1, 'abc')]);
      const got = async (range: R2Range) => {
        const o = await b.get('mp', { range });
        return o && { range: o.range, size: o.size, text: await o.text() };
      };
      expect(await got({ offset: 3, length: 1 })).toEqual({ range: { offset: 3, length: 0 }, size: 3, text: '' });
      expect(await got({ offset: 3, length: Infinity })).toEqual({
        range: { offset: 3, length: 0 },
        size: 3,
        text: '',
      });
      await expectBackendError(() => b.get('mp', { range: { offset: 3 } }), NOT_SATISFIABLE);
      await expectBackendError(() => b.get('mp', { range: { offset: 4, length: 1 } }), NOT_SATISFIABLE);
    },
  );

  // A multipart upload completed with no parts: size 0, etag '<md5 of nothing>-0' (issue 9).
  const zeroPartRanges: [string, R2Range | Headers | undefined, 'empty' | 'unsatisfiable'][] = [
    ['no range', undefined, 'empty'],
    ['{}', bad({}), 'unsatisfiable'],
    ['null', bad(null), 'unsatisfiable'],
    ['{offset: 0}', { offset: 0 }, 'unsatisfiable'],
    ['{offset: 1}', { offset: 1 }, 'unsatisfiable'],
    ['{length: 0}', { length: 0 }, 'unsatisfiable'],
    ['{length: 1}', { length: 1 }, 'empty'],
    ['{length: Infinity}', { length: Infinity }, 'empty'],
    ['{offset: 0, length: 0}', { offset: 0, length: 0 }, 'unsatisfiable'],
    ['{offset: 0, length: 1}', { offset: 0, length: 1 }, 'empty'],
    ['{offset: 1, length: 1}', { offset: 1, length: 1 }, 'unsatisfiable'],
    ['{suffix: 0}', { suffix: 0 }, 'unsatisfiable'],
    ['{suffix: 1}', { suffix: 1 }, 'unsatisfiable'],
    ['{offset: Infinity}', { offset: Infinity }, 'unsatisfiable'],
    ['Range bytes=0-', new Headers({ range: 'bytes=0-' }), 'empty'],
    ['Range bytes=0-0', new Headers({ range: 'bytes=0-0' }), 'empty'],
    ['Range bytes=-1', new Headers({ range: 'bytes=-1' }), 'empty'],
    ['Range bytes=1-', new Headers({ range: 'bytes=1-' }), 'empty'],
    ['Range bytes=-0', new Headers({ range: 'bytes=-0' }), 'empty'],
    ['Range bytes=0-10', new Headers({ range: 'bytes=0-10' }), 'empty'],
  ];
  for (const [label, range, outcome] of zeroPartRanges) {
    t.test(
      `a zero-part multipart object with ${label}: ${outcome === 'empty' ? 'range {0, 0} and an empty body' : 'rejects with 10039'}`,
      async () => {
        const b = await t.bucket();
        const done = await (await b.createMultipartUpload('mp')).complete([]);
        expect([done.size, done.etag]).toEqual([0, 'd41d8cd98f00b204e9800998ecf8427e-0']);
        if (outcome === 'unsatisfiable') {
          await expectBackendError(() => b.get('mp', { range }), NOT_SATISFIABLE);
        } else {
          expect(await read(b, range, 'mp')).toEqual(slice(0, 0, ''));
        }
      },
    );
  }

  t.test(
    'on an empty object, range {} and range: null are still ranges (from 0 to the end) and reject with 10039',
    async () => {
      // Found by the differential fuzzer: only an absent range means "the whole object, whatever its size".
      const b = await tenBytes(t);
      await expectBackendError(() => b.get('empty', { range: {} as R2Range }), NOT_SATISFIABLE);
      await expectBackendError(() => b.get('empty', { range: bad(null) }), NOT_SATISFIABLE);
      expect(await read(b, undefined, 'empty')).toEqual(slice(0, 0, ''));
    },
  );

  t.test('a range of the wrong type is refused before an invalid If-None-Match header is parsed', async () => {
    // Type conversion of every option comes first; the Headers are interpreted afterwards.
    const b = await tenBytes(t);
    await expectRejection(
      () => b.get('k', { onlyIf: new Headers({ 'If-None-Match': 'garbage' }), range: bad('bytes=0-1') }),
      TypeError,
      "Incorrect type for the 'range' field on 'GetOptions': the provided value is not of type 'Range or Headers'.",
    );
  });

  t.test('an empty object without a range reads as range {0, 0} and an empty body', async () => {
    const b = await tenBytes(t);
    expect(await read(b, undefined, 'empty')).toEqual(slice(0, 0, ''));
  });

  t.test('on an empty object {offset: 0}, {length: 0}, {suffix: 0} and {suffix: 1} reject with 10039', async () => {
    const b = await tenBytes(t);
    for (const range of [{ offset: 0 }, { length: 0 }, { suffix: 0 }, { suffix: 1 }] as R2Range[]) {
      await expectBackendError(() => b.get('empty', { range }), NOT_SATISFIABLE);
    }
  });

  // ---------------------------------------------------------------------------------------------
  // Range given as Headers
  // ---------------------------------------------------------------------------------------------

  const headerRanges: [string, Read][] = [
    ['bytes=3-6', slice(3, 4)],
    ['bytes=3-', slice(3, 7)],
    ['bytes=-4', slice(6, 4)],
    ['bytes=0-0', slice(0, 1)],
    ['bytes=9-9', slice(9, 1)],
    ['bytes=0-100', slice(0, 10)],
    ['bytes=-20', slice(0, 10)],
    ['bytes=01-02', slice(1, 2)],
    ['BYTES=1-2', slice(1, 2)],
    ['Bytes=1-2', slice(1, 2)],
    [' bytes = 2 - 3 ', slice(2, 2)],
    ['bytes= -3', slice(7, 3)],
  ];
  for (const [value, expected] of headerRanges) {
    t.test(
      `Range header ${JSON.stringify(value)} on a 10-byte object reads {${String((expected.range as { offset: number }).offset)}, ${String((expected.range as { length: number }).length)}}`,
      async () => {
        const b = await tenBytes(t);
        expect(await read(b, new Headers({ range: value }))).toEqual(expected);
      },
    );
  }

  // Everything else is ignored: the whole object, range {0, S}, no error. (Production may throw
  // 10039 for an unsatisfiable header range, cloudflare/cloudflare-docs#6673, but that is not
  // established; we follow workerd.)
  const ignoredHeaderRanges = [
    'bytes=abc',
    'bytes=,1-2',
    'bytes=1-2,',
    'items=1-2',
    'bytes=1-2,4-5',
    'bytes=10-',
    'bytes=20-30',
    'bytes=5-3',
    'bytes=-0',
    'bytes=1-2 x',
    '1-2',
  ];
  for (const value of ignoredHeaderRanges) {
    t.test(
      `Range header ${JSON.stringify(value)} is ignored: the whole object with range {0, 10}, no error`,
      async () => {
        const b = await tenBytes(t);
        expect(await read(b, new Headers({ range: value }))).toEqual(slice(0, 10));
      },
    );
  }

  t.test('Headers without a Range header (only x-foo, or empty) read the whole object', async () => {
    const b = await tenBytes(t);
    expect(await read(b, new Headers({ 'x-foo': 'bytes=1-2' }))).toEqual(slice(0, 10));
    expect(await read(b, new Headers())).toEqual(slice(0, 10));
  });

  t.test('the Range header name is case-insensitive', async () => {
    const b = await tenBytes(t);
    expect(await read(b, new Headers({ RANGE: 'bytes=1-2' }))).toEqual(slice(1, 2));
  });

  t.test('on an empty object, Range bytes=0-, bytes=-1 and bytes=0-0 read range {0, 0} and an empty body', async () => {
    const b = await tenBytes(t);
    for (const value of ['bytes=0-', 'bytes=-1', 'bytes=0-0']) {
      expect(await read(b, new Headers({ range: value }), 'empty')).toEqual(slice(0, 0, ''));
    }
  });

  // ---------------------------------------------------------------------------------------------
  // The returned range, size and bytes
  // ---------------------------------------------------------------------------------------------

  t.test('the returned range always has exactly the keys offset and length, never suffix', async () => {
    const b = await tenBytes(t);
    const cases: (R2Range | Headers | undefined)[] = [
      undefined,
      { offset: 2 },
      { length: 3 },
      { suffix: 4 },
      new Headers({ range: 'bytes=-4' }),
      new Headers({ range: 'bytes=5-' }),
    ];
    for (const range of cases) {
      const o = await b.get('k', { range });
      expect(Object.keys(o!.range!).sort()).toEqual(['length', 'offset']);
      await o!.text();
    }
  });

  t.test('size is always the full object size, also for a ranged read', async () => {
    const b = await tenBytes(t);
    const o = await b.get('k', { range: { offset: 2, length: 3 } });
    expect(o!.size).toBe(10);
    expect(await o!.text()).toBe('234');
  });

  t.test('ranged bodies of binary content are exactly the requested bytes', async () => {
    const b = await t.bucket();
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    await b.put('bin', all);
    const cases: [R2Range | Headers, number, number][] = [
      [{ offset: 100, length: 50 }, 100, 150],
      [{ offset: 250 }, 250, 256],
      [{ length: 7 }, 0, 7],
      [{ suffix: 10 }, 246, 256],
      [new Headers({ range: 'bytes=128-131' }), 128, 132],
    ];
    for (const [range, from, to] of cases) {
      const o = await b.get('bin', { range });
      expect(new Uint8Array(await o!.arrayBuffer())).toEqual(all.slice(from, to));
      expect(o!.range).toEqual({ offset: from, length: to - from });
    }
  });

  t.test('a multi-byte UTF-8 object is ranged by bytes, not characters', async () => {
    const b = await t.bucket();
    await b.put('u', 'é🙂x'); // 2 + 4 + 1 bytes
    const o = await b.get('u', { range: { offset: 2, length: 4 } });
    expect(await o!.text()).toBe('🙂');
    expect(o!.size).toBe(7);
  });

  t.test('the put result has range undefined', async () => {
    const b = await t.bucket();
    const put = await b.put('k', TEN);
    expect(put.range).toBeUndefined();
  });

  // ---------------------------------------------------------------------------------------------
  // Order of checks
  // ---------------------------------------------------------------------------------------------

  t.test('a missing key returns null even with an unsatisfiable range', async () => {
    const b = await tenBytes(t);
    expect(await b.get('missing', { range: { offset: 20 } })).toBeNull();
    expect(await b.get('missing', { range: { suffix: 0 } })).toBeNull();
    expect(await b.get('missing', { range: { length: 0 } })).toBeNull();
    expect(await b.get('missing', { range: { offset: 10, length: 1 } })).toBeNull();
  });

  t.test('a missing key returns null even with an unsatisfiable range and a failing onlyIf', async () => {
    const b = await tenBytes(t);
    expect(await b.get('missing', { range: { offset: 20 }, onlyIf: { etagMatches: 'x' } })).toBeNull();
  });

  t.test(
    'a failing precondition with an unsatisfiable range gives a HeadResult with range {0, size}, not 10039',
    async () => {
      const b = await tenBytes(t);
      for (const range of [{ offset: 20 }, { suffix: 0 }, { length: 0 }, { offset: 10, length: 1 }] as R2Range[]) {
        const o = await b.get('k', { range, onlyIf: { etagMatches: 'other' } });
        expect(o).not.toBeNull();
        expect('body' in o!).toBe(false);
        expect(o!.range).toEqual({ offset: 0, length: 10 });
      }
    },
  );

  t.test(
    'a failing precondition on an empty object gives a HeadResult with range {0, 0}, whatever the range',
    async () => {
      const b = await tenBytes(t);
      for (const range of [
        undefined,
        { offset: 0 },
        { suffix: 0 },
        { length: 1 },
        new Headers({ range: 'bytes=0-' }),
      ]) {
        const o = await b.get('empty', { range, onlyIf: { etagDoesNotMatch: '*' } });
        expect('body' in o!).toBe(false);
        expect(o!.range).toEqual({ offset: 0, length: 0 });
      }
    },
  );

  t.test('a failing precondition with a Range header gives a HeadResult with range {0, size}', async () => {
    const b = await tenBytes(t);
    const o = await b.get('k', {
      range: new Headers({ range: 'bytes=2-3' }),
      onlyIf: new Headers({ 'If-None-Match': '*' }),
    });
    expect('body' in o!).toBe(false);
    expect(o!.range).toEqual({ offset: 0, length: 10 });
  });

  t.test('a passing precondition with an unsatisfiable range rejects with 10039', async () => {
    const b = await tenBytes(t);
    await expectBackendError(
      () => b.get('k', { range: { offset: 20 }, onlyIf: { etagMatches: '*' } }),
      NOT_SATISFIABLE,
    );
  });

  t.test('a client-side range error beats a missing key: RangeError, not null', async () => {
    const b = await tenBytes(t);
    await expectRejection(
      () => b.get('missing', { range: { offset: -1 } }),
      RangeError,
      'Invalid range. Starting offset (-1) must be greater than or equal to 0.',
    );
  });

  t.test('a client-side range error beats an oversize key: RangeError, not 10020', async () => {
    const b = await tenBytes(t);
    await expectRejection(
      () => b.get('x'.repeat(1025), { range: { offset: -1 } }),
      RangeError,
      'Invalid range. Starting offset (-1) must be greater than or equal to 0.',
    );
  });

  t.test('a client-side range error beats a failing precondition', async () => {
    const b = await tenBytes(t);
    await expectRejection(
      () => b.get('k', { range: { suffix: 1, length: 1 } as R2Range, onlyIf: { etagMatches: 'other' } }),
      TypeError,
      'Suffix is incompatible with length.',
    );
  });

  t.test('an oversize key with an unsatisfiable range gives 10020 (the key is checked first)', async () => {
    const b = await tenBytes(t);
    await expectBackendError(
      () => b.get('x'.repeat(1025), { range: { offset: 20 } }),
      'get: The specified object name is not valid. (10020)',
    );
  });
});
