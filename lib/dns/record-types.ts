/**
 * Per-type rules: which types exist, which take `content` and which `data`, how `data` renders into
 * `content` (docs/sources/dns-api.md#types), and which are proxiable.
 */
import { utf8Length } from '../bytes.js';
import { canonicalIPv6, isIPv4 } from './addresses.js';
import { ApiError } from '../api/errors.js';
import { dnsErrors } from './errors.js';
import { normaliseHost } from './names.js';

const CONTENT_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'OPENPGPKEY', 'PTR', 'TXT'] as const;
const DATA_TYPES = [
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
] as const;
/** A DNS record type the API takes: those with `content`, and those with `data` fields. */
export type DnsRecordType = (typeof CONTENT_TYPES)[number] | (typeof DATA_TYPES)[number];

const ALL = new Set<string>([...CONTENT_TYPES, ...DATA_TYPES]);
export const isRecordType = (t: string): t is DnsRecordType => ALL.has(t);
export const isDataType = (t: string): boolean => (DATA_TYPES as readonly string[]).includes(t);
export const PROXIABLE_TYPES = new Set(['A', 'AAAA', 'CNAME']);
/** Types that carry a top-level `priority` in requests (SRV echoes its data's). */
export const needsPriority = (t: string): boolean => t === 'MX' || t === 'URI';

type Field =
  | { name: string; kind: 'int'; min: number; max: number }
  | { name: string; kind: 'num'; min: number; max: number; digits: number }
  | { name: string; kind: 'text' | 'nonempty' | 'tag' | 'hex' | 'base64' | 'target' }
  | { name: string; kind: 'enum'; values: readonly string[] };

const int = (name: string, max: number, min = 0): Field => ({ name, kind: 'int', min, max });
const text = (name: string): Field => ({ name, kind: 'text' });
const U8 = 255;
const U16 = 65535;

interface DataSpec {
  fields: Field[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- `data` was checked field by field against the type's rules (record-rules.ts) before it is rendered
  render(d: Record<string, any>, priority?: number): string;
}

const quoted = (s: string) => `"${String(s).replace(/(["\\])/g, '\\$1')}"`;

/** SVCB and HTTPS share one data format, as do TLSA and SMIMEA (RFC 9460, RFC 8162). */
const SERVICE_BINDING: DataSpec = {
  fields: [int('priority', U16), { name: 'target', kind: 'target' }, text('value')],
  render: (d) => `${d.priority} ${d.target} ${d.value}`,
};
const CERTIFICATE_ASSOCIATION: DataSpec = {
  fields: [int('usage', U8), int('selector', U8), int('matching_type', U8), { name: 'certificate', kind: 'hex' }],
  render: (d) => `${d.usage} ${d.selector} ${d.matching_type} ${d.certificate}`,
};

/** Field order is the order the API reports the first missing field in (SSHFP: algorithm first). */
const DATA: Record<string, DataSpec> = {
  CAA: {
    fields: [int('flags', U8), { name: 'tag', kind: 'tag' }, text('value')],
    render: (d) => `${d.flags} ${d.tag} ${quoted(d.value)}`,
  },
  CERT: {
    fields: [int('type', U16), int('key_tag', U16), int('algorithm', U8), { name: 'certificate', kind: 'base64' }],
    render: (d) => `${d.type} ${d.key_tag} ${d.algorithm} ${d.certificate}`,
  },
  DNSKEY: {
    fields: [int('flags', U16), int('protocol', U8), int('algorithm', U8), { name: 'public_key', kind: 'base64' }],
    render: (d) => `${d.flags} ${d.protocol} ${d.algorithm} ${d.public_key}`,
  },
  DS: {
    fields: [int('key_tag', U16), int('algorithm', U8), int('digest_type', U8), { name: 'digest', kind: 'hex' }],
    render: (d) => `${d.key_tag} ${d.algorithm} ${d.digest_type} ${d.digest}`,
  },
  HTTPS: SERVICE_BINDING,
  SVCB: SERVICE_BINDING,
  LOC: {
    fields: [
      int('lat_degrees', 90),
      int('lat_minutes', 59),
      { name: 'lat_seconds', kind: 'num', min: 0, max: 59.999, digits: 3 },
      { name: 'lat_direction', kind: 'enum', values: ['N', 'S'] },
      int('long_degrees', 180),
      int('long_minutes', 59),
      { name: 'long_seconds', kind: 'num', min: 0, max: 59.999, digits: 3 },
      { name: 'long_direction', kind: 'enum', values: ['E', 'W'] },
      { name: 'altitude', kind: 'num', min: -100000, max: 42849672.95, digits: 2 },
      { name: 'size', kind: 'num', min: 0, max: 90000000, digits: 2 },
      { name: 'precision_horz', kind: 'num', min: 0, max: 90000000, digits: 2 },
      { name: 'precision_vert', kind: 'num', min: 0, max: 90000000, digits: 2 },
    ],
    render: (d) =>
      `${d.lat_degrees} ${d.lat_minutes} ${d.lat_seconds.toFixed(3)} ${d.lat_direction} ` +
      `${d.long_degrees} ${d.long_minutes} ${d.long_seconds.toFixed(3)} ${d.long_direction} ` +
      `${d.altitude.toFixed(2)} ${d.size.toFixed(2)} ${d.precision_horz.toFixed(2)} ${d.precision_vert.toFixed(2)}`,
  },
  NAPTR: {
    fields: [
      int('order', U16),
      int('preference', U16),
      text('flags'),
      text('service'),
      text('regex'),
      { name: 'replacement', kind: 'target' },
    ],
    render: (d) =>
      `${d.order} ${d.preference} ${quoted(d.flags)} ${quoted(d.service)} ${quoted(d.regex)} ${d.replacement}`,
  },
  SMIMEA: CERTIFICATE_ASSOCIATION,
  TLSA: CERTIFICATE_ASSOCIATION,
  SRV: {
    fields: [int('priority', U16), int('weight', U16), int('port', U16), { name: 'target', kind: 'target' }],
    // Priority is echoed at the top level, not inside content.
    render: (d) => `${d.weight} ${d.port} ${d.target}`,
  },
  SSHFP: {
    fields: [int('algorithm', U8), int('type', U8), { name: 'fingerprint', kind: 'hex' }],
    render: (d) => `${d.algorithm} ${d.type} ${d.fingerprint}`,
  },
  URI: {
    fields: [int('weight', U16), { name: 'target', kind: 'nonempty' }],
    render: (d) => `${d.weight} ${quoted(d.target)}`,
  },
};

/** Data fields that only ever hold host names or text: the JSON type we insist on per kind. */
function checkField(f: Field, v: unknown): unknown {
  switch (f.kind) {
    case 'int':
      if (typeof v !== 'number') throw dnsErrors.invalidBody();
      if (!Number.isInteger(v) || v < f.min || v > f.max) throw dnsErrors.badData(f.name);
      return v;
    case 'num':
      if (typeof v !== 'number') throw dnsErrors.invalidBody();
      if (!Number.isFinite(v) || v < f.min || v > f.max) throw dnsErrors.badData(f.name);
      return v;
    case 'enum':
      if (typeof v !== 'string') throw dnsErrors.invalidBody();
      if (!f.values.includes(v)) throw dnsErrors.badData(f.name);
      return v;
    case 'hex':
      if (typeof v !== 'string') throw dnsErrors.invalidBody();
      if (!/^[0-9a-fA-F]+$/.test(v)) throw dnsErrors.badData(f.name);
      return v;
    case 'base64':
      if (typeof v !== 'string') throw dnsErrors.invalidBody();
      if (!/^[A-Za-z0-9+/]+=*$/.test(v.replace(/\s/g, ''))) throw dnsErrors.badData(f.name);
      return v;
    case 'target': {
      if (typeof v !== 'string') throw dnsErrors.invalidBody();
      if (v === '.') return v;
      if (normaliseHost(v) === undefined) throw dnsErrors.badData(f.name);
      return v;
    }
    case 'text':
      if (typeof v !== 'string') throw dnsErrors.invalidBody();
      return v;
    case 'nonempty':
      if (typeof v !== 'string') throw dnsErrors.invalidBody();
      if (v === '') throw dnsErrors.missingData(f.name);
      return v;
    case 'tag':
      if (typeof v !== 'string') throw dnsErrors.invalidBody();
      if (v === '') throw dnsErrors.missingData(f.name);
      if (!/^[a-z0-9]+$/i.test(v)) throw dnsErrors.badData(f.name);
      return v;
  }
}

const RETIRED_SRV_DATA = ['service', 'proto', 'name'];

/**
 * A data value as the duplicate rule sees it: the same DNS data written differently is the same
 * record. Host names ignore case and a trailing dot, hex ignores case, base64 ignores whitespace.
 */
function sameValue(f: Field, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (f.kind === 'target') return v === '.' ? v : normaliseHost(v);
  if (f.kind === 'hex') return v.toLowerCase();
  if (f.kind === 'base64') return v.replace(/\s/g, '');
  return v;
}

/**
 * Validates `data` for a data type; returns the echoed data (as sent), the rendered content, and
 * the content the duplicate rule compares (rendered from `sameValue`s): `Sip.Example.NET.` and
 * `sip.example.net` name the same host, so two SRV records to them are identical.
 */
export function renderData(type: string, data: Record<string, unknown> | undefined, priority: number | undefined) {
  const spec = DATA[type]!;
  if (data === undefined) throw dnsErrors.missingData(spec.fields[0]!.name);
  if (type === 'SRV') {
    for (const k of RETIRED_SRV_DATA) if (data[k] !== undefined) throw dnsErrors.retiredSrvData();
  }
  const out: Record<string, unknown> = {};
  const same: Record<string, unknown> = {};
  for (const f of spec.fields) {
    const v = data[f.name];
    if (v === undefined || v === null) throw dnsErrors.missingData(f.name);
    out[f.name] = checkField(f, v);
    same[f.name] = sameValue(f, out[f.name]);
  }
  return { data: out, content: spec.render(out, priority), identity: spec.render(same, priority) };
}

export function dataFields(type: string): readonly string[] {
  return DATA[type]?.fields.map((f) => f.name) ?? [];
}

/** The 255-byte character-strings a TXT value is served as, for the 4,096 wire-byte limit. */
function txtWireBytes(content: string): number {
  const bytes = utf8Length(content);
  return bytes + Math.ceil(Math.max(bytes, 1) / 255);
}

const SPACE = /\s/;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * Whether `s` is one or more quoted strings separated by white space, optionally surrounded by it,
 * a backslash escaping the next character (not a line break). This is the regular expression
 * `^\s*"(?:[^"\\]|\\.)*"(?:\s+"(?:[^"\\]|\\.)*")*\s*$` as one linear scan: the expression
 * backtracks a step per character and overflowed the stack on a 60 MB quoted content (a 500 where
 * the API answers 9015). spec/dns/request-body.test.ts checks the two agree.
 */
export function isQuotedSequence(s: string): boolean {
  let i = 0;
  while (i < s.length && SPACE.test(s[i]!)) i++;
  let strings = 0;
  while (i < s.length) {
    if (s[i] !== '"') return false;
    i++;
    for (;;) {
      if (i >= s.length) return false;
      const c = s[i]!;
      if (c === '"') break;
      if (c === '\\') {
        if (i + 1 >= s.length || LINE_TERMINATOR.test(s[i + 1]!)) return false;
        i += 2;
      } else i++;
    }
    i++;
    strings++;
    const gap = i;
    while (i < s.length && SPACE.test(s[i]!)) i++;
    if (i < s.length && i === gap) return false;
  }
  return strings > 0;
}

/** One quoted character-string for unquoted TXT text (a backslash is escaped, as in a zone file). */
const quoteText = (text: string): string => `"${text.replace(/\\/g, '\\\\')}"`;

/**
 * TXT content: either no double quote at all, or one or more quoted strings separated by spaces
 * ("Inconsistent quotation marks cause a validation error"). Unquoted content gets quotes when
 * `quote` (the document's rule for new records).
 */
function normaliseTxt(content: string, quote: boolean): string {
  let out = content;
  if (!content.includes('"')) {
    if (quote) out = quoteText(content);
  } else if (!isQuotedSequence(content)) {
    throw dnsErrors.txtQuotes();
  }
  if (txtWireBytes(out) > 4096) throw dnsErrors.contentTooLong();
  return out;
}

const LDH_LABEL = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';
const MAIL_HOST = new RegExp(`^${LDH_LABEL}(?:\\.${LDH_LABEL})*$`);

const looksLikeIp = (s: string) => isIPv4(s) || canonicalIPv6(s) !== undefined || /^\d+(\.\d+){0,3}$/.test(s);

/** Content of a content-type record, normalised as the API stores it. */
export function normaliseContent(type: string, content: string, quoteTxt: boolean): string {
  switch (type) {
    case 'A':
      if (!isIPv4(content)) throw dnsErrors.badA();
      return content;
    case 'AAAA': {
      const v6 = canonicalIPv6(content);
      if (v6 === undefined) throw dnsErrors.badAAAA();
      return v6;
    }
    case 'MX': {
      if (content === '.') return content;
      if (looksLikeIp(content)) throw dnsErrors.mxIp();
      const host = normaliseHost(content);
      // A mail exchange is a host name proper (the published schema's `format: hostname`): no
      // underscore or wildcard labels (CNAME/NS/PTR targets may have them), no hyphen at a label's end.
      if (host === undefined || !MAIL_HOST.test(host)) throw dnsErrors.badContent(type);
      return host;
    }
    case 'CNAME':
    case 'NS':
    case 'PTR': {
      if (looksLikeIp(content)) throw dnsErrors.badContent(type);
      const host = normaliseHost(content);
      if (host === undefined) throw dnsErrors.badContent(type);
      return host;
    }
    case 'TXT':
      return normaliseTxt(content, quoteTxt);
    case 'OPENPGPKEY':
      if (!/^[A-Za-z0-9+/]+=*$/.test(content)) throw dnsErrors.badContent(type);
      return content;
    default:
      throw new ApiError(500, [{ code: 1000, message: `internal: ${type} is not a content type` }]);
  }
}
