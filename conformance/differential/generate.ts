/**
 * Seeded random operation sequences for the differential fuzzer.
 *
 * An operation is plain data (a `Spec` tree), so it prints, and it is built into real arguments
 * separately on each implementation (run.ts): streams and Blobs are single-use, and anything that
 * depends on an implementation's own state (an object's etag or `uploaded`, an upload handle, a part
 * etag, a cursor) is a symbolic reference resolved on that implementation. Generation depends on
 * the seed only, never on outcomes, so a seed is the same sequence everywhere.
 */
import { md5 } from '@noble/hashes/legacy.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';

// ---- the PRNG --------------------------------------------------------------------------------------

/** sfc32: small, fast, and the same on every JS engine. */
class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /**
   * `badness` scales how often a parameter gets a bad value (a wrong type, out of range, malformed):
   * 1 in the default and multipart mixes, more in the bad-input mix (see `MIXES`).
   */
  constructor(
    seed: number,
    readonly badness = 1,
  ) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A bad value for a parameter, with probability `p` scaled by the mix's badness. */
  bad(p: number): boolean {
    return this.next() < Math.min(0.9, p * this.badness);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** One of several generators, by weight. */
  weighted<T>(table: readonly (readonly [number, () => T])[]): T {
    let total = 0;
    for (const [w] of table) total += w;
    let r = this.next() * total;
    for (const [w, f] of table) {
      if ((r -= w) < 0) return f();
    }
    return table[table.length - 1]![1]();
  }

  string(alphabet: string, max: number): string {
    const n = this.int(max + 1);
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }

  hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i++) s += this.int(256).toString(16).padStart(2, '0');
    return s;
  }
}

// ---- specs -----------------------------------------------------------------------------------------

/**
 * An argument, as data. Plain JSON values stand for themselves (objects keep their field order);
 * an object with a `$$` field is a special value built by run.ts (see `Special`).
 */
export type Spec = null | boolean | number | string | Spec[] | { [field: string]: Spec } | Special;

export type Special =
  | { $$: 'undefined' }
  | { $$: 'symbol' }
  | { $$: 'bigint'; v: string }
  | { $$: 'number'; v: 'NaN' | 'Infinity' | '-Infinity' | '-0' }
  | { $$: 'function' }
  | { $$: 'map'; entries: [string, string][] }
  | { $$: 'tostring'; v: string }
  /** Bytes as a buffer kind; `pad` bytes before and after make typed arrays real windows. */
  | { $$: 'buffer'; kind: BufferKind; hex: string; pad: number }
  /** `n` bytes of a repeating pattern (big parts), as a Uint8Array. */
  | { $$: 'sized'; n: number; fill: number }
  | { $$: 'blob'; hex: string; type: string }
  | { $$: 'stream'; kind: StreamKind; hex: string }
  /** The body of a get of `key` on the same implementation (null when missing). */
  | { $$: 'bodyOf'; key: string; range?: { offset: number; length: number } }
  | { $$: 'headers'; entries: [string, Spec][] }
  | { $$: 'date'; ms: number | 'invalid' }
  /** A time relative to `key`'s `uploaded` on this implementation (truncated to seconds if `seconds`). */
  | { $$: 'uploaded'; key: string; delta: number; seconds: boolean; form: 'date' | 'number' | 'http' | 'iso' }
  /**
   * `key`'s size on this implementation plus `delta` (at least 0; `delta` alone when the key is
   * missing), or `template` with `{s}` replaced by that number: ranges at, before and past the end.
   */
  | { $$: 'size'; key: string; delta: number; template?: string }
  /** A string template where `{e}` is `key`'s etag on this implementation. */
  | { $$: 'etag'; key: string; template: string }
  /** The {partNumber, etag} an uploadPart op returned on this implementation, optionally altered. */
  | { $$: 'part'; op: number; partNumber?: Spec; etag?: Spec; template?: string }
  /** The etag of the uploadPart op's result. */
  | { $$: 'partEtag'; op: number }
  | { $$: 'cursor'; op: number }
  | { $$: 'uploadId'; op: number };

type BufferKind = 'ArrayBuffer' | 'Uint8Array' | 'Int16Array' | 'Float64Array' | 'DataView' | 'Uint8ClampedArray';
type StreamKind = 'response' | 'request' | 'blob' | 'fixed' | 'plain' | 'bytes';

/** How a get result's body is read (the same way on both implementations). */
export type Read = 'none' | 'text' | 'arrayBuffer' | 'bytes' | 'blob' | 'json' | 'stream' | 'twice';

export interface Op {
  /** 'bucket', or the op index of the createMultipartUpload / resumeMultipartUpload that gave the handle. */
  target: 'bucket' | number;
  method: string;
  args: Spec[];
  read?: Read;
}

const U: Spec = { $$: 'undefined' };

// ---- pools -----------------------------------------------------------------------------------------

const KEYS = [
  '',
  'a',
  'b',
  'ab',
  'a/',
  'a/b',
  'a/b/c',
  'a/c',
  'a//d',
  '/x',
  'b/',
  'b/x',
  'dir/é',
  'é',
  'e\u0301',
  '\uFFFF',
  '😀',
  '\uFFFFz',
  '😀/a',
  'k\u0000',
  'a\uD800',
  '\uDC00b',
  ' ',
  'A',
  'a.b',
  '123',
  'null',
];
// Around the 1,024-byte limit, counted in UTF-8 (a lone surrogate is sent as three bytes).
const LONG_KEYS = [
  'x'.repeat(1024),
  'x'.repeat(1025),
  'é'.repeat(512),
  'é'.repeat(513),
  '😀'.repeat(256),
  '😀'.repeat(256) + 'a',
  'a\uD800'.repeat(341) + 'a',
  'a\uD800'.repeat(256),
  '\uDC00'.repeat(341) + 'x',
  '\uDC00'.repeat(342),
  'x'.repeat(4096),
];
const PREFIXES = ['', 'a', 'a/', 'a/b', 'b', 'é', '\uFFFF', '😀', 'x', 'a//', 'dir/', 'k'];
const DELIMITERS = ['/', '', 'b', '/b', '//', 'é', '😀', 'x'];

const TEXTS = [
  '',
  'hello',
  'héllo🙂',
  'a\uD800b',
  '\uDC00',
  '{"a":1}',
  '[1,2',
  'null',
  '"s"',
  '\u0000\u0001',
  ' 42 ',
  '\uFEFF{}',
];

function key(r: Rng): string {
  return r.bad(0.04) ? r.pick(LONG_KEYS) : r.pick(KEYS);
}

/** A key parameter: usually a key, else a value of the wrong type (converted or refused). */
function keyArg(r: Rng, k: string): Spec {
  if (!r.bad(0.05)) return k;
  return r.pick<Spec>([
    123,
    -0.5,
    null,
    U,
    { $$: 'symbol' },
    { $$: 'tostring', v: r.pick(KEYS) },
    { $$: 'tostring', v: 'x'.repeat(1025) },
    ['a', 'b'],
    [],
    {},
    { a: 1 },
    true,
    { $$: 'bigint', v: '7' },
    { $$: 'function' },
    { $$: 'date', ms: 0 },
    { $$: 'number', v: 'NaN' },
    { $$: 'map', entries: [] },
    { $$: 'buffer', kind: 'Uint8Array', hex: '61', pad: 0 },
  ]);
}

/** Values of every wrong type, for parameters that want an object, a string or a number. */
const WRONG: readonly Spec[] = [
  5,
  0,
  -1,
  1.5,
  true,
  false,
  'x',
  '',
  null,
  { $$: 'symbol' },
  { $$: 'bigint', v: '1' },
  { $$: 'function' },
  [],
  ['a'],
  { $$: 'map', entries: [['a', '1']] },
  { $$: 'date', ms: 0 },
  { $$: 'number', v: 'NaN' },
  { $$: 'tostring', v: 'a' },
];

/** UTF-8 of a string without lone surrogates (the only strings we compute hashes for). */
const utf8 = (s: string) => new TextEncoder().encode(s);
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
const hasLoneSurrogate = (s: string) => /[\uD800-\uDFFF]/.test(s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''));

// ---- values ----------------------------------------------------------------------------------------

interface Value {
  spec: Spec;
  /** The bytes it stores, when known here (hashes are computed only then). */
  bytes?: Uint8Array;
}

const BUFFER_KINDS: readonly BufferKind[] = [
  'ArrayBuffer',
  'Uint8Array',
  'Int16Array',
  'Float64Array',
  'DataView',
  'Uint8ClampedArray',
];
const ELEMENT: Record<BufferKind, number> = {
  ArrayBuffer: 1,
  Uint8Array: 1,
  Int16Array: 2,
  Float64Array: 8,
  DataView: 1,
  Uint8ClampedArray: 1,
};

function randomBytes(r: Rng, max: number): Uint8Array {
  const n = r.int(max + 1);
  return fromHex(r.hex(n));
}

function bufferValue(r: Rng, bytes: Uint8Array): Value {
  const kind = r.pick(BUFFER_KINDS);
  const el = ELEMENT[kind];
  const len = bytes.length - (bytes.length % el);
  const b = bytes.slice(0, len);
  return {
    spec: { $$: 'buffer', kind, hex: toHex(b), pad: kind === 'ArrayBuffer' ? 0 : r.pick([0, 0, el, 2 * el]) },
    bytes: b,
  };
}

function putValue(r: Rng): Value {
  return r.weighted<Value>([
    [
      8,
      () => {
        const s = r.chance(0.5) ? r.pick(TEXTS) : r.string('abcxyz /é😀', 24);
        return hasLoneSurrogate(s) ? { spec: s } : { spec: s, bytes: utf8(s) };
      },
    ],
    [4, () => bufferValue(r, randomBytes(r, 40))],
    [
      2,
      () => {
        const b = randomBytes(r, 30);
        return { spec: { $$: 'blob', hex: toHex(b), type: r.pick(['', 'text/plain', 'application/json']) }, bytes: b };
      },
    ],
    [
      3,
      () => {
        const b = randomBytes(r, 30);
        return {
          spec: {
            $$: 'stream',
            kind: r.pick(['response', 'response', 'request', 'blob', 'fixed'] as const),
            hex: toHex(b),
          },
          bytes: b,
        };
      },
    ],
    // Not a FixedLengthStream that closes early: when JS code (the double) reads one, workerd itself
    // reports an unhandled rejection from inside the stream, which fails the run whatever the double does.
    [1, () => ({ spec: { $$: 'stream', kind: r.pick(['plain', 'bytes'] as const), hex: r.hex(3) } })],
    [
      2,
      () => ({
        spec: {
          $$: 'bodyOf',
          key: key(r),
          ...(r.chance(0.3) ? { range: { offset: r.int(3), length: 1 + r.int(4) } } : {}),
        },
      }),
    ],
    [2, () => ({ spec: null, bytes: new Uint8Array(0) })],
    [1, () => ({ spec: U, bytes: new Uint8Array(0) })],
    // Wrong types: refused today; at 2022 dates workerd converts some of them to strings.
    [r.badness, () => ({ spec: r.pick<Spec>(BAD_VALUES) })],
  ]);
}

const BAD_VALUES: readonly Spec[] = [
  5,
  0,
  -1.5,
  true,
  false,
  {},
  { a: 1, b: 'x' },
  [],
  [1, 2],
  ['a', 'b'],
  [[1], { a: 1 }],
  { $$: 'symbol' },
  { $$: 'bigint', v: '9' },
  { $$: 'function' },
  { $$: 'map', entries: [] },
  { $$: 'date', ms: 0 },
  { $$: 'number', v: 'NaN' },
  { $$: 'tostring', v: 'str' },
  { $$: 'headers', entries: [['a', '1']] },
];

// ---- options ---------------------------------------------------------------------------------------

const ODD_NAMES = [
  '',
  'a',
  'A',
  'a b',
  'ü',
  '😀',
  '1',
  '0',
  '10',
  '-1',
  'constructor',
  '__proto__',
  'toString',
  'x-amz-meta',
  'content-type',
  '$$x',
  '\u0000',
];

function customMetadata(r: Rng): Spec {
  return r.weighted<Spec>([
    [
      8,
      () => {
        const o: Record<string, Spec> = {};
        const n = r.int(4);
        for (let i = 0; i < n; i++) {
          o[r.pick(ODD_NAMES)] = r.weighted<Spec>([
            [6, () => r.string('abé😀 ', 8)],
            [1, () => 1.5],
            [1, () => null],
            [1, () => true],
            [1, () => ({})],
            [1, () => U],
            [1, () => ({ $$: 'symbol' })],
          ]);
        }
        return o;
      },
    ],
    [
      2,
      () => {
        // Near the size limit, with characters whose sizes differ between measures.
        const ch = r.pick(['x', 'é', '😀', 'ÿ', 'Ā']);
        const base = r.pick([8189, 8190, 8191, 8192, 4095, 4096, 2730, 2731, 2047, 2048, 1365, 1366, 1023, 1024]);
        const n = Math.max(0, base - r.int(3));
        return { key: ch.repeat(n) };
      },
    ],
    [
      r.badness,
      () =>
        r.pick<Spec>([
          null,
          'a=1',
          ['a'],
          5,
          { $$: 'map', entries: [['a', '1']] },
          ...WRONG,
          { $$: 'headers', entries: [['a', '1']] },
        ]),
    ],
    // Many small entries (the size counts names too), and strings with lone surrogates (sent as U+FFFD).
    [
      r.badness,
      () => {
        const o: Record<string, Spec> = {};
        const n = r.pick([1, 100, 400, 500, 1000]);
        for (let i = 0; i < n; i++) o[`k${i}`] = r.pick(['', 'v', '\uD800', 'ab']);
        return o;
      },
    ],
    [r.badness, () => ({ [r.pick(['\uD800', 'a\uDC00', 'ok'])]: r.pick(['\uDBFF', 'x\uDC00y', 'ok']) })],
  ]);
}

const HTTP_FIELDS = ['contentType', 'contentLanguage', 'contentDisposition', 'contentEncoding', 'cacheControl'];
const HTTP_HEADERS = [
  'Content-Type',
  'Content-Language',
  'Content-Disposition',
  'Content-Encoding',
  'Cache-Control',
  'Expires',
  'X-Other',
  'ETag',
];
// Long values: the custom metadata limit (8,192) does not count HTTP metadata, but R2 stores it too.
const LONG_HTTP_VALUES = ['a'.repeat(2048), 'a'.repeat(8192), 'a'.repeat(8193), 'é'.repeat(4097), 'a'.repeat(65536)];
const HTTP_VALUES = [
  'text/plain',
  'Text/HTML',
  'application/json; charset=utf-8',
  'en',
  'attachment; filename="a b"',
  'gzip',
  'max-age=60',
  '',
  ' x ',
  'é',
  'a\nb',
  'a\rb',
];

/**
 * A date option. `preEpoch`: whether dates before 1970 may appear. Not for cacheExpiry: the binding
 * sends it as an unsigned 64-bit number that the simulator holds in a double, so a value just below 0
 * reads back rounded or fails with "internal error" (a simulator artefact, left out; see docs/bucket.md).
 */
function dateSpec(r: Rng, preEpoch = true): Spec {
  const pre = preEpoch ? [-1000, -5, -2, -2.5, -9_223_372_036_854] : [];
  // -1 ms is the wire's "no date" (coerce.ts `sentDate`), and numbers are truncated toward zero, so
  // -1.5 is -1 and -0.5 is 0: safe for cacheExpiry too. Finite numbers past a Date's range hit the
  // range check, not the invalid-date one.
  const edge = [-1, -1.5, -0.5, -0.9];
  return r.weighted<Spec>([
    [
      4,
      () => ({
        $$: 'date',
        ms: r.pick([
          0,
          1,
          -1,
          1_700_000_000_000,
          4_102_444_800_000,
          8.64e15,
          -8.64e15,
          9_223_372_036_854,
          9_223_372_036_855,
          -9_223_372_036_855,
          ...pre,
        ]),
      }),
    ],
    [1, () => ({ $$: 'date', ms: 'invalid' })],
    [2, () => r.pick<Spec>([0, 1_700_000_000_123, 1.5, ...edge, 8.64e15 + 2, -1e300, ...pre])],
    [
      r.badness,
      () =>
        r.pick<Spec>([
          '2020-01-01',
          '',
          null,
          true,
          { $$: 'number', v: 'NaN' },
          ...WRONG.filter((w) => preEpoch || !(typeof w === 'number' && w < 0)),
        ]),
    ],
  ]);
}

function httpMetadata(r: Rng): Spec {
  return r.weighted<Spec>([
    [
      6,
      () => {
        const o: Record<string, Spec> = {};
        for (const f of HTTP_FIELDS)
          if (r.chance(0.3))
            o[f] = r.bad(0.1)
              ? r.pick<Spec>([5, null, U, { $$: 'symbol' }, ...WRONG, ...LONG_HTTP_VALUES])
              : r.pick(HTTP_VALUES);
        if (r.chance(0.3)) o.cacheExpiry = dateSpec(r, false);
        if (r.chance(0.1)) o.bogus = 'x';
        return o;
      },
    ],
    [
      3,
      () => ({
        $$: 'headers',
        entries: Array.from({ length: 1 + r.int(3) }, (): [string, Spec] => {
          const h = r.pick(HTTP_HEADERS);
          return [
            h,
            h === 'Expires'
              ? r.pick([
                  'Wed, 21 Oct 2015 07:28:00 GMT',
                  'garbage',
                  '2020-01-01T00:00:00.123Z',
                  '0',
                  '1e3',
                  '1969-12-31T23:59:59.999Z',
                ])
              : r.pick(HTTP_VALUES.filter((v) => !/[\r\n]/.test(v))),
          ];
        }),
      }),
    ],
    [r.badness, () => r.pick<Spec>(['text/plain', 5, null, U, [], ...WRONG])],
  ]);
}

const ALGS = [
  ['md5', md5, 16],
  ['sha1', sha1, 20],
  ['sha256', sha256, 32],
  ['sha384', sha384, 48],
  ['sha512', sha512, 64],
] as const;

function hashFields(r: Rng, bytes: Uint8Array | undefined, o: Record<string, Spec>): void {
  const n = r.weighted([
    [6, () => 1],
    [1, () => 2],
    [r.badness, () => 2 + r.int(4)], // several at once (one is allowed)
  ]);
  for (let i = 0; i < n; i++) {
    const [name, fn, len] = r.pick(ALGS);
    const right = bytes ? fn(bytes) : fromHex(r.hex(len));
    o[name] = r.weighted<Spec>([
      [4, () => toHex(right)],
      [1, () => toHex(right).toUpperCase()],
      [
        2,
        () => ({
          $$: 'buffer',
          kind: r.pick(['ArrayBuffer', 'Uint8Array', 'DataView'] as const),
          hex: toHex(right),
          pad: r.pick([0, 1]),
        }),
      ],
      [2, () => r.hex(len)],
      [1, () => r.hex(len - 1)],
      [1, () => r.hex(len) + 'ab'],
      [1, () => 'z'.repeat(len * 2)],
      [1, () => ''],
      [
        r.badness,
        () =>
          r.pick<Spec>([
            5,
            null,
            {},
            U,
            { $$: 'buffer', kind: 'Uint8Array', hex: r.hex(len + 1), pad: 0 },
            { $$: 'buffer', kind: 'ArrayBuffer', hex: r.hex(len - 1), pad: 0 },
            { $$: 'buffer', kind: 'Int16Array', hex: r.hex(len), pad: 0 },
            { $$: 'blob', hex: r.hex(len), type: '' },
            ...WRONG,
          ]),
      ],
    ]);
  }
}

function etagHeaderTemplate(r: Rng): string {
  return r.pick([
    '"{e}"',
    '{e}',
    'W/"{e}"',
    '*',
    '"x", "{e}"',
    '"{e}", garbage',
    'garbage, "{e}"',
    '"{e}" "x"',
    '"{e}',
    'W/{e}',
    '',
    ',',
    ' "{e}" , W/"x" ',
    '"x", *',
    '"{e}"*',
    '"{e}" W/"x"',
    'w/"{e}"',
    '"{E}"',
    '"x"',
  ]);
}

/**
 * An `onlyIf`. Times are relative to the `uploaded` of the object the op targets (`k`) on each
 * implementation, never to another object's: two objects' times compare differently on two clocks.
 * With seconds granularity the base is truncated to its second first, so any delta decides the same
 * way on both; with milliseconds the deltas are exact.
 */
function conditional(r: Rng, k: string): Spec {
  const rel = (seconds: boolean): Spec => ({
    $$: 'uploaded',
    key: k,
    delta: seconds ? r.pick([-2000, -1000, 0, 500, 999, 1000, 2000]) : r.pick([-1000, -1, 0, 1, 1000]),
    seconds,
    form: seconds ? r.pick(['date', 'number', 'iso'] as const) : r.pick(['date', 'number'] as const),
  });
  return r.weighted<Spec>([
    [
      7,
      () => {
        const o: Record<string, Spec> = {};
        const granularity = r.chance(0.3) ? r.pick<Spec>([true, false, 1, 'yes', null, 0]) : undefined;
        const seconds = Boolean(granularity);
        if (r.chance(0.4))
          o.etagMatches = !r.bad(0.15)
            ? {
                $$: 'etag',
                key: r.chance(0.85) ? k : key(r),
                template: r.pick(['{e}', '{e}', '*', '"{e}"', 'W/"{e}"', 'x', '"{e}', '{E}', '']),
              }
            : r.pick<Spec>([5, ['x'], null, ...WRONG]);
        if (r.chance(0.4))
          o.etagDoesNotMatch = !r.bad(0.15)
            ? {
                $$: 'etag',
                key: r.chance(0.85) ? k : key(r),
                template: r.pick(['{e}', '{e}', '*', '"{e}"', 'x', '{e}"']),
              }
            : r.pick<Spec>([5, U, ...WRONG]);
        if (r.chance(0.35)) o.uploadedBefore = !r.bad(0.2) ? rel(seconds) : dateSpec(r);
        if (r.chance(0.35)) o.uploadedAfter = !r.bad(0.2) ? rel(seconds) : dateSpec(r);
        if (r.bad(0.03)) o.bogus = 1;
        if (granularity !== undefined) o.secondsGranularity = granularity;
        return o;
      },
    ],
    [
      4,
      () => {
        const entries: [string, Spec][] = [];
        const target = r.chance(0.85) ? k : key(r);
        if (r.chance(0.5)) entries.push(['If-Match', { $$: 'etag', key: target, template: etagHeaderTemplate(r) }]);
        if (r.chance(0.5))
          entries.push(['If-None-Match', { $$: 'etag', key: target, template: etagHeaderTemplate(r) }]);
        const httpRel = (): Spec =>
          r.chance(0.85)
            ? {
                $$: 'uploaded',
                key: k,
                delta: r.pick([-2000, -1000, 0, 999, 1000, 2000]),
                seconds: true,
                form: r.pick(['http', 'http', 'iso'] as const),
              }
            : r.pick([
                'garbage',
                '',
                'Thu, 01 Jan 1970 00:00:00 GMT',
                'Fri, 01 Jan 2100 00:00:00 GMT',
                '1969-12-31T23:59:59.999Z',
                '1969-12-31T23:59:59.998Z',
              ]);
        if (r.chance(0.35)) entries.push(['If-Modified-Since', httpRel()]);
        if (r.chance(0.35)) entries.push(['If-Unmodified-Since', httpRel()]);
        if (r.chance(0.1)) entries.push(['If-Range', '"x"']);
        return { $$: 'headers', entries };
      },
    ],
    [r.badness, () => r.pick<Spec>(['x', 5, true, null, U, ...WRONG])],
  ]);
}

/** Malformed SSE-C keys (workerd refuses them before sending). Valid keys are left out: see docs/bucket.md. */
const SSEC_BAD: readonly Spec[] = [
  'ABCD',
  'zz',
  'ab'.repeat(10),
  'AB'.repeat(32) /* uppercase hex */,
  'ab'.repeat(31) + 'a',
  'ab'.repeat(33),
  'zz'.repeat(32),
  'AB'.repeat(31) + 'Zz',
  '',
  5,
  null,
  true,
  {},
  [],
  { $$: 'buffer', kind: 'Uint8Array', hex: '0102030405', pad: 0 },
  { $$: 'buffer', kind: 'ArrayBuffer', hex: 'ab'.repeat(31), pad: 0 },
  { $$: 'buffer', kind: 'ArrayBuffer', hex: 'ab'.repeat(33), pad: 0 },
  { $$: 'symbol' },
  { $$: 'tostring', v: 'ab' },
];

function putOptions(r: Rng, k: string, bytes: Uint8Array | undefined): Spec {
  if (r.chance(0.25)) return U;
  if (r.bad(0.03))
    return r.pick<Spec>([
      'x',
      5,
      null,
      { $$: 'symbol' },
      ...WRONG,
      { $$: 'headers', entries: [['content-type', 'a/b']] },
    ]);
  const o: Record<string, Spec> = {};
  if (r.chance(0.25)) o.onlyIf = conditional(r, k);
  if (r.chance(0.3)) o.httpMetadata = httpMetadata(r);
  if (r.chance(0.3)) o.customMetadata = customMetadata(r);
  if (r.chance(0.25)) hashFields(r, bytes, o);
  if (r.chance(0.1))
    o.storageClass = r.bad(0.3)
      ? r.pick<Spec>(['', 'standard', 'Glacier', 'Bogus', 5, null, ...WRONG])
      : r.pick(['Standard', 'InfrequentAccess']);
  if (r.bad(0.05)) o.ssecKey = r.pick(SSEC_BAD);
  if (r.bad(0.05)) o.bogus = 1;
  return o;
}

/**
 * A `range` for a get of `k`. Besides small numbers (0–11, most objects here are short), windows
 * placed against the object's own size (`{$$: 'size'}`, resolved on each implementation): at the end,
 * one before, one past, with lengths that reach past the end (Infinity included), and Range headers
 * built the same way; empty objects (and zero-part multipart ones) make "at the end" offset 0.
 */
function rangeSpec(r: Rng, k: string): Spec {
  const size = (delta: number, template?: string): Spec => ({
    $$: 'size',
    key: k,
    delta,
    ...(template ? { template } : {}),
  });
  const past = (): Spec => r.pick<Spec>([1, 2, 6, { $$: 'number', v: 'Infinity' }, size(0), size(1), 2 ** 53]);
  const n = (): Spec =>
    r.weighted<Spec>([
      [8, () => r.int(12)],
      [
        r.badness,
        () =>
          r.pick<Spec>([
            -1,
            1.5,
            '3',
            { $$: 'number', v: 'NaN' },
            { $$: 'number', v: 'Infinity' },
            { $$: 'number', v: '-0' },
            null,
            U,
            2 ** 40,
            2 ** 53,
            -(2 ** 31),
            2 ** 32,
            true,
            ...WRONG,
          ]),
      ],
    ]);
  return r.weighted<Spec>([
    [
      3,
      () =>
        r.weighted<Spec>([
          [3, () => ({ offset: size(r.pick([0, 0, -1, 1])), length: past() })],
          [2, () => ({ length: past() })],
          [1, () => ({ offset: size(r.pick([0, -1, 1])) })],
          [1, () => ({ offset: r.pick<Spec>([0, size(-1), size(0)]), length: { $$: 'number', v: 'Infinity' } })],
          [1, () => ({ suffix: r.pick<Spec>([size(0), size(1), { $$: 'number', v: 'Infinity' }, 1]) })],
          [
            1,
            () => ({
              $$: 'headers',
              entries: [
                [
                  'Range',
                  size(
                    r.pick([-1, 0, 1]),
                    r.pick(['bytes={s}-', 'bytes={s}-{s}', 'bytes=0-{s}', 'bytes=-{s}', 'bytes={s}-99']),
                  ),
                ],
              ],
            }),
          ],
        ]),
    ],
    [
      6,
      () => {
        const o: Record<string, Spec> = {};
        if (r.chance(0.6)) o.offset = n();
        if (r.chance(0.6)) o.length = n();
        if (r.chance(0.3)) o.suffix = n();
        return o;
      },
    ],
    [
      3,
      () => ({
        $$: 'headers',
        entries: [
          [
            r.pick(['Range', 'range', 'X-Range']),
            r.pick([
              'bytes=0-0',
              'bytes=1-3',
              'bytes=3-',
              'bytes=-4',
              'bytes=0-100',
              'bytes=-100',
              'BYTES=1-2',
              ' bytes = 2 - 3 ',
              'bytes=abc',
              'bytes=,1-2',
              'items=1-2',
              'bytes=1-2,4-5',
              'bytes=10-',
              'bytes=5-3',
              'bytes=-0',
              'bytes=0-',
              'bytes=-1',
              'bytes=',
              'bytes=99-',
              'bytes=2-2',
              'bytes=1-2,',
              'bytes= 1-2',
              'bytes=01-02',
              'bytes=1 -2',
              'bytes=-',
              '',
            ]),
          ],
        ],
      }),
    ],
    [r.badness, () => r.pick<Spec>([null, U, 'bytes=0-1', 5, ...WRONG])],
  ]);
}

function getOptions(r: Rng, k: string): Spec {
  if (r.chance(0.35)) return U;
  if (r.bad(0.03)) return r.pick<Spec>(['x', 5, null, ...WRONG]);
  const o: Record<string, Spec> = {};
  if (r.chance(0.4)) o.onlyIf = conditional(r, k);
  if (r.chance(0.5)) o.range = rangeSpec(r, k);
  if (r.bad(0.03)) o.ssecKey = r.pick(SSEC_BAD);
  if (r.bad(0.02)) o.bogus = 1;
  return o;
}

function listOptions(r: Rng, previousLists: readonly { op: number; options: Spec }[]): Spec {
  if (previousLists.length > 0 && r.chance(0.3)) {
    // The next page of an earlier list: its own options plus its cursor (or a cursor alone).
    const prev = r.pick(previousLists);
    const base =
      typeof prev.options === 'object' &&
      prev.options !== null &&
      !('$$' in prev.options) &&
      !Array.isArray(prev.options)
        ? prev.options
        : {};
    // A cursor is stale when the bucket changed since its list; with another prefix, it is another prefix's.
    const o: Record<string, Spec> = { ...(base as Record<string, Spec>), cursor: { $$: 'cursor', op: prev.op } };
    if (r.chance(0.15)) o.startAfter = key(r);
    if (r.bad(0.15)) o.prefix = r.pick(PREFIXES);
    if (r.bad(0.05)) o.limit = r.pick<Spec>([0, 1001, -1]);
    return o;
  }
  if (r.chance(0.2)) return U;
  if (r.bad(0.03)) return r.pick<Spec>(['x', 5, null, ...WRONG]);
  const o: Record<string, Spec> = {};
  if (r.chance(0.5))
    o.limit = r.weighted<Spec>([
      [6, () => 1 + r.int(4)],
      [
        r.badness,
        () =>
          r.pick<Spec>([
            0,
            -1,
            1001,
            1000,
            999,
            1.5,
            0.5,
            '2',
            '',
            true,
            { $$: 'number', v: 'NaN' },
            { $$: 'number', v: 'Infinity' },
            2 ** 31,
            2 ** 32 + 1,
            -(2 ** 31) - 1,
            null,
            -2,
            ...WRONG,
          ]),
      ],
    ]);
  if (r.chance(0.4)) o.prefix = !r.bad(0.05) ? r.pick(PREFIXES) : r.pick<Spec>([5, null, 'x'.repeat(1025), ...WRONG]);
  if (r.chance(0.4)) o.delimiter = !r.bad(0.05) ? r.pick(DELIMITERS) : r.pick<Spec>([5, 'x'.repeat(1025), ...WRONG]);
  if (r.chance(0.2)) o.startAfter = !r.bad(0.05) ? key(r) : r.pick<Spec>([5, ...WRONG]);
  // A cursor this bucket never issued: garbage, base64 of a key or of JSON, or not a string.
  if (r.bad(0.05))
    o.cursor = r.pick<Spec>(['', 'garbage', 'YQ==', 'Yg', 'ImEi', '!!!', 'x'.repeat(1025), '\uD800', 5, ...WRONG]);
  if (r.chance(0.3))
    o.include = !r.bad(0.2)
      ? r.pick<Spec>([
          [],
          ['httpMetadata'],
          ['customMetadata'],
          ['httpMetadata', 'customMetadata'],
          ['customMetadata', 'customMetadata'],
        ])
      : r.pick<Spec>([
          ['bogus'],
          'httpMetadata',
          [5],
          ['httpMetadata', 'bogus'],
          [null],
          ['HTTPMETADATA'],
          ['customMetadata', ''],
          ...WRONG,
        ]);
  if (r.bad(0.02)) o.bogus = 1;
  return o;
}

// ---- the sequence ----------------------------------------------------------------------------------

const MIB5 = 5 * 1024 * 1024;

type OpKind = 'put' | 'get' | 'head' | 'delete' | 'list' | 'create' | 'part' | 'complete' | 'abort' | 'resume';

export interface Mix {
  /** Relative weights of the kinds of operation. */
  readonly weights: Readonly<Record<OpKind, number>>;
  /** How much more often than the default a parameter gets a bad value (Rng.bad). */
  readonly badness: number;
  /** The chance a seed carries one real multipart upload with 5 MiB parts (slow: kept rare). */
  readonly big: number;
}

/** The operation mixes; a seed is generated for one of them. */
const MIXES = {
  default: {
    weights: { put: 28, get: 18, head: 7, delete: 7, list: 11, create: 4, part: 8, complete: 5, abort: 2, resume: 2 },
    badness: 1,
    big: 0.12,
  },
  // Uploads, parts, completions, aborts and resumes, with reads that show what completing made.
  multipart: {
    weights: { put: 6, get: 12, head: 4, delete: 3, list: 5, create: 12, part: 26, complete: 14, abort: 5, resume: 8 },
    badness: 1,
    big: 0.15,
  },
  // Every parameter gets a bad value several times as often: wrong types, out of range, malformed.
  bad: {
    weights: { put: 24, get: 16, head: 7, delete: 9, list: 14, create: 6, part: 10, complete: 7, abort: 2, resume: 5 },
    badness: 6,
    big: 0.03,
  },
} as const satisfies Record<string, Mix>;

export type MixName = keyof typeof MIXES;
export const MIX_NAMES = Object.keys(MIXES) as MixName[];

const GARBAGE_UPLOAD_IDS: readonly Spec[] = [
  'bogus',
  '',
  'x'.repeat(1000),
  '\uD800',
  'AAAAAAAAAAAAAAAAAAAAAA',
  'a/b',
  ' ',
  5,
  null,
  true,
  {},
  [],
  { $$: 'symbol' },
  { $$: 'tostring', v: 'id' },
];

/** Generates `count` operations for `seed` in `mix`. */
export function generate(seed: number, count: number, mix: MixName = 'default'): Op[] {
  const m: Mix = MIXES[mix];
  const r = new Rng(seed, m.badness);
  const ops: Op[] = [];
  const handles: number[] = [];
  /** Handles an abort or a complete op targeted (later ops on them use an ended upload). */
  const ended: number[] = [];
  const partsOf = new Map<number, number[]>();
  const lists: { op: number; options: Spec }[] = [];
  /** Keys put ops wrote (or tried to). */
  const written: string[] = [];
  let emptyPartUsed = false;
  const bigAt = r.chance(m.big) ? r.int(Math.max(1, count - 6)) : -1;

  const push = (op: Op) => ops.push(op) - 1;
  const keyOf = (h: number): Spec => ops[h]!.args[0]!;
  /** A handle; in the multipart mixes more often one whose upload has ended. */
  const handle = () => (ended.length > 0 && r.bad(0.15) ? r.pick(ended) : r.pick(handles));

  const partValue = (index: number): Spec => {
    // Every part's content is unique in a seed, so md5 part etags never coincide (see compare.ts).
    if (!emptyPartUsed && r.chance(0.05)) {
      emptyPartUsed = true;
      return '';
    }
    const text = `part ${seed}/${index} ${r.string('abc', 6)}`;
    return r.weighted<Spec>([
      [4, () => text],
      [
        1,
        () => ({
          $$: 'buffer',
          kind: r.pick(['Uint8Array', 'ArrayBuffer', 'DataView'] as const),
          hex: toHex(utf8(text)),
          pad: 1,
        }),
      ],
      [
        1,
        () => ({
          $$: 'stream',
          kind: r.pick(['response', 'request', 'blob', 'fixed'] as const),
          hex: toHex(utf8(text)),
        }),
      ],
      [1, () => ({ $$: 'blob', hex: toHex(utf8(text)), type: 'x/y' })],
    ]);
  };

  const uploadPart = (h: number, partNumber: Spec, value: Spec, options: Spec[] = []) => {
    const i = ops.length;
    push({ target: h, method: 'uploadPart', args: [partNumber, value, ...options] });
    partsOf.get(h)!.push(i);
    return i;
  };

  const big = () => {
    const k = r.pick(['big', 'a/big', '😀big']);
    const h = push({
      target: 'bucket',
      method: 'createMultipartUpload',
      args: [k, r.chance(0.5) ? { customMetadata: { big: 'yes' }, httpMetadata: { contentType: 'x/big' } } : U],
    });
    handles.push(h);
    partsOf.set(h, []);
    const sizes = r.pick([
      [MIB5, MIB5, 10],
      [MIB5, MIB5 + 1, 10],
      [MIB5 - 1, MIB5 - 1, 1],
      [MIB5, 10],
    ]);
    const parts = sizes.map((n, i) => uploadPart(h, i + 1, { $$: 'sized', n, fill: ops.length }));
    const order = r.chance(0.5) ? parts : [...parts].reverse();
    push({ target: h, method: 'complete', args: [order.map((op): Spec => ({ $$: 'part', op }))] });
    ended.push(h);
    push({
      target: 'bucket',
      method: 'get',
      args: [k, r.chance(0.5) ? { range: { offset: MIB5 - 3, length: 6 } } : U],
      read: 'bytes',
    });
  };

  /** The part list of a complete: usually the upload's own parts, with every way to get it wrong. */
  const partList = (h: number): Spec => {
    const mine = partsOf.get(h)!;
    const others = [...partsOf.entries()].filter(([o]) => o !== h).flatMap(([, p]) => p);
    return r.weighted<Spec>([
      [
        6,
        () => {
          const chosen: Spec[] = [];
          for (const p of mine) if (!r.bad(0.2)) chosen.push({ $$: 'part', op: p }); // some missing
          if (r.chance(0.3)) chosen.reverse(); // out of order
          if (r.bad(0.15) && chosen.length > 0) chosen.push(chosen[0]!); // a duplicate
          if (r.bad(0.15) && others.length > 0) chosen.push({ $$: 'part', op: r.pick(others) }); // another upload's
          if (r.bad(0.1)) chosen.push({ partNumber: 1 + r.int(6), etag: r.chance(0.5) ? 'bogus' : r.hex(16) });
          if (r.bad(0.1) && mine.length > 0)
            chosen.push({ $$: 'part', op: r.pick(mine), etag: r.pick<Spec>(['wrong', '', 5, null, U]) });
          if (r.bad(0.1) && mine.length > 0)
            chosen.push({
              $$: 'part',
              op: r.pick(mine),
              template: r.pick(['"{e}"', '{E}', ' {e}', '{e}x', 'W/"{e}"']),
            });
          if (r.bad(0.1) && mine.length > 0)
            chosen.push({
              $$: 'part',
              op: r.pick(mine),
              partNumber: r.pick<Spec>([0, 10001, 7, '1', 1.5, -1, null, U, { $$: 'number', v: 'NaN' }, 2 ** 32 + 1]),
            });
          if (r.bad(0.05))
            chosen.push(r.pick<Spec>([null, 5, U, {}, { partNumber: 1 }, { etag: 'x' }, 'x', [], { $$: 'symbol' }]));
          return chosen;
        },
      ],
      [1, () => []], // zero parts
      [
        r.badness,
        () => r.pick<Spec>([U, 'x', null, { length: 0 }, { length: 1, 0: { partNumber: 1, etag: 'x' } }, ...WRONG]),
      ],
    ]);
  };

  const kinds: Record<OpKind, () => void> = {
    put() {
      const k = key(r);
      written.push(k);
      const v = putValue(r);
      const args: Spec[] = [keyArg(r, k), v.spec, putOptions(r, k, v.bytes)];
      if (r.bad(0.03))
        args.length = r.int(3); // missing arguments
      else if (args[2] === U && r.chance(0.5)) args.length = 2;
      push({ target: 'bucket', method: 'put', args });
    },
    get() {
      // Often a key a put wrote (most likely still there), so ranged reads meet the object's real size.
      const k = written.length > 0 && r.chance(0.4) ? r.pick(written) : key(r);
      const args: Spec[] = [keyArg(r, k), getOptions(r, k)];
      if (r.bad(0.02)) args.length = 0;
      push({
        target: 'bucket',
        method: 'get',
        args,
        read: r.pick<Read>(['text', 'text', 'arrayBuffer', 'bytes', 'blob', 'json', 'stream', 'twice', 'none']),
      });
    },
    head() {
      const args: Spec[] = [keyArg(r, key(r))];
      if (r.bad(0.02)) args.length = 0;
      if (r.bad(0.05)) args.push({ range: { offset: 1 } });
      push({ target: 'bucket', method: 'head', args });
    },
    delete() {
      const arg = r.weighted<Spec>([
        [5, () => keyArg(r, key(r))],
        [
          4,
          () =>
            Array.from({ length: r.int(5) }, () =>
              !r.bad(0.05) ? key(r) : r.pick<Spec>([5, null, U, 'x'.repeat(1025), ...WRONG]),
            ),
        ],
        [
          r.badness,
          () =>
            r.pick<Spec>([
              5,
              {},
              { $$: 'symbol' },
              ['x'.repeat(1025), 'a'],
              { $$: 'map', entries: [['a', 'b']] },
              ['a', 'a', 'b'],
              [['a']],
              Array.from({ length: 1001 }, (_, i) => `k${i}`),
              Array.from({ length: 1000 }, (_, i) => `k${i}`),
              ...WRONG,
            ]),
        ],
      ]);
      push({ target: 'bucket', method: 'delete', args: r.bad(0.02) ? [] : [arg] });
    },
    list() {
      const index = ops.length;
      const options = listOptions(r, lists);
      const args: Spec[] = options === U && r.chance(0.5) ? [] : [options];
      lists.push({ op: index, options });
      push({ target: 'bucket', method: 'list', args });
    },
    create() {
      const index = ops.length;
      const k = keyArg(r, key(r));
      const options: Spec = r.weighted<Spec>([
        [3, () => U],
        [
          3,
          () => ({
            httpMetadata: httpMetadata(r),
            customMetadata: customMetadata(r),
            ...(r.chance(0.2) ? { storageClass: r.pick(['Standard', 'Glacier']) } : {}),
          }),
        ],
        [
          r.badness,
          () =>
            r.pick<Spec>([
              'x',
              5,
              { ssecKey: r.pick(SSEC_BAD) },
              { storageClass: r.pick<Spec>(['', 'bogus', 5, null]) },
              { httpMetadata: r.pick(WRONG) },
              { customMetadata: r.pick(WRONG) },
              { bogus: 1 },
              ...WRONG,
            ]),
        ],
      ]);
      push({ target: 'bucket', method: 'createMultipartUpload', args: r.bad(0.03) ? [] : [k, options] });
      handles.push(index);
      partsOf.set(index, []);
    },
    part() {
      if (handles.length === 0) return;
      const index = ops.length;
      const h = handle();
      const partNumber = r.weighted<Spec>([
        [10, () => 1 + r.int(4)],
        [
          r.badness,
          () =>
            r.pick<Spec>([
              0,
              10001,
              10000,
              1.5,
              '2',
              { $$: 'number', v: 'NaN' },
              { $$: 'number', v: 'Infinity' },
              -1,
              null,
              true,
              2 ** 32 + 1,
              -(2 ** 32) + 1,
              ...WRONG,
            ]),
        ],
      ]);
      const value = !r.bad(0.05)
        ? partValue(index)
        : r.pick<Spec>([
            null,
            U,
            { $$: 'stream', kind: r.pick(['plain', 'bytes'] as const), hex: '00' },
            ...BAD_VALUES,
          ]);
      const options: Spec[] = !r.bad(0.1)
        ? []
        : [r.pick<Spec>([U, null, {}, 'x', 5, { ssecKey: r.pick(SSEC_BAD) }, { bogus: 1 }, ...WRONG])];
      if (r.bad(0.02)) uploadPart(h, U, value);
      else uploadPart(h, partNumber, value, options);
    },
    complete() {
      if (handles.length === 0) return;
      const h = handle();
      push({ target: h, method: 'complete', args: r.bad(0.02) ? [] : [partList(h)] });
      ended.push(h);
      // What completing made (maybe a zero-part object), read at once, often with a range.
      const k = keyOf(h);
      if (typeof k === 'string' && r.chance(0.3)) {
        push({
          target: 'bucket',
          method: 'get',
          args: [k, r.chance(0.7) ? { range: rangeSpec(r, k) } : U],
          read: r.pick<Read>(['text', 'bytes', 'stream']),
        });
      }
    },
    abort() {
      if (handles.length === 0) return;
      const h = handle();
      push({ target: h, method: 'abort', args: r.bad(0.05) ? [5] : [] });
      ended.push(h);
    },
    resume() {
      const index = ops.length;
      // An upload id: of an upload (maybe ended, maybe another key's), or garbage.
      const id: Spec =
        handles.length > 0 && !r.bad(0.3) ? { $$: 'uploadId', op: handle() } : r.pick(GARBAGE_UPLOAD_IDS);
      const k = handles.length > 0 && !r.bad(0.2) ? keyOf(r.pick(handles)) : keyArg(r, key(r));
      const args: Spec[] = r.bad(0.03) ? [k] : [k, id];
      push({ target: 'bucket', method: 'resumeMultipartUpload', args });
      handles.push(index);
      partsOf.set(index, []);
    },
  };
  const table = (Object.keys(kinds) as OpKind[]).map((kind) => [m.weights[kind], kinds[kind]] as const);

  while (ops.length < count) {
    if (ops.length === bigAt) big();
    else r.weighted<void>(table);
  }
  return ops; // the 5 MiB scenario may run a few ops past `count`
}

/** An op as one line for failure messages. */
export function describeOp(op: Op): string {
  const args = op.args.map((a) =>
    JSON.stringify(a, (_k, v: unknown) =>
      typeof v === 'string' && v.length > 80 ? `${v.slice(0, 12)}…(${v.length} chars)` : v,
    ),
  );
  const target = op.target === 'bucket' ? 'bucket' : `upload#${op.target}`;
  return `${target}.${op.method}(${args.join(', ')})${op.read ? ` read=${op.read}` : ''}`;
}
