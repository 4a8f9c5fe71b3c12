/**
 * The fuzzer's random inputs: a seeded generator and pools of good and bad values for every field
 * of a record request (names, per-type content and data, TTLs, proxying, comments, tags, settings).
 * Pools are small on purpose, so random requests collide (duplicates, CNAME conflicts, delegations).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the fuzzer's random request bodies and the API's answers are JSON of any shape */

/** mulberry32: small, fast and fully determined by its seed. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(xs: readonly (readonly [number, T])[]): T {
    let total = 0;
    for (const [w] of xs) total += w;
    let r = this.next() * total;
    for (const [w, v] of xs) if ((r -= w) < 0) return v;
    return xs[xs.length - 1]![1];
  }
}

const GOOD_TYPES = [
  'A',
  'AAAA',
  'CNAME',
  'MX',
  'NS',
  'OPENPGPKEY',
  'PTR',
  'TXT',
  'CAA',
  'CERT',
  'DNSKEY',
  'DS',
  'HTTPS',
  'LOC',
  'NAPTR',
  'SMIMEA',
  'SRV',
  'SSHFP',
  'SVCB',
  'TLSA',
  'URI',
];
const BAD_TYPES = ['SPF', 'DKIM', 'a', 'FOO', '', 'SOA', ' A'];

/** Relative labels, few on purpose so names collide. */
const SHORT = ['www', 'a', 'b', 'mail', 'sub', 'x.sub', 'api'];

function genName(rng: Rng, zone: string, existing: string[]): unknown {
  return rng.weighted<() => unknown>([
    [30, () => rng.pick(SHORT)],
    [8, () => '@'],
    [6, () => zone],
    [6, () => `${rng.pick(SHORT)}.${zone}`],
    [4, () => `${rng.pick(SHORT)}.${zone}.`],
    [4, () => `${rng.pick(SHORT)}.${zone}`.toUpperCase()],
    [4, () => rng.pick(['*', '*.sub', 'a.*', '*.*', '**'])],
    [4, () => rng.pick(['münchen', 'xn--mnchen-3ya', 'ÄBC.sub', '日本'])],
    [4, () => rng.pick(['_acme-challenge', '_dmarc', 'selector1._domainkey', 'a_b', '_sip._tcp'])],
    [
      3,
      () =>
        rng.pick([
          'x'.repeat(63),
          'x'.repeat(64),
          `${'a'.repeat(60)}.`.repeat(5),
          `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(50)}`,
        ]),
    ],
    [
      4,
      () =>
        rng.pick([
          '-bad',
          'bad-',
          '1abc',
          'a1',
          'foo bar',
          'a..b',
          '.',
          '..',
          '',
          'a/b',
          'a@b',
          'other.org',
          'example.com.evil',
          '123',
        ]),
    ],
    [2, () => rng.pick([null, 5, true, ['www'], { n: 1 }])],
    [12, () => (existing.length ? rng.pick(existing) : 'www')],
  ])();
}

const A_GOOD = ['198.51.100.4', '198.51.100.5', '203.0.113.9', '192.0.2.1'];
const A_ODD = [
  '10.0.0.1',
  '192.168.1.1',
  '127.0.0.1',
  '104.16.0.1',
  '1.1.1.1',
  '256.1.1.1',
  '127.1',
  '01.2.3.4',
  '::1',
  '',
  ' 198.51.100.4',
  'x',
];
const AAAA_GOOD = ['2001:db8::1', '2001:DB8:0:0:0:0:0:2', '2001:db8::3'];
const AAAA_ODD = ['fe80::1', '::1', '2606:4700::1', '::ffff:1.2.3.4', '2001:db8::g', '1.2.3.4', '', ':::'];
const HOST_GOOD = [
  'target.example.net',
  'Target.Example.NET.',
  'www.example.com',
  'mail.example.com',
  'münchen.de',
  'a.b.c.d',
];
const HOST_ODD = [
  '1.2.3.4',
  '',
  'a..b',
  'has space.net',
  '-x.net',
  'x'.repeat(64) + '.net',
  '.',
  '*.example.net',
  'under_score.net',
];
const TXT_VALUES = [
  'hello',
  '"quoted"',
  '"a" "b"',
  '"a"  "b"',
  'v=spf1 -all',
  '"v=DKIM1; p=(abc)"',
  'k=(v)',
  'with "inner" quote',
  '"unterminated',
  'a\\b',
  '"a\\"b"',
  'héllo',
  '<>&',
  '',
  ' ',
  'tab\there',
  'semi;colon',
  'line\nbreak',
  'x'.repeat(300),
  '"' + 'y'.repeat(255) + '" "z"',
  'x'.repeat(5000),
  'w'.repeat(3000),
  'v'.repeat(3001),
  '"' + 'u'.repeat(4000) + '"',
  '"$ORIGIN evil."',
  'cf_tags=x',
];

function hostOf(rng: Rng, zone: string): string {
  return rng.chance(0.8) ? rng.pick(HOST_GOOD) : rng.chance(0.5) ? rng.pick(HOST_ODD) : `${rng.pick(SHORT)}.${zone}`;
}

/** Good `data` for a data type, sometimes (when `odd`) with one field broken or the wrong shape. */
function genData(rng: Rng, type: string, odd = true): unknown {
  const good: Record<string, () => Record<string, unknown>> = {
    CAA: () => ({
      flags: rng.pick([0, 128]),
      tag: rng.pick(['issue', 'issuewild', 'iodef']),
      value: rng.pick(['letsencrypt.org', 'ca.example; account=1', 'with "q"', 'mailto:a@b.c']),
    }),
    CERT: () => ({
      type: 1,
      key_tag: rng.int(65536),
      algorithm: 8,
      certificate: rng.pick(['MIIB', 'QUJD\nREVG', 'QUJD REVG', 'AAAA==']),
    }),
    DNSKEY: () => ({
      flags: 257,
      protocol: 3,
      algorithm: 13,
      public_key: rng.pick([
        'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==',
        'AwEAAQ',
      ]),
    }),
    DS: () => ({
      key_tag: rng.int(65536),
      algorithm: 13,
      digest_type: 2,
      digest: rng.pick(['ABCDEF0123', 'deadbeef']),
    }),
    HTTPS: () => ({
      priority: rng.pick([0, 1, 2]),
      target: rng.pick(['.', 'svc.example.net', 'Svc.Example.NET.']),
      value: rng.pick(['alpn="h2,h3"', '', 'port=8443', 'a\nb', 'ech="a b" port=1', 'a;b', 'x  y']),
    }),
    SVCB: () => ({
      priority: rng.pick([1, 2]),
      target: rng.pick(['.', 'svc.example.net']),
      value: rng.pick(['alpn="h2"', '']),
    }),
    LOC: () => ({
      lat_degrees: rng.int(91),
      lat_minutes: rng.int(60),
      lat_seconds: rng.pick([0, 12.5, 59.999]),
      lat_direction: rng.pick(['N', 'S']),
      long_degrees: rng.int(181),
      long_minutes: rng.int(60),
      long_seconds: rng.pick([0, 1.25]),
      long_direction: rng.pick(['E', 'W']),
      altitude: rng.pick([0, -100, 42.5, 10000]),
      size: rng.pick([1, 0, 100]),
      precision_horz: rng.pick([10000, 0]),
      precision_vert: rng.pick([10, 0]),
    }),
    NAPTR: () => ({
      order: 100,
      preference: 10,
      flags: rng.pick(['S', 'U', '']),
      service: rng.pick(['SIP+D2U', 'E2U+sip']),
      regex: rng.pick(['', '!^.*$!sip:info@example.com!']),
      replacement: rng.pick(['.', '_sip._udp.example.com']),
    }),
    SMIMEA: () => ({ usage: 3, selector: 1, matching_type: 1, certificate: 'abcdef0123' }),
    TLSA: () => ({
      usage: rng.int(4),
      selector: 1,
      matching_type: 1,
      certificate: rng.pick(['abcdef0123', 'ABCDEF', 'abcdef']),
    }),
    SRV: () => ({
      priority: rng.pick([0, 10]),
      weight: rng.pick([0, 5]),
      port: rng.pick([443, 5060, 0]),
      target: rng.pick(['sip.example.net', '.', 'Sip.Example.NET.']),
    }),
    SSHFP: () => ({
      algorithm: rng.int(5),
      type: rng.int(3),
      fingerprint: rng.pick(['123456789abcdef67890123456789abcdef67890', 'ABCD']),
    }),
    URI: () => ({ weight: rng.pick([0, 1]), target: rng.pick(['http://example.com/', 'ftp://x', '']) }),
  };
  const make = good[type] ?? good.SRV!;
  const d: Record<string, unknown> = make();
  if (!odd) return d;
  if (rng.chance(0.25)) {
    const keys = Object.keys(d);
    const k = rng.pick(keys);
    d[k] = rng.pick<unknown>([undefined, null, -1, 1e9, 1.5, '10', 'not hex!', true, [], {}, 'x'.repeat(2000), '']);
  }
  if (rng.chance(0.05)) d.service = '_sip';
  if (rng.chance(0.05)) return rng.pick<unknown>(['string', [1], 5]);
  return d;
}

function genContent(rng: Rng, type: string, zone: string): unknown {
  if (rng.chance(0.03)) return rng.pick<unknown>([5, true, ['x'], { a: 1 }, null]);
  switch (type) {
    case 'A':
      return rng.chance(0.8) ? rng.pick(A_GOOD) : rng.pick(A_ODD);
    case 'AAAA':
      return rng.chance(0.8) ? rng.pick(AAAA_GOOD) : rng.pick(AAAA_ODD);
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'MX':
      return hostOf(rng, zone);
    case 'TXT':
      return rng.pick(TXT_VALUES);
    case 'OPENPGPKEY':
      return rng.pick(['mQINBFit2ioBEADhWpZ8', 'AAAA==', 'not base64!', '']);
    default:
      return rng.chance(0.8) ? undefined : rng.pick(['1 2 3', 'whatever']);
  }
}

const TTLS: unknown[] = [
  undefined,
  1,
  1,
  29,
  30,
  60,
  300,
  300,
  3600,
  86400,
  0,
  30,
  59,
  86401,
  -1,
  1.5,
  '300',
  null,
  1e10,
  2 ** 31,
];
const COMMENTS: unknown[] = [
  undefined,
  undefined,
  null,
  '',
  'hello',
  'Front door',
  'line\nbreak',
  'x'.repeat(101),
  'x'.repeat(501),
  'ünïcode 日本',
  '<b>&amp;',
  'semi; colon',
  ' padded ',
  'cf_tags=evil',
  5,
  '"quoted"',
  '(paren',
];
const TAGS: unknown[] = [
  undefined,
  undefined,
  [],
  ['env:prod'],
  ['env:prod', 'team:web'],
  ['a', 'a'],
  ['owner'],
  ['bad tag'],
  ['k:v with space'],
  ['k:a,b'],
  ['k:"q"'],
  ['a:'],
  'env:prod',
  [1],
  Array.from({ length: 25 }, (_, i) => `t${i}`),
  ['x\ny'],
  ['UPPER:Case'],
];
const SETTINGS: unknown[] = [
  undefined,
  undefined,
  {},
  { flatten_cname: true },
  { flatten_cname: false },
  { ipv4_only: true },
  { ipv4_only: true, ipv6_only: true },
  { flatten_cname: 'yes' },
  'x',
  { unknown: 1 },
];

/** A record request body: about half clean (every field valid on its own), the rest with odd fields. */
export function genRecordBody(
  rng: Rng,
  zone: string,
  existing: string[],
  base?: Record<string, any>,
): Record<string, unknown> {
  if (rng.chance(0.55)) return cleanBody(rng, zone, existing, base);
  const type =
    base?.type && rng.chance(0.8) ? base.type : rng.chance(0.93) ? rng.pick(GOOD_TYPES) : rng.pick(BAD_TYPES);
  const body: Record<string, unknown> = {
    type,
    name: base?.name && rng.chance(0.6) ? base.name : genName(rng, zone, existing),
  };
  const content = genContent(rng, type, zone);
  if (content !== undefined) body.content = content;
  if (!['A', 'AAAA', 'CNAME', 'MX', 'NS', 'PTR', 'TXT', 'OPENPGPKEY'].includes(type) || rng.chance(0.03))
    body.data = genData(rng, type);
  if (type === 'MX' || type === 'URI' || rng.chance(0.03)) {
    const p = rng.weighted<unknown>([
      [10, 10],
      [3, 0],
      [2, 65535],
      [1, 65536],
      [1, -1],
      [1, 1.5],
      [1, '10'],
      [2, undefined],
    ]);
    if (p !== undefined) body.priority = p;
  }
  const ttl = rng.pick(TTLS);
  if (ttl !== undefined) body.ttl = ttl;
  const proxied = rng.weighted<unknown>([
    [10, undefined],
    [6, false],
    [6, true],
    [1, 'true'],
    [1, null],
    [1, 1],
  ]);
  if (proxied !== undefined) body.proxied = proxied;
  const comment = rng.pick(COMMENTS);
  if (comment !== undefined) body.comment = comment;
  const tags = rng.pick(TAGS);
  if (tags !== undefined) body.tags = tags;
  const settings = rng.pick(SETTINGS);
  if (settings !== undefined) body.settings = settings;
  if (rng.chance(0.15))
    body.private_routing = rng.weighted<unknown>([
      [6, true],
      [3, false],
      [1, 'yes'],
      [1, null],
    ]);
  if (rng.chance(0.05)) body.zone_id = 'ignored';
  if (rng.chance(0.05)) body.id = 'f'.repeat(32);
  return body;
}

/** A body whose every field is valid on its own (it may still conflict with the zone). */
function cleanBody(rng: Rng, _zone: string, existing: string[], base?: Record<string, any>): Record<string, unknown> {
  const type: string =
    base?.type && rng.chance(0.7)
      ? base.type
      : rng.weighted([
          [5, 'A'],
          [3, 'AAAA'],
          [3, 'CNAME'],
          [3, 'TXT'],
          [2, 'MX'],
          [1, 'NS'],
          [4, rng.pick(GOOD_TYPES)],
        ]);
  const name =
    base?.name && rng.chance(0.5)
      ? base.name
      : rng.weighted<() => string>([
          [5, () => rng.pick(SHORT)],
          [2, () => '@'],
          [3, () => (existing.length ? rng.pick(existing) : 'www')],
          [1, () => '*.sub'],
          [1, () => '_acme-challenge'],
        ])();
  const body: Record<string, unknown> = { type, name };
  if (type === 'A') body.content = rng.pick(A_GOOD);
  else if (type === 'AAAA') body.content = rng.pick(AAAA_GOOD);
  else if (['CNAME', 'NS', 'PTR', 'MX'].includes(type))
    body.content = rng.pick(['target.example.net', 'mail.example.net', 'Target.Example.NET.', 'münchen.de']);
  else if (type === 'TXT')
    body.content = rng.pick([
      'hello',
      '"quoted"',
      '"a" "b"',
      'v=spf1 -all',
      '"v=DKIM1; p=(abc)"',
      'a\\b',
      'héllo',
      '<>&',
    ]);
  else if (type === 'OPENPGPKEY') body.content = 'mQINBFit2ioBEADhWpZ8';
  else {
    body.data = genData(rng, type, false);
  }
  if (type === 'MX' || type === 'URI') body.priority = rng.pick([0, 10, 20]);
  const ttl = rng.pick([undefined, 1, 60, 300, 3600, 86400]);
  if (ttl !== undefined) body.ttl = ttl;
  if (['A', 'AAAA', 'CNAME'].includes(type) && rng.chance(0.6)) body.proxied = rng.chance(0.5);
  if (['A', 'AAAA'].includes(type) && rng.chance(0.2)) body.private_routing = rng.chance(0.7);
  const comment = rng.pick([undefined, undefined, null, 'hello', 'Front door', 'ünïcode 日本', 'semi; colon']);
  if (comment !== undefined) body.comment = comment;
  const tags = rng.pick([undefined, undefined, [], ['env:prod'], ['env:prod', 'team:web'], ['owner'], ['k:a,b']]);
  if (tags !== undefined) body.tags = tags;
  return body;
}

/** A partial body for PATCH (a few fields of a record body). */
export function genPatchBody(
  rng: Rng,
  zone: string,
  existing: string[],
  base: Record<string, any>,
): Record<string, unknown> {
  const full = genRecordBody(rng, zone, existing, base);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(full)) if (rng.chance(0.35)) out[k] = v;
  return out;
}

export const randomHex32 = (rng: Rng) => Array.from({ length: 32 }, () => '0123456789abcdef'[rng.int(16)]).join('');
