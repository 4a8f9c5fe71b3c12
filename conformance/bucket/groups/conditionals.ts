import { expect } from '../../runner.js';
import type { R2BucketLike, R2Conditional, R2ObjectLike } from '../../../lib/bucket/types.js';
import { defineGroup, type GroupContext } from '../harness.js';
import { expectRejection } from '../util.js';

// Conditional operations (`onlyIf`): docs/sources/r2-binding.md#conditionals.
// A failing condition never throws: get gives a HeadResult without a body, put gives null.

type OnlyIf = R2Conditional | Headers;
type Outcome = 'body' | 'no body' | 'null';

/** A number of ms where the types say Date: the binding accepts both. */
const ms = (n: number): Date => n as unknown as Date;
/** A value of the wrong type, passed on purpose. */
const bad = (v: unknown): never => v as never;
const H = (init: Record<string, string>): Headers => new Headers(init);

interface Stored {
  b: R2BucketLike;
  obj: R2ObjectLike;
  etag: string;
  /** `uploaded` in ms. */
  up: number;
  /** The start of the second `up` falls in. */
  sec: number;
}

/** A fresh bucket holding 'k' = 'hello' with some metadata. */
async function stored(t: GroupContext): Promise<Stored> {
  const b = await t.bucket();
  const obj = await b.put('k', 'hello', {
    httpMetadata: { contentType: 'text/plain' },
    customMetadata: { m: '1' },
  });
  const up = obj.uploaded.getTime();
  return { b, obj, etag: obj.etag, up, sec: Math.floor(up / 1000) * 1000 };
}

/** What get('k', {onlyIf}) gives: a body (condition passed), no body (failed) or null. */
async function getOutcome(b: R2BucketLike, onlyIf: OnlyIf, key = 'k'): Promise<Outcome> {
  const o = await b.get(key, { onlyIf });
  if (o === null) return 'null';
  return 'body' in o ? 'body' : 'no body';
}

/** Asserts each condition gives the expected get outcome (labels make a failure readable). */
async function expectGet(b: R2BucketLike, cases: [label: string, onlyIf: OnlyIf, expected: Outcome][]): Promise<void> {
  const got: Record<string, Outcome> = {};
  const want: Record<string, Outcome> = {};
  for (const [label, onlyIf, expected] of cases) {
    got[label] = await getOutcome(b, onlyIf);
    want[label] = expected;
  }
  expect(got).toEqual(want);
}

export const conditionals = defineGroup('conditionals', (t) => {
  // ---------------------------------------------------------------------------------------------
  // Object form: etags
  // ---------------------------------------------------------------------------------------------

  t.test('etagMatches: the etag passes, another etag fails', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['same', { etagMatches: etag }, 'body'],
      ['other', { etagMatches: 'd41d8cd98f00b204e9800998ecf8427e' }, 'no body'],
    ]);
  });

  t.test('etagDoesNotMatch: the etag fails, another etag passes', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['same', { etagDoesNotMatch: etag }, 'no body'],
      ['other', { etagDoesNotMatch: 'd41d8cd98f00b204e9800998ecf8427e' }, 'body'],
    ]);
  });

  t.test("'*' is the wildcard: etagMatches '*' passes, etagDoesNotMatch '*' fails", async () => {
    const { b } = await stored(t);
    await expectGet(b, [
      ['etagMatches *', { etagMatches: '*' }, 'body'],
      ['etagDoesNotMatch *', { etagDoesNotMatch: '*' }, 'no body'],
    ]);
  });

  t.test("the object form is one literal etag: 'a, <etag>' and '<etag>, *' are not lists", async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['etagMatches a, etag', { etagMatches: `a, ${etag}` }, 'no body'],
      ['etagMatches etag, *', { etagMatches: `${etag}, *` }, 'no body'],
      ['etagDoesNotMatch a, etag', { etagDoesNotMatch: `a, ${etag}` }, 'body'],
    ]);
  });

  t.test('the object form compares W/"<etag>" literally: it never matches the etag', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['etagMatches W/"etag"', { etagMatches: `W/"${etag}"` }, 'no body'],
      ['etagDoesNotMatch W/"etag"', { etagDoesNotMatch: `W/"${etag}"` }, 'body'],
    ]);
  });

  t.test('etag comparison is case-sensitive', async () => {
    const { b, etag } = await stored(t);
    const upper = etag.toUpperCase();
    expect(upper).not.toBe(etag);
    await expectGet(b, [
      ['etagMatches UPPER', { etagMatches: upper }, 'no body'],
      ['etagDoesNotMatch UPPER', { etagDoesNotMatch: upper }, 'body'],
    ]);
  });

  t.test('a value that only starts with a quote is not rejected and never matches', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['etagMatches "etag', { etagMatches: `"${etag}` }, 'no body'],
      ['etagDoesNotMatch "etag', { etagDoesNotMatch: `"${etag}` }, 'body'],
    ]);
  });

  t.test(
    'get with a quoted etagMatches rejects with TypeError "Conditional ETag should not be wrapped in quotes (…)."',
    async () => {
      const { b, etag } = await stored(t);
      await expectRejection(
        () => b.get('k', { onlyIf: { etagMatches: `"${etag}"` } }),
        TypeError,
        `Conditional ETag should not be wrapped in quotes ("${etag}").`,
      );
    },
  );

  t.test('get with a quoted etagDoesNotMatch rejects with the same TypeError', async () => {
    const { b } = await stored(t);
    await expectRejection(
      () => b.get('k', { onlyIf: { etagDoesNotMatch: '"x"' } }),
      TypeError,
      'Conditional ETag should not be wrapped in quotes ("x").',
    );
  });

  t.test('a lone double quote counts as wrapped in quotes', async () => {
    const { b } = await stored(t);
    await expectRejection(
      () => b.get('k', { onlyIf: { etagMatches: '"' } }),
      TypeError,
      'Conditional ETag should not be wrapped in quotes (").',
    );
  });

  t.test('put with a quoted etag rejects with the TypeError and stores nothing', async () => {
    const { b, obj } = await stored(t);
    await expectRejection(
      () => b.put('k', 'new', { onlyIf: { etagMatches: `"${obj.etag}"` } }),
      TypeError,
      `Conditional ETag should not be wrapped in quotes ("${obj.etag}").`,
    );
    expect((await b.head('k'))?.version).toBe(obj.version);
  });

  t.test('the quoted-etag TypeError is raised even when the key does not exist (client-side check)', async () => {
    const b = await t.bucket();
    await expectRejection(
      () => b.get('missing', { onlyIf: { etagMatches: '"x"' } }),
      TypeError,
      'Conditional ETag should not be wrapped in quotes ("x").',
    );
    await expectRejection(
      () => b.put('missing', 'v', { onlyIf: { etagDoesNotMatch: '"x"' } }),
      TypeError,
      'Conditional ETag should not be wrapped in quotes ("x").',
    );
    expect(await b.head('missing')).toBeNull();
  });

  t.test(
    "a non-string etagMatches (number, null) rejects with TypeError … 'etagMatches' field on 'Conditional' …",
    async () => {
      const { b } = await stored(t);
      const message =
        "Incorrect type for the 'etagMatches' field on 'Conditional': the provided value is not of type 'string'.";
      await expectRejection(() => b.get('k', { onlyIf: { etagMatches: bad(5) } }), TypeError, message);
      await expectRejection(() => b.get('k', { onlyIf: { etagMatches: bad(null) } }), TypeError, message);
    },
  );

  t.test(
    "a non-string etagDoesNotMatch (array) rejects with TypeError … 'etagDoesNotMatch' field …, also on put",
    async () => {
      const { b, obj } = await stored(t);
      const message =
        "Incorrect type for the 'etagDoesNotMatch' field on 'Conditional': the provided value is not of type 'string'.";
      await expectRejection(() => b.get('k', { onlyIf: { etagDoesNotMatch: bad(['a']) } }), TypeError, message);
      await expectRejection(() => b.put('k', 'x', { onlyIf: { etagDoesNotMatch: bad(['a']) } }), TypeError, message);
      expect((await b.head('k'))?.version).toBe(obj.version);
    },
  );

  // ---------------------------------------------------------------------------------------------
  // Object form: dates
  // ---------------------------------------------------------------------------------------------

  t.test('uploadedBefore is strict at ms granularity: uploaded+1 passes, uploaded and uploaded-1 fail', async () => {
    const { b, up } = await stored(t);
    await expectGet(b, [
      ['+1', { uploadedBefore: new Date(up + 1) }, 'body'],
      ['equal', { uploadedBefore: new Date(up) }, 'no body'],
      ['-1', { uploadedBefore: new Date(up - 1) }, 'no body'],
    ]);
  });

  t.test('uploadedAfter is strict at ms granularity: uploaded-1 passes, uploaded and uploaded+1 fail', async () => {
    const { b, up } = await stored(t);
    await expectGet(b, [
      ['-1', { uploadedAfter: new Date(up - 1) }, 'body'],
      ['equal', { uploadedAfter: new Date(up) }, 'no body'],
      ['+1', { uploadedAfter: new Date(up + 1) }, 'no body'],
    ]);
  });

  t.test('uploadedBefore / uploadedAfter accept a number of ms like a Date', async () => {
    const { b, up } = await stored(t);
    await expectGet(b, [
      ['before +1', { uploadedBefore: ms(up + 1) }, 'body'],
      ['before equal', { uploadedBefore: ms(up) }, 'no body'],
      ['after -1', { uploadedAfter: ms(up - 1) }, 'body'],
      ['after equal', { uploadedAfter: ms(up) }, 'no body'],
    ]);
  });

  t.test(
    "a string uploadedBefore rejects with TypeError … 'uploadedBefore' field on 'Conditional' … 'date'",
    async () => {
      const { b, obj } = await stored(t);
      await expectRejection(
        () => b.get('k', { onlyIf: { uploadedBefore: bad(obj.uploaded.toISOString()) } }),
        TypeError,
        "Incorrect type for the 'uploadedBefore' field on 'Conditional': the provided value is not of type 'date'.",
      );
    },
  );

  t.test("a string or null uploadedAfter rejects with TypeError … 'uploadedAfter' field …, also on put", async () => {
    const { b, obj } = await stored(t);
    const message =
      "Incorrect type for the 'uploadedAfter' field on 'Conditional': the provided value is not of type 'date'.";
    await expectRejection(() => b.get('k', { onlyIf: { uploadedAfter: bad('yesterday') } }), TypeError, message);
    await expectRejection(() => b.get('k', { onlyIf: { uploadedAfter: bad(null) } }), TypeError, message);
    await expectRejection(() => b.put('k', 'x', { onlyIf: { uploadedAfter: bad('yesterday') } }), TypeError, message);
    expect((await b.head('k'))?.version).toBe(obj.version);
  });

  t.test(
    'an Invalid Date (or NaN ms) rejects with TypeError "The value cannot be converted because it is not a valid Date."',
    async () => {
      const { b } = await stored(t);
      const message = 'The value cannot be converted because it is not a valid Date.';
      await expectRejection(() => b.get('k', { onlyIf: { uploadedAfter: new Date(NaN) } }), TypeError, message);
      await expectRejection(() => b.get('k', { onlyIf: { uploadedBefore: new Date('nope') } }), TypeError, message);
      await expectRejection(() => b.get('k', { onlyIf: { uploadedBefore: ms(NaN) } }), TypeError, message);
      await expectRejection(() => b.put('k', 'x', { onlyIf: { uploadedBefore: new Date(NaN) } }), TypeError, message);
    },
  );

  // Found by probing workerd (client side, so production behaviour). The
  // real bound is the int64-nanosecond range (2262-04-11): 2262-01-01 is accepted despite the text.
  t.test('a date in 2300 rejects with TypeError "This API doesn\'t support dates after 2189."', async () => {
    const { b } = await stored(t);
    await expectRejection(
      () => b.get('k', { onlyIf: { uploadedBefore: new Date('2300-01-01T00:00:00Z') } }),
      TypeError,
      "This API doesn't support dates after 2189.",
    );
  });

  t.test('a date before 1677-09-21 rejects with TypeError "This API doesn\'t support dates before 1687."', async () => {
    // Found by the differential fuzzer: the lower int64-nanosecond bound, with its own odd year.
    const { b } = await stored(t);
    await expectRejection(
      () => b.get('k', { onlyIf: { uploadedBefore: new Date(-9_223_372_036_855) } }),
      TypeError,
      "This API doesn't support dates before 1687.",
    );
    await expectRejection(
      () => b.put('k', 'x', { httpMetadata: { cacheExpiry: new Date(-8.64e15) } }),
      TypeError,
      "This API doesn't support dates before 1687.",
    );
    // The bound itself is accepted (and, sent as an unsigned number, never compares true).
    expect(await b.get('k', { onlyIf: { uploadedAfter: new Date(-9_223_372_036_854) } })).not.toHaveProperty('body');
  });

  t.test('a far-future date inside the supported range (2200) is accepted: uploadedBefore passes', async () => {
    const { b } = await stored(t);
    await expectGet(b, [['before 2200', { uploadedBefore: new Date('2200-01-01T00:00:00Z') }, 'body']]);
  });

  t.test('dates before 1970 fail both as uploadedAfter and as uploadedBefore', async () => {
    // They are sent as huge unsigned integers, so neither comparison holds.
    const { b } = await stored(t);
    await expectGet(b, [
      ['after -1000', { uploadedAfter: new Date(-1000) }, 'no body'],
      ['before -1000', { uploadedBefore: new Date(-1000) }, 'no body'],
    ]);
  });

  // Found by the differential fuzzer on workerd 1.20261117.1 (bad mix, seed 295): workerd sends a
  // date as unsigned 64-bit ms in a field whose declared default, all ones, means "not given"
  // (r2-api.capnp: `uploadedBefore @2 :UInt64 = 0xffffffffffffffff`), and its JSON encoder leaves a
  // default value out. So -1 ms reaches R2 as no condition at all. Client side: production behaviour.
  t.test(
    'a date of -1 ms is no condition at all (Date, number, -1.9 ms, or an ISO header ending .999Z before 1970)',
    async () => {
      const { b } = await stored(t);
      await expectGet(b, [
        ['after Date(-1)', { uploadedAfter: new Date(-1) }, 'body'],
        ['before Date(-1)', { uploadedBefore: new Date(-1) }, 'body'],
        ['after -1', { uploadedAfter: ms(-1) }, 'body'],
        ['before -1.9', { uploadedBefore: ms(-1.9) }, 'body'],
        ['after -1 with seconds', { uploadedAfter: ms(-1), secondsGranularity: true }, 'body'],
        ['If-Modified-Since .999Z', H({ 'If-Modified-Since': '1969-12-31T23:59:59.999Z' }), 'body'],
        ['If-Unmodified-Since .999Z', H({ 'If-Unmodified-Since': '1969-12-31T23:59:59.999Z' }), 'body'],
        // -2 ms is a date before 1970 like any other: it fails both ways.
        ['before -2', { uploadedBefore: ms(-2) }, 'no body'],
        ['If-Unmodified-Since .998Z', H({ 'If-Unmodified-Since': '1969-12-31T23:59:59.998Z' }), 'no body'],
      ]);
      // The other conditions still apply.
      await expectGet(b, [['after -1 and a wrong etag', { uploadedAfter: ms(-1), etagMatches: 'other' }, 'no body']]);
    },
  );

  t.test('a number of ms is truncated toward zero: -0.5 is the epoch itself (after holds, before fails)', async () => {
    const { b } = await stored(t);
    await expectGet(b, [
      ['after -0.5', { uploadedAfter: ms(-0.5) }, 'body'],
      ['before -0.9', { uploadedBefore: ms(-0.9) }, 'no body'],
      ['before -2.5', { uploadedBefore: ms(-2.5) }, 'no body'],
    ]);
  });

  t.test(
    'a finite number beyond ±8.64e15 ms rejects as out of range ("after 2189" / "before 1687"), not as an invalid Date',
    async () => {
      const { b } = await stored(t);
      await expectRejection(
        () => b.get('k', { onlyIf: { uploadedAfter: ms(8.64e15 + 2) } }),
        TypeError,
        "This API doesn't support dates after 2189.",
      );
      await expectRejection(
        () => b.get('k', { onlyIf: { uploadedBefore: ms(1e300) } }),
        TypeError,
        "This API doesn't support dates after 2189.",
      );
      await expectRejection(
        () => b.get('k', { onlyIf: { uploadedBefore: ms(-1e300) } }),
        TypeError,
        "This API doesn't support dates before 1687.",
      );
      const invalid = 'The value cannot be converted because it is not a valid Date.';
      await expectRejection(() => b.get('k', { onlyIf: { uploadedAfter: ms(Infinity) } }), TypeError, invalid);
      await expectRejection(() => b.get('k', { onlyIf: { uploadedAfter: ms(-Infinity) } }), TypeError, invalid);
    },
  );

  t.test('secondsGranularity: any date in the upload second fails both uploadedBefore and uploadedAfter', async () => {
    const { b, sec } = await stored(t);
    await expectGet(b, [
      ['before start of second', { uploadedBefore: new Date(sec), secondsGranularity: true }, 'no body'],
      ['before end of second', { uploadedBefore: new Date(sec + 999), secondsGranularity: true }, 'no body'],
      ['after start of second', { uploadedAfter: new Date(sec), secondsGranularity: true }, 'no body'],
      ['after end of second', { uploadedAfter: new Date(sec + 999), secondsGranularity: true }, 'no body'],
    ]);
  });

  t.test('secondsGranularity: the neighbouring seconds pass (next second for before, previous for after)', async () => {
    const { b, sec } = await stored(t);
    await expectGet(b, [
      ['before next second', { uploadedBefore: new Date(sec + 1000), secondsGranularity: true }, 'body'],
      ['after previous second', { uploadedAfter: new Date(sec - 1), secondsGranularity: true }, 'body'],
    ]);
  });

  t.test(
    'without secondsGranularity (false or absent) the end of the upload second passes uploadedBefore',
    async () => {
      const { b, up, sec } = await stored(t);
      // Only meaningful when the upload was not in the last ms of its second.
      const expected: Outcome = up < sec + 999 ? 'body' : 'no body';
      await expectGet(b, [
        ['absent', { uploadedBefore: new Date(sec + 999) }, expected],
        ['false', { uploadedBefore: new Date(sec + 999), secondsGranularity: false }, expected],
        ['true', { uploadedBefore: new Date(sec + 999), secondsGranularity: true }, 'no body'],
      ]);
    },
  );

  t.test('a non-boolean secondsGranularity is taken by truthiness (1 and "yes" on, 0 and "" off)', async () => {
    const { b, up, sec } = await stored(t);
    const off: Outcome = up < sec + 999 ? 'body' : 'no body';
    const on = (v: unknown): R2Conditional => ({ uploadedBefore: new Date(sec + 999), secondsGranularity: bad(v) });
    await expectGet(b, [
      ['1', on(1), 'no body'],
      ['yes', on('yes'), 'no body'],
      ['0', on(0), off],
      ['empty string', on(''), off],
    ]);
  });

  t.test('unknown fields are ignored and {} passes', async () => {
    const { b } = await stored(t);
    await expectGet(b, [
      ['{}', {}, 'body'],
      ['unknown', bad({ ifMatch: 'nope', etag: 'x', foo: 1 }), 'body'],
    ]);
  });

  t.test('fields set to undefined count as absent', async () => {
    const { b } = await stored(t);
    await expectGet(b, [
      [
        'all undefined',
        { etagMatches: undefined, etagDoesNotMatch: undefined, uploadedAfter: undefined, uploadedBefore: undefined },
        'body',
      ],
    ]);
  });

  t.test(
    "onlyIf of the wrong type rejects with TypeError … 'onlyIf' field on 'GetOptions' / 'PutOptions' …",
    async () => {
      const { b, obj } = await stored(t);
      await expectRejection(
        () => b.get('k', { onlyIf: bad('x') }),
        TypeError,
        "Incorrect type for the 'onlyIf' field on 'GetOptions': the provided value is not of type 'Conditional or Headers'.",
      );
      await expectRejection(
        () => b.put('k', 'x', { onlyIf: bad(5) }),
        TypeError,
        "Incorrect type for the 'onlyIf' field on 'PutOptions': the provided value is not of type 'Conditional or Headers'.",
      );
      expect((await b.head('k'))?.version).toBe(obj.version);
    },
  );

  t.test('onlyIf null or undefined means no condition', async () => {
    const { b } = await stored(t);
    await expectGet(b, [
      ['null', bad(null), 'body'],
      ['undefined', bad(undefined), 'body'],
    ]);
  });

  // ---------------------------------------------------------------------------------------------
  // Evaluation rules
  // ---------------------------------------------------------------------------------------------

  t.test('a passing etagMatches overrides a failing uploadedBefore', async () => {
    const { b, etag, up } = await stored(t);
    await expectGet(b, [['match + before==uploaded', { etagMatches: etag, uploadedBefore: new Date(up) }, 'body']]);
  });

  t.test('a passing etagDoesNotMatch overrides a failing uploadedAfter', async () => {
    const { b, up } = await stored(t);
    await expectGet(b, [
      ['no-match + after==uploaded', { etagDoesNotMatch: 'other', uploadedAfter: new Date(up) }, 'body'],
    ]);
  });

  t.test('a failing etag condition is not rescued by a passing date', async () => {
    const { b, etag, up } = await stored(t);
    await expectGet(b, [
      ['etagMatches fails, before passes', { etagMatches: 'other', uploadedBefore: new Date(up + 1) }, 'no body'],
      ['etagDoesNotMatch fails, after passes', { etagDoesNotMatch: etag, uploadedAfter: new Date(up - 1) }, 'no body'],
    ]);
  });

  t.test(
    'the overrides do not cross: etagMatches does not rescue uploadedAfter, etagDoesNotMatch does not rescue uploadedBefore',
    async () => {
      const { b, etag, up } = await stored(t);
      await expectGet(b, [
        ['etagMatches + after fails', { etagMatches: etag, uploadedAfter: new Date(up) }, 'no body'],
        ['etagDoesNotMatch + before fails', { etagDoesNotMatch: 'other', uploadedBefore: new Date(up) }, 'no body'],
      ]);
    },
  );

  t.test('matching and not-matching the same etag at once fails', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['etag both', { etagMatches: etag, etagDoesNotMatch: etag }, 'no body'],
      ['* both', { etagMatches: '*', etagDoesNotMatch: '*' }, 'no body'],
    ]);
  });

  t.test('all four conditions passing together pass', async () => {
    const { b, up } = await stored(t);
    await expectGet(b, [
      [
        'all pass',
        {
          etagMatches: '*',
          etagDoesNotMatch: 'other',
          uploadedAfter: new Date(up - 1),
          uploadedBefore: new Date(up + 1),
        },
        'body',
      ],
    ]);
  });

  // ---------------------------------------------------------------------------------------------
  // Headers form
  // ---------------------------------------------------------------------------------------------

  t.test('If-Match with the quoted etag passes, with another quoted etag fails, * passes', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['same', H({ 'If-Match': `"${etag}"` }), 'body'],
      ['other', H({ 'If-Match': '"other"' }), 'no body'],
      ['*', H({ 'If-Match': '*' }), 'body'],
    ]);
  });

  t.test('If-None-Match with the quoted etag fails, with another passes, * fails', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['same', H({ 'If-None-Match': `"${etag}"` }), 'no body'],
      ['other', H({ 'If-None-Match': '"other"' }), 'body'],
      ['*', H({ 'If-None-Match': '*' }), 'no body'],
    ]);
  });

  t.test('header names are case-insensitive (if-match, IF-NONE-MATCH)', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['if-match', H({ 'if-match': `"${etag}"` }), 'body'],
      ['IF-NONE-MATCH', H({ 'IF-NONE-MATCH': `"${etag}"` }), 'no body'],
    ]);
  });

  t.test('an etag list matches when any entry matches; spaces, tabs and empty elements are allowed', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['list', H({ 'If-Match': `"a", "${etag}"` }), 'body'],
      ['no space', H({ 'If-Match': `"a","${etag}"` }), 'body'],
      ['tabs and empties', H({ 'If-Match': `"a",\t,  ,\t"${etag}"` }), 'body'],
      ['leading and trailing commas', H({ 'If-Match': `,,"${etag}",,` }), 'body'],
      ['none of them', H({ 'If-Match': '"a", "b"' }), 'no body'],
      ['If-None-Match list', H({ 'If-None-Match': `"a", "${etag}"` }), 'no body'],
      ['If-None-Match list without it', H({ 'If-None-Match': '"a", "b"' }), 'body'],
    ]);
  });

  t.test('repeated If-Match headers (Headers.append) combine into one list', async () => {
    const { b, etag } = await stored(t);
    const h = new Headers();
    h.append('If-Match', '"a"');
    h.append('If-Match', `"${etag}"`);
    await expectGet(b, [['appended', h, 'body']]);
  });

  t.test(
    'the header value is compared literally inside the quotes: "a,b" is one etag, "" is an empty one',
    async () => {
      const { b } = await stored(t);
      await expectGet(b, [
        ['"a,b"', H({ 'If-Match': '"a,b"' }), 'no body'],
        ['""', H({ 'If-Match': '""' }), 'no body'],
        ['If-None-Match ""', H({ 'If-None-Match': '""' }), 'body'],
      ]);
    },
  );

  t.test('header etags are case-sensitive', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [['If-Match UPPER', H({ 'If-Match': `"${etag.toUpperCase()}"` }), 'no body']]);
  });

  t.test('a weak etag in If-Match never matches (strong comparison)', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['W/"etag"', H({ 'If-Match': `W/"${etag}"` }), 'no body'],
      ['W/"etag" then "etag"', H({ 'If-Match': `W/"${etag}", "${etag}"` }), 'body'],
    ]);
  });

  t.test('a weak etag in If-None-Match matches (weak comparison), so the condition fails', async () => {
    const { b, etag } = await stored(t);
    await expectGet(b, [
      ['W/"etag"', H({ 'If-None-Match': `W/"${etag}"` }), 'no body'],
      ['W/"other"', H({ 'If-None-Match': 'W/"other"' }), 'body'],
    ]);
  });

  t.test('* anywhere in the list is the wildcard', async () => {
    const { b } = await stored(t);
    await expectGet(b, [
      ['"a", *', H({ 'If-Match': '"a", *' }), 'body'],
      ['*, "z"', H({ 'If-Match': '*, "z"' }), 'body'],
      // After a wildcard nothing more is read, not even a missing comma.
      ['* "z"', H({ 'If-Match': '* "z"' }), 'body'],
      ['If-None-Match "z", *', H({ 'If-None-Match': '"z", *' }), 'no body'],
    ]);
  });

  t.test(
    'parsing stops silently at a token that is not an etag: what came before still counts, what follows is ignored',
    async () => {
      const { b, etag } = await stored(t);
      await expectGet(b, [
        ['"etag", garbage', H({ 'If-Match': `"${etag}", garbage` }), 'body'],
        ['"a", garbage, "etag"', H({ 'If-Match': `"a", garbage, "${etag}"` }), 'no body'],
        ['"a" x "etag"', H({ 'If-Match': `"a" x "${etag}"` }), 'no body'],
        ['If-None-Match "other", garbage, "etag"', H({ 'If-None-Match': `"other", garbage, "${etag}"` }), 'body'],
      ]);
    },
  );

  t.test(
    'If-Match with nothing parseable (unquoted, empty, lowercase w/, garbage first) rejects with Error "Invalid ETag in if-match header"',
    async () => {
      const { b, etag } = await stored(t);
      for (const value of [etag, '', ',', `w/"${etag}"`, `garbage"${etag}"`, 'x*']) {
        await expectRejection(
          () => b.get('k', { onlyIf: H({ 'If-Match': value }) }),
          Error,
          'Invalid ETag in if-match header',
        );
      }
    },
  );

  t.test('If-None-Match with nothing parseable rejects with Error "Invalid ETag in if-none-match header"', async () => {
    const { b, etag } = await stored(t);
    for (const value of [etag, '']) {
      await expectRejection(
        () => b.get('k', { onlyIf: H({ 'If-None-Match': value }) }),
        Error,
        'Invalid ETag in if-none-match header',
      );
    }
  });

  t.test('an unclosed quote rejects with Error "Unclosed double quote for Etag"', async () => {
    const { b } = await stored(t);
    await expectRejection(
      () => b.get('k', { onlyIf: H({ 'If-Match': '"abc' }) }),
      Error,
      'Unclosed double quote for Etag',
    );
    await expectRejection(
      () => b.get('k', { onlyIf: H({ 'If-None-Match': '"a", "b' }) }),
      Error,
      'Unclosed double quote for Etag',
    );
  });

  t.test(
    'a malformed weak etag (W/abc, W"abc") rejects with Error "Weak etags must start with W/ and their value must be quoted"',
    async () => {
      const { b } = await stored(t);
      const message = 'Weak etags must start with W/ and their value must be quoted';
      await expectRejection(() => b.get('k', { onlyIf: H({ 'If-Match': 'W/abc' }) }), Error, message);
      await expectRejection(() => b.get('k', { onlyIf: H({ 'If-None-Match': 'W"abc"' }) }), Error, message);
    },
  );

  t.test('two etags without a comma reject with Error "Comma was expected … double quote character …"', async () => {
    const { b } = await stored(t);
    await expectRejection(
      () => b.get('k', { onlyIf: H({ 'If-Match': '"a" "b"' }) }),
      Error,
      "Comma was expected to separate etags. Encountered a double quote character '\"' instead. This would otherwise indicate the start of a new strong etag.",
    );
  });

  t.test(
    'an etag followed by * without a comma rejects with Error "Comma was expected … wildcard character …"',
    async () => {
      const { b } = await stored(t);
      await expectRejection(
        () => b.get('k', { onlyIf: H({ 'If-Match': '"a" *' }) }),
        Error,
        "Comma was expected to separate etags. Encountered a wildcard character '*' instead.",
      );
    },
  );

  t.test(
    'an etag followed by a weak etag (or any W) without a comma rejects with Error "Comma was expected … weak quotation character …"',
    async () => {
      const { b } = await stored(t);
      const message =
        "Comma was expected to separate etags. Encountered a weak quotation character 'W' instead. This would otherwise indicate the start of a new weak etag.";
      await expectRejection(() => b.get('k', { onlyIf: H({ 'If-Match': '"a" W/"b"' }) }), Error, message);
      await expectRejection(() => b.get('k', { onlyIf: H({ 'If-None-Match': '"a" Wx' }) }), Error, message);
    },
  );

  t.test('etag header parse errors are raised on put too (nothing stored) and for a missing key', async () => {
    const { b, obj } = await stored(t);
    await expectRejection(
      () => b.put('k', 'x', { onlyIf: H({ 'If-Match': 'abc' }) }),
      Error,
      'Invalid ETag in if-match header',
    );
    expect((await b.head('k'))?.version).toBe(obj.version);
    await expectRejection(
      () => b.get('missing', { onlyIf: H({ 'If-None-Match': '"abc' }) }),
      Error,
      'Unclosed double quote for Etag',
    );
  });

  t.test(
    'If-Modified-Since / If-Unmodified-Since compare whole seconds: the upload second fails both, neighbours pass',
    async () => {
      const { b, up } = await stored(t);
      await expectGet(b, [
        ['IMS second before', H({ 'If-Modified-Since': new Date(up - 1000).toUTCString() }), 'body'],
        ['IMS upload second', H({ 'If-Modified-Since': new Date(up).toUTCString() }), 'no body'],
        ['IMS second after', H({ 'If-Modified-Since': new Date(up + 1000).toUTCString() }), 'no body'],
        ['IUS second after', H({ 'If-Unmodified-Since': new Date(up + 1000).toUTCString() }), 'body'],
        ['IUS upload second', H({ 'If-Unmodified-Since': new Date(up).toUTCString() }), 'no body'],
        ['IUS second before', H({ 'If-Unmodified-Since': new Date(up - 1000).toUTCString() }), 'no body'],
      ]);
    },
  );

  t.test('the Headers form forces seconds granularity even for ISO dates with milliseconds', async () => {
    const { b, sec } = await stored(t);
    // At ms granularity these would pass unless the upload sat exactly on the boundary.
    await expectGet(b, [
      ['IUS end of upload second', H({ 'If-Unmodified-Since': new Date(sec + 999).toISOString() }), 'no body'],
      ['IMS start of upload second', H({ 'If-Modified-Since': new Date(sec).toISOString() }), 'no body'],
      ['IUS next second (ISO)', H({ 'If-Unmodified-Since': new Date(sec + 1000).toISOString() }), 'body'],
    ]);
  });

  t.test('an unparseable date header counts as 0 ms: If-Modified-Since passes, If-Unmodified-Since fails', async () => {
    const { b } = await stored(t);
    await expectGet(b, [
      ['IMS garbage', H({ 'If-Modified-Since': 'garbage' }), 'body'],
      ['IUS garbage', H({ 'If-Unmodified-Since': 'garbage' }), 'no body'],
    ]);
  });

  t.test('If-Range and unrelated headers are ignored; empty Headers pass', async () => {
    const { b, up } = await stored(t);
    await expectGet(b, [
      ['If-Range etag', H({ 'If-Range': '"other"' }), 'body'],
      ['If-Range date', H({ 'If-Range': new Date(up - 100000).toUTCString() }), 'body'],
      ['unrelated', H({ 'x-foo': 'bar', etag: '"other"' }), 'body'],
      ['empty', new Headers(), 'body'],
    ]);
  });

  t.test(
    'Headers form follows the same precedence: a passing If-Match overrides a failing If-Unmodified-Since',
    async () => {
      const { b, etag, up } = await stored(t);
      await expectGet(b, [
        [
          'If-Match + IUS past',
          H({ 'If-Match': `"${etag}"`, 'If-Unmodified-Since': new Date(up - 5000).toUTCString() }),
          'body',
        ],
        [
          'If-None-Match + IMS future',
          H({ 'If-None-Match': '"other"', 'If-Modified-Since': new Date(up + 5000).toUTCString() }),
          'body',
        ],
        ['If-Match + If-None-Match same', H({ 'If-Match': `"${etag}"`, 'If-None-Match': `"${etag}"` }), 'no body'],
      ]);
    },
  );

  // ---------------------------------------------------------------------------------------------
  // get with a failing condition
  // ---------------------------------------------------------------------------------------------

  t.test("get with a failing condition resolves to a HeadResult without a body: 'body' in o is false", async () => {
    const { b, obj } = await stored(t);
    const o = await b.get('k', { onlyIf: { etagMatches: 'other' } });
    expect(o).not.toBeNull();
    expect('body' in o!).toBe(false);
    expect('bodyUsed' in o!).toBe(false);
    expect('text' in o!).toBe(false);
    expect(o!.constructor.name).toBe('HeadResult');
    expect(o!.key).toBe('k');
    expect(o!.etag).toBe(obj.etag);
    expect(o!.version).toBe(obj.version);
    expect(o!.size).toBe(5);
    expect(o!.uploaded.getTime()).toBe(obj.uploaded.getTime());
  });

  t.test('get with a failing condition carries the stored metadata', async () => {
    const { b } = await stored(t);
    const o = await b.get('k', { onlyIf: { etagDoesNotMatch: '*' } });
    expect(o!.httpMetadata).toEqual({ contentType: 'text/plain' });
    expect(o!.customMetadata).toEqual({ m: '1' });
  });

  t.test(
    'get with a failing condition has range {offset: 0, length: size}, even when a range was asked for',
    async () => {
      const { b } = await stored(t);
      const plain = await b.get('k', { onlyIf: { etagMatches: 'other' } });
      expect(plain!.range).toEqual({ offset: 0, length: 5 });
      const ranged = await b.get('k', { onlyIf: { etagMatches: 'other' }, range: { offset: 1, length: 2 } });
      expect(ranged!.range).toEqual({ offset: 0, length: 5 });
    },
  );

  t.test('get with a passing condition returns a GetResult with the body', async () => {
    const { b, etag } = await stored(t);
    const o = await b.get('k', { onlyIf: { etagMatches: etag } });
    expect(o!.constructor.name).toBe('GetResult');
    expect('body' in o! && (await o.text())).toBe('hello');
  });

  t.test('get on a missing key returns null whatever the condition', async () => {
    const b = await t.bucket();
    const cases: OnlyIf[] = [
      { etagMatches: '*' },
      { etagDoesNotMatch: '*' },
      { etagMatches: 'x' },
      { uploadedAfter: new Date(0) },
      { uploadedBefore: new Date(0) },
      H({ 'If-Match': '*' }),
      H({ 'If-None-Match': '*' }),
      H({ 'If-Modified-Since': new Date().toUTCString() }),
    ];
    for (const onlyIf of cases) expect(await b.get('missing', { onlyIf })).toBeNull();
  });

  // ---------------------------------------------------------------------------------------------
  // put
  // ---------------------------------------------------------------------------------------------

  t.test('put with a failing condition resolves to null and leaves the stored object untouched', async () => {
    const { b, obj } = await stored(t);
    expect(await b.put('k', 'new', { onlyIf: { etagMatches: 'other' } })).toBeNull();
    expect(await b.put('k', 'new', { onlyIf: H({ 'If-None-Match': `"${obj.etag}"` }) })).toBeNull();
    expect(await b.put('k', 'new', { onlyIf: { uploadedAfter: new Date(obj.uploaded.getTime()) } })).toBeNull();
    const now = await b.get('k');
    expect(now!.version).toBe(obj.version);
    expect(await now!.text()).toBe('hello');
    expect(now!.customMetadata).toEqual({ m: '1' });
  });

  t.test('put with a passing condition stores and returns the new object', async () => {
    const { b, obj } = await stored(t);
    const res = await b.put('k', 'new', { onlyIf: { etagMatches: obj.etag } });
    expect(res).not.toBeNull();
    expect(res!.key).toBe('k');
    expect(res!.size).toBe(3);
    expect(res!.version).not.toBe(obj.version);
    expect(await (await b.get('k'))!.text()).toBe('new');
  });

  t.test('put follows the same precedence: a passing etagMatches overrides a failing uploadedBefore', async () => {
    const { b, obj } = await stored(t);
    const res = await b.put('k', 'new', {
      onlyIf: { etagMatches: obj.etag, uploadedBefore: new Date(obj.uploaded.getTime()) },
    });
    expect(res).not.toBeNull();
    expect(await (await b.get('k'))!.text()).toBe('new');
  });

  t.test(
    'put evaluates dates against the stored object strictly: uploadedBefore == uploaded gives null, +1 ms stores',
    async () => {
      const { b, up } = await stored(t);
      expect(await b.put('k', 'x', { onlyIf: { uploadedBefore: new Date(up) } })).toBeNull();
      expect(await b.put('k', 'x', { onlyIf: { uploadedAfter: new Date(up) } })).toBeNull();
      expect(await (await b.get('k'))!.text()).toBe('hello');
      expect(await b.put('k', 'x', { onlyIf: { uploadedBefore: new Date(up + 1) } })).not.toBeNull();
      expect(await (await b.get('k'))!.text()).toBe('x');
    },
  );

  t.test('put with Headers: If-Match with the etag stores, If-Match with another etag gives null', async () => {
    const { b, etag } = await stored(t);
    expect(await b.put('k', 'x', { onlyIf: H({ 'If-Match': '"other"' }) })).toBeNull();
    expect(await (await b.get('k'))!.text()).toBe('hello');
    expect(await b.put('k', 'y', { onlyIf: H({ 'If-Match': `"${etag}"` }) })).not.toBeNull();
    expect(await (await b.get('k'))!.text()).toBe('y');
  });

  t.test(
    'put with Headers: If-Unmodified-Since in a later second stores, in the upload second gives null',
    async () => {
      const { b, up } = await stored(t);
      expect(await b.put('k', 'x', { onlyIf: H({ 'If-Unmodified-Since': new Date(up).toUTCString() }) })).toBeNull();
      expect(
        await b.put('k', 'y', { onlyIf: H({ 'If-Unmodified-Since': new Date(up + 1000).toUTCString() }) }),
      ).not.toBeNull();
      expect(await (await b.get('k'))!.text()).toBe('y');
    },
  );

  // On a missing key, put passes only when neither etagMatches nor uploadedAfter is given.
  const missingKeyPuts: [string, () => OnlyIf, boolean][] = [
    ["{etagDoesNotMatch: '*'}", () => ({ etagDoesNotMatch: '*' }), true],
    ["{etagDoesNotMatch: 'x'}", () => ({ etagDoesNotMatch: 'x' }), true],
    ['{uploadedBefore}', () => ({ uploadedBefore: new Date(Date.now() + 3_600_000) }), true],
    ['{uploadedBefore: epoch}', () => ({ uploadedBefore: new Date(0) }), true],
    ['If-None-Match: *', () => H({ 'If-None-Match': '*' }), true],
    ['If-None-Match: "x"', () => H({ 'If-None-Match': '"x"' }), true],
    ['If-Unmodified-Since', () => H({ 'If-Unmodified-Since': new Date(0).toUTCString() }), true],
    ["{etagMatches: '*'}", () => ({ etagMatches: '*' }), false],
    ["{etagMatches: 'x'}", () => ({ etagMatches: 'x' }), false],
    ['{uploadedAfter}', () => ({ uploadedAfter: new Date(0) }), false],
    ['If-Match: *', () => H({ 'If-Match': '*' }), false],
    ['If-Modified-Since', () => H({ 'If-Modified-Since': new Date(0).toUTCString() }), false],
    ["{etagDoesNotMatch: '*', uploadedAfter}", () => ({ etagDoesNotMatch: '*', uploadedAfter: new Date(0) }), false],
  ];
  for (const [label, onlyIf, stores] of missingKeyPuts) {
    t.test(
      `put on a missing key with ${label} ${stores ? 'stores the object' : 'resolves to null and stores nothing'}`,
      async () => {
        const b = await t.bucket();
        const res = await b.put('new', 'v', { onlyIf: onlyIf() });
        if (stores) {
          expect(res).not.toBeNull();
          expect(res!.key).toBe('new');
          expect(await (await b.get('new'))!.text()).toBe('v');
        } else {
          expect(res).toBeNull();
          expect(await b.head('new')).toBeNull();
        }
      },
    );
  }

  t.test(
    "create-only-if-absent: {etagDoesNotMatch: '*'} stores once, then resolves to null and keeps the first value",
    async () => {
      const b = await t.bucket();
      const first = await b.put('lock', 'first', { onlyIf: { etagDoesNotMatch: '*' } });
      expect(first).not.toBeNull();
      expect(await b.put('lock', 'second', { onlyIf: { etagDoesNotMatch: '*' } })).toBeNull();
      const now = await b.get('lock');
      expect(await now!.text()).toBe('first');
      expect(now!.version).toBe(first!.version);
    },
  );

  t.test('create-only-if-absent with Headers: If-None-Match: * stores once, then resolves to null', async () => {
    const b = await t.bucket();
    expect(await b.put('lock', 'first', { onlyIf: H({ 'If-None-Match': '*' }) })).not.toBeNull();
    expect(await b.put('lock', 'second', { onlyIf: H({ 'If-None-Match': '*' }) })).toBeNull();
    expect(await (await b.get('lock'))!.text()).toBe('first');
  });

  t.test('after a delete, create-only-if-absent stores again', async () => {
    const b = await t.bucket();
    await b.put('lock', 'first');
    expect(await b.put('lock', 'second', { onlyIf: { etagDoesNotMatch: '*' } })).toBeNull();
    await b.delete('lock');
    expect(await b.put('lock', 'third', { onlyIf: { etagDoesNotMatch: '*' } })).not.toBeNull();
    expect(await (await b.get('lock'))!.text()).toBe('third');
  });
});
