/**
 * A presigned GET's `response-*` parameters become response headers: a value no header can carry
 * is S3's 400 InvalidArgument (header-values.ts), never a 500 from the Headers constructor.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINT, errorOf, setup } from './support.js';
import { rawSigned } from './raw.js';

const PARAMS = [
  ['response-content-type', 'content-type'],
  ['response-content-language', 'content-language'],
  ['response-expires', 'expires'],
  ['response-cache-control', 'cache-control'],
  ['response-content-disposition', 'content-disposition'],
  ['response-content-encoding', 'content-encoding'],
] as const;

async function presignedGet(api: ReturnType<typeof setup>['api'], query: Record<string, string>) {
  const { target } = await rawSigned({ path: '/photos/k', query, presign: true });
  return api.fetch(`${ENDPOINT}${target}`);
}

describe('response-* overrides', () => {
  it('NUL, CR, LF or a character above U+00FF: 400 InvalidArgument naming the argument; Latin-1 is served as given', async () => {
    const { api, photos } = setup();
    await photos.put('k', 'v');
    for (const [param, value] of [
      ['response-content-disposition', 'a\u0000b'],
      ['response-cache-control', '😀'],
      ['response-content-type', 'text/plain\r\nx-injected: 1'],
      ['response-expires', '\u2019'],
    ] as const) {
      const e = await errorOf(await presignedGet(api, { [param]: value }));
      expect([param, e.status, e.code, e.message, e.error?.ArgumentName]).toEqual([
        param,
        400,
        'InvalidArgument',
        'Header value cannot be represented using ISO-8859-1.',
        param,
      ]);
    }
    const ok = await presignedGet(api, {
      'response-cache-control': 'é',
      'response-content-disposition': 'attachment; filename="ÿ.txt"',
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('é');
    expect(ok.headers.get('content-disposition')).toBe('attachment; filename="ÿ.txt"');
  });

  it('an unrepresentable value is refused before the object is looked up', async () => {
    const { api } = setup();
    expect((await errorOf(await presignedGet(api, { 'response-cache-control': '😀' }))).code).toBe('InvalidArgument');
  });

  it('property: for random code points in every response-* parameter, the answer is the header or a 400, never a 500', async () => {
    const { api, photos } = setup();
    await photos.put('k', 'v');
    // A seeded xorshift: the failing value is printed, and the run is the same every time.
    let x = 0x9e3779b9;
    const next = () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) / 4294967296;
    };
    const codePoint = () => {
      const r = next();
      // Mostly near the edges that matter: controls, Latin-1, just past it, surrogates' neighbours, astral.
      if (r < 0.3) return Math.floor(next() * 0x20);
      if (r < 0.6) return 0x20 + Math.floor(next() * 0xe0);
      if (r < 0.8) return 0x100 + Math.floor(next() * 0xd700);
      return 0xe000 + Math.floor(next() * (0x110000 - 0xe000));
    };
    for (let i = 0; i < 200; i++) {
      const [param, header] = PARAMS[i % PARAMS.length]!;
      const value = Array.from({ length: 1 + Math.floor(next() * 4) }, () => String.fromCodePoint(codePoint())).join(
        '',
      );
      const res = await presignedGet(api, { [param]: value });
      const carriable = /^[^\0\r\n\u0100-\u{10FFFF}]*$/u.test(value);
      if (carriable) {
        // Headers trim leading and trailing whitespace (HTTP's, tab and space); otherwise the value as given.
        expect([param, value, res.status, res.headers.get(header)]).toEqual([
          param,
          value,
          200,
          value.replace(/^[\t ]+|[\t ]+$/g, ''),
        ]);
      } else {
        const e = await errorOf(res);
        expect([param, value, e.status, e.code]).toEqual([param, value, 400, 'InvalidArgument']);
      }
    }
  });
});
