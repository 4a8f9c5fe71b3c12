import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';
import type { R2BucketLike, R2HTTPMetadata } from '../../../lib/bucket/types.js';
import { expectRejection } from '../util.js';

// httpMetadata on put, in the object and the Headers form, and writeHttpMetadata
// (docs/sources/r2-binding.md#http-metadata).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the suite calls the binding with arguments its types forbid, as untyped Worker code can
const loose = (b: R2BucketLike): any => b;

const FULL: R2HTTPMetadata = {
  contentType: 'text/plain; charset=utf-8',
  contentLanguage: 'en-GB',
  contentDisposition: 'attachment; filename="a.txt"',
  contentEncoding: 'gzip',
  cacheControl: 'max-age=60',
  cacheExpiry: new Date('2030-05-06T07:08:09.123Z'),
};

/** Headers as a plain sorted list of [name, value], for exact comparison. */
const entries = (h: Headers): [string, string][] => [...h.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export const httpMetadata = defineGroup('http metadata', (t) => {
  t.test('all six fields round-trip through the put result, head, get and list with include', async () => {
    const b = await t.bucket();
    const put = await b.put('k', 'v', { httpMetadata: FULL });
    expect(put!.httpMetadata).toEqual(FULL);
    expect((await b.head('k'))?.httpMetadata).toEqual(FULL);
    expect((await b.get('k'))?.httpMetadata).toEqual(FULL);
    expect((await b.list({ include: ['httpMetadata'] })).objects[0]!.httpMetadata).toEqual(FULL);
  });

  t.test('without httpMetadata the stored http metadata is {}', async () => {
    const b = await t.bucket();
    expect((await b.put('k', 'v'))!.httpMetadata).toEqual({});
    expect((await b.head('k'))?.httpMetadata).toEqual({});
  });

  t.test('httpMetadata: null and undefined count as absent', async () => {
    const b = await t.bucket();
    await loose(b).put('n', 'v', { httpMetadata: null });
    await b.put('u', 'v', { httpMetadata: undefined });
    expect((await b.head('n'))?.httpMetadata).toEqual({});
    expect((await b.head('u'))?.httpMetadata).toEqual({});
  });

  t.test('unknown fields in the object form are ignored: {"content-type": …} stores {}', async () => {
    const b = await t.bucket();
    const put = await loose(b).put('k', 'v', {
      httpMetadata: { 'content-type': 'text/html', etag: 'x', contentLength: 5 },
    });
    expect(put.httpMetadata).toEqual({});
    expect((await b.head('k'))?.httpMetadata).toEqual({});
  });

  t.test('non-string field values are converted to strings', async () => {
    const b = await t.bucket();
    await loose(b).put('k', 'v', { httpMetadata: { contentType: 5, cacheControl: true, contentLanguage: null } });
    expect((await b.head('k'))?.httpMetadata).toEqual({
      contentType: '5',
      cacheControl: 'true',
      contentLanguage: 'null',
    });
  });

  t.test('empty-string fields are kept and round-trip', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: { contentType: '', cacheControl: '' } });
    expect((await b.head('k'))?.httpMetadata).toEqual({ contentType: '', cacheControl: '' });
  });

  t.test('cacheExpiry keeps its milliseconds and comes back as a Date', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: { cacheExpiry: new Date(1_700_000_000_123) } });
    const expiry = (await b.head('k'))?.httpMetadata?.cacheExpiry;
    expect(expiry).toBeInstanceOf(Date);
    expect(expiry!.getTime()).toBe(1_700_000_000_123);
  });

  t.test('cacheExpiry given as a number of milliseconds is accepted and stored as that Date', async () => {
    const b = await t.bucket();
    await loose(b).put('k', 'v', { httpMetadata: { cacheExpiry: 1_700_000_000_456 } });
    const expiry = (await b.head('k'))?.httpMetadata?.cacheExpiry;
    expect(expiry).toBeInstanceOf(Date);
    expect(expiry!.getTime()).toBe(1_700_000_000_456);
  });

  t.test("cacheExpiry given as a string rejects with TypeError (not of type 'date') and stores nothing", async () => {
    const b = await t.bucket();
    await expectRejection(
      () => loose(b).put('k', 'v', { httpMetadata: { cacheExpiry: '2030-01-01T00:00:00Z' } }),
      TypeError,
      "Incorrect type for the 'cacheExpiry' field on 'HttpMetadata': the provided value is not of type 'date'.",
    );
    expect(await b.head('k')).toBeNull();
  });

  t.test('cacheExpiry given as an Invalid Date rejects with TypeError "not a valid Date"', async () => {
    const b = await t.bucket();
    await expectRejection(
      () => b.put('k', 'v', { httpMetadata: { cacheExpiry: new Date(NaN) } }),
      TypeError,
      'The value cannot be converted because it is not a valid Date.',
    );
    expect(await b.head('k')).toBeNull();
  });

  // workerd sends cacheExpiry as unsigned 64-bit ms whose default, all ones, means "none"
  // (r2-api.capnp: `cacheExpiry @5 :UInt64 = 0xffffffffffffffff`); its JSON encoder leaves a default
  // out, so -1 ms (after truncation toward zero) is stored as no cacheExpiry, while the put result,
  // which workerd builds from what it was given, still shows it. Measured on workerd 1.20261117.1;
  // client side, so production behaviour. (Other dates before 1970 are left out: the simulator fails
  // on them with "internal error", docs/bucket.md, the differential fuzzer.)
  t.test(
    'cacheExpiry of -1 ms (a Date, a number, -1.5, or Expires 1969-12-31T23:59:59.999Z) is stored as none; the put result shows it',
    async () => {
      const b = await t.bucket();
      const given: [string, R2HTTPMetadata | Headers][] = [
        ['Date(-1)', { cacheExpiry: new Date(-1) }],
        ['-1', { cacheExpiry: -1 as unknown as Date }],
        ['-1.5', { cacheExpiry: -1.5 as unknown as Date }],
        ['Expires', new Headers({ Expires: '1969-12-31T23:59:59.999Z' })],
      ];
      for (const [label, httpMetadata] of given) {
        const put = await b.put(label, 'v', { httpMetadata });
        expect([label, put!.httpMetadata]).toEqual([label, { cacheExpiry: new Date(-1) }]);
        expect([label, (await b.head(label))!.httpMetadata]).toEqual([label, {}]);
        const got = await b.get(label);
        expect([label, got!.httpMetadata]).toEqual([label, {}]);
        await got!.text();
      }
      const listed = await b.list({ include: ['httpMetadata'] });
      expect(listed.objects.map((o) => o.httpMetadata)).toEqual(given.map(() => ({})));
      // Only the date is left out: the other fields are stored.
      await b.put('both', 'v', { httpMetadata: { contentType: 'a/b', cacheExpiry: new Date(-1) } });
      expect((await b.head('both'))!.httpMetadata).toEqual({ contentType: 'a/b' });
      // -0.5 ms is truncated to the epoch itself, which is kept.
      const epoch = await b.put('epoch', 'v', { httpMetadata: { cacheExpiry: -0.5 as unknown as Date } });
      expect(epoch!.httpMetadata).toEqual({ cacheExpiry: new Date(0) });
    },
  );

  t.test('the Headers form maps the six headers to the six fields', async () => {
    const b = await t.bucket();
    const headers = new Headers({
      'Content-Type': 'text/html',
      'Content-Language': 'fr',
      'Content-Disposition': 'inline',
      'Content-Encoding': 'br',
      'Cache-Control': 'no-store',
      Expires: 'Wed, 21 Oct 2015 07:28:00 GMT',
    });
    const expected = {
      contentType: 'text/html',
      contentLanguage: 'fr',
      contentDisposition: 'inline',
      contentEncoding: 'br',
      cacheControl: 'no-store',
      cacheExpiry: new Date('2015-10-21T07:28:00.000Z'),
    };
    const put = await b.put('k', 'v', { httpMetadata: headers });
    expect(put!.httpMetadata).toEqual(expected);
    expect((await b.head('k'))?.httpMetadata).toEqual(expected);
  });

  t.test('the Headers form ignores every other header (Content-Length, ETag, Last-Modified, custom)', async () => {
    const b = await t.bucket();
    const headers = new Headers({
      'Content-Length': '1',
      ETag: '"abc"',
      'Last-Modified': 'Wed, 21 Oct 2015 07:28:00 GMT',
      'X-Custom': 'yes',
      'Content-Type': 'text/plain',
    });
    await b.put('k', 'v', { httpMetadata: headers });
    expect((await b.head('k'))?.httpMetadata).toEqual({ contentType: 'text/plain' });
  });

  t.test('empty Headers give {}', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: new Headers() });
    expect((await b.head('k'))?.httpMetadata).toEqual({});
  });

  t.test('request.headers can be passed as httpMetadata', async () => {
    const b = await t.bucket();
    const req = new Request('https://example.com/', {
      headers: { 'content-type': 'application/json', 'x-other': '1' },
    });
    await b.put('k', 'v', { httpMetadata: req.headers });
    expect((await b.head('k'))?.httpMetadata).toEqual({ contentType: 'application/json' });
  });

  t.test('an unparseable Expires header becomes epoch 0', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: new Headers({ Expires: 'garbage' }) });
    expect((await b.head('k'))?.httpMetadata?.cacheExpiry?.toISOString()).toBe('1970-01-01T00:00:00.000Z');
  });

  t.test('Expires "0" is parsed as a JavaScript date: 2000-01-01', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: new Headers({ Expires: '0' }) });
    expect((await b.head('k'))?.httpMetadata?.cacheExpiry?.toISOString()).toBe('2000-01-01T00:00:00.000Z');
  });

  t.test('an ISO Expires header is accepted', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: new Headers({ Expires: '2031-02-03T04:05:06.789Z' }) });
    expect((await b.head('k'))?.httpMetadata?.cacheExpiry?.toISOString()).toBe('2031-02-03T04:05:06.789Z');
  });

  t.test('overwriting replaces http metadata entirely (no merging)', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: { contentType: 'a/b', cacheControl: 'x' } });
    await b.put('k', 'v', { httpMetadata: { contentLanguage: 'de' } });
    expect((await b.head('k'))?.httpMetadata).toEqual({ contentLanguage: 'de' });
  });

  t.test(
    'writeHttpMetadata sets all six headers, with expires in toUTCString format, and returns undefined',
    async () => {
      const b = await t.bucket();
      await b.put('k', 'v', { httpMetadata: FULL });
      const h = (await b.head('k'))!;
      const headers = new Headers();
      expect(h.writeHttpMetadata(headers)).toBeUndefined();
      expect(entries(headers)).toEqual([
        ['cache-control', 'max-age=60'],
        ['content-disposition', 'attachment; filename="a.txt"'],
        ['content-encoding', 'gzip'],
        ['content-language', 'en-GB'],
        ['content-type', 'text/plain; charset=utf-8'],
        ['expires', FULL.cacheExpiry!.toUTCString()],
      ]);
      // toUTCString has no milliseconds
      expect(headers.get('expires')).toBe('Mon, 06 May 2030 07:08:09 GMT');
    },
  );

  t.test(
    'writeHttpMetadata overwrites an existing content-type and keeps unrelated headers',
    async () => {
      const b = await t.bucket();
      await b.put('k', 'v', { httpMetadata: { contentType: 'image/png' } });
      const headers = new Headers({ 'Content-Type': 'text/plain', 'X-Keep': 'me', 'Cache-Control': 'keep' });
      (await b.head('k'))!.writeHttpMetadata(headers);
      expect(entries(headers)).toEqual([
        ['cache-control', 'keep'],
        ['content-type', 'image/png'],
        ['x-keep', 'me'],
      ]);
    },
    { difference: 'happy-dom-headers-case' },
  );

  t.test('writeHttpMetadata writes empty-string fields as empty headers', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: { contentType: '' } });
    const headers = new Headers();
    (await b.head('k'))!.writeHttpMetadata(headers);
    expect(headers.has('content-type')).toBe(true);
    expect(headers.get('content-type')).toBe('');
  });

  t.test(
    'writeHttpMetadata writes nothing for an object without http metadata',
    async () => {
      const b = await t.bucket();
      await b.put('k', 'v');
      const headers = new Headers({ 'X-Existing': '1' });
      (await b.head('k'))!.writeHttpMetadata(headers);
      expect(entries(headers)).toEqual([['x-existing', '1']]);
    },
    { difference: 'happy-dom-headers-case' },
  );

  t.test('writeHttpMetadata works on put results, get results and list entries with include', async () => {
    const b = await t.bucket();
    const put = (await b.put('k', 'v', { httpMetadata: { contentType: 'a/b' } }))!;
    const got = (await b.get('k'))!;
    const listed = (await b.list({ include: ['httpMetadata'] })).objects[0]!;
    for (const o of [put, got, listed]) {
      const headers = new Headers();
      o.writeHttpMetadata(headers);
      expect(entries(headers)).toEqual([['content-type', 'a/b']]);
    }
  });

  t.test('a contentType containing a newline is stored as given', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: { contentType: 'text/plain\nX-Injected: y' } });
    expect((await b.head('k'))?.httpMetadata?.contentType).toBe('text/plain\nX-Injected: y');
  });

  // workerd ≥ 1.20260602 validates header values here (docs/sources/r2-binding.md#http-metadata);
  // the runtime this repo tests with does, so this follows it.
  t.test(
    'writeHttpMetadata throws TypeError "Invalid header value." for a value containing CR, LF or NUL',
    async () => {
      const b = await t.bucket();
      for (const bad of ['text/plain\nX-Injected: y', 'text/plain\rx', 'text/plain\0x']) {
        await b.put('k', 'v', { httpMetadata: { contentType: bad } });
        const h = (await b.head('k'))!;
        const headers = new Headers();
        let thrown: unknown;
        try {
          h.writeHttpMetadata(headers);
        } catch (e) {
          thrown = e;
        }
        expect(thrown).toBeInstanceOf(TypeError);
        expect((thrown as Error).message).toBe('Invalid header value.');
        expect(headers.has('content-type')).toBe(false);
      }
    },
  );

  t.test('writeHttpMetadata validates every field: a newline in cacheControl also throws the TypeError', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: { cacheControl: 'no-cache\nX: y' } });
    const h = (await b.head('k'))!;
    expect(() => h.writeHttpMetadata(new Headers())).toThrow(new TypeError('Invalid header value.'));
  });
});
