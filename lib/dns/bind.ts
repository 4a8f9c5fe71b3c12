/**
 * BIND zone files: the export the API produces (`;;` headers, SOA, NS, one section per type,
 * tab-separated lines, `cf_tags` comments) and the import it accepts ($ORIGIN, $TTL, $GENERATE;
 * $INCLUDE refused; `cf_tags` for proxying, flattening and tags; the text before it as the comment).
 */
import { fromUtf8, utf8 } from '../bytes.js';
import { synthesisedNs, synthesisedSoa } from './apex.js';
import { dnsErrors } from './errors.js';
import { asciiName } from './names.js';
import { txtStrings } from './rdata.js';
import type { RecordInput } from './record-rules.js';
import { dataFields, isDataType } from './record-types.js';
import type { StoredRecord, Zone } from './zone.js';

const SECTION_ORDER = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'CAA'];

const pad = (n: number) => String(n).padStart(2, '0');
function stamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

const dot = (host: string) => (host === '.' || host.endsWith('.') ? host : `${host}.`);
const quoteTag = (t: string) => {
  const colon = t.indexOf(':');
  if (colon < 0 || !/[,\s"]/.test(t)) return t;
  return `${t.slice(0, colon)}:"${t.slice(colon + 1).replace(/"/g, '\\"')}"`;
};

/** Content may hold line breaks (data text); a zone file line may not: BIND's \\DDD escapes. */
const lineSafe = (s: string) => s.replace(/\r/g, '\\013').replace(/\n/g, '\\010');

/**
 * One quoted character-string as a zone file holds it (RFC 1035 §5.1): printable ASCII as itself,
 * `"` and `\\` escaped, every other byte (controls, line breaks, UTF-8) as `\\DDD`. Knot refuses
 * raw UTF-8 in a zone file, and BIND would take a raw line break for the end of the record.
 */
function zoneString(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\${String(b).padStart(3, '0')}`;
  }
  return `${out}"`;
}
const zoneText = (s: unknown) => zoneString(utf8(String(s ?? '')));

/**
 * TXT content as a zone file writes it: the character-strings the zone answers with over DNS
 * (lib/dns/rdata.ts), at most 255 bytes each, so a longer one is several strings (a zone file
 * refuses a string over 255 bytes). Unquoted content (stored as sent in today's mode) is one string,
 * so it comes out quoted.
 */
export const txtZoneText = (content: string): string =>
  txtStrings(content)
    .map((p) => zoneString(typeof p === 'string' ? utf8(p) : p))
    .join(' ');

function rdata(r: StoredRecord): string {
  const d = (r.data ?? {}) as Record<string, unknown>;
  switch (r.type) {
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return dot(r.content);
    case 'MX':
      return `${r.priority} ${dot(r.content)}`;
    case 'TXT':
      return txtZoneText(r.content);
    case 'SRV':
      return `${r.priority} ${r.content.replace(/ (\S+)$/, (_, t: string) => ` ${dot(t)}`)}`;
    case 'URI':
      return `${r.priority} ${d.weight} ${zoneText(d.target)}`;
    case 'CAA':
      return `${d.flags} ${d.tag} ${zoneText(d.value)}`;
    case 'HTTPS':
    case 'SVCB':
      // The target is a name: without its dot a reader would append the origin.
      return `${d.priority} ${dot(String(d.target))} ${d.value}`.trimEnd();
    case 'NAPTR':
      return `${d.order} ${d.preference} ${zoneText(d.flags)} ${zoneText(d.service)} ${zoneText(d.regex)} ${dot(String(d.replacement))}`;
    default:
      return r.content;
  }
}

/**
 * The zone as a BIND file. Cloudflare's own export writes the SOA owner without its dot and the SOA
 * minimum as 3600 (docs/sources/dns-api.md#export), which named-checkzone refuses ("SOA record not
 * at top of zone") and which is not the SOA the zone answers with; this one writes the SOA and NS
 * set the zone answers over DNS (lib/dns/apex.ts), so the file loads in BIND and Knot and answers
 * the same (spec/dns/bind-roundtrip.test.ts; the difference is declared as `loadable-export`).
 */
export function exportZone(zone: Zone, now: number): string {
  const soa = synthesisedSoa(zone, zone.name);
  const s = soa.data as {
    mname: string;
    rname: string;
    serial: number;
    refresh: number;
    retry: number;
    expire: number;
    minimum: number;
  };
  const out: string[] = [
    ';;',
    `;; Domain:     ${zone.name}.`,
    `;; Exported:   ${stamp(now)}`,
    ';;',
    ';; A BIND zone file written by the edge-doubles DNS double. Records with TTL 1 use the',
    ";; provider's automatic TTL; cf_tags comments carry proxy status, settings and tags.",
    ';;',
    '',
    ';; SOA Record',
    `${zone.name}.\t${soa.ttl}\tIN\tSOA\t${dot(s.mname)} ${dot(s.rname)} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minimum}`,
    '',
    ';; NS Records',
    ...synthesisedNs(zone, zone.name).map((ns) => `${zone.name}.\t${ns.ttl}\tIN\tNS\t${dot(String(ns.data))}`),
    '',
  ];
  const byType = new Map<string, StoredRecord[]>();
  for (const r of zone.sorted()) {
    const list = byType.get(r.type);
    if (list) list.push(r);
    else byType.set(r.type, [r]);
  }
  const types = [...byType.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  for (const type of types) {
    out.push(`;; ${type} Records`);
    for (const r of byType.get(type)!) {
      let line = `${r.name}.\t${r.ttl}\tIN\t${r.type}\t${lineSafe(rdata(r))}`;
      const tags: string[] = [];
      if (r.proxiable || r.proxied) tags.push(`cf-proxied:${r.proxied}`);
      if (r.settings.flatten_cname) tags.push('cf-flatten-cname');
      tags.push(...r.tags.map(quoteTag));
      const comment = r.comment ? `${r.comment} ` : '';
      // A comment that mentions cf_tags= is followed by a list (even empty) so import reads it back as the comment.
      const list = tags.length || comment.includes('cf_tags=') ? `cf_tags=${tags.join(',')}` : '';
      if (comment || list) line += ` ; ${comment}${list}`.trimEnd();
      out.push(line);
    }
    out.push('');
  }
  return out.join('\n');
}

const rank = (t: string) => {
  const i = SECTION_ORDER.indexOf(t);
  return i < 0 ? SECTION_ORDER.length : i;
};

// ---------------------------------------------------------------------------------------------
// Import

export interface ParsedZoneFile {
  records: RecordInput[];
  /** Record lines refused before they reach the zone (out-of-zone owners), with the reason. */
  skipped: { input: RecordInput; error: unknown }[];
  /** Record lines read, SOA and the zone's own NS set excluded. */
  parsed: number;
}

/** Splits a line into tokens and its trailing `;` comment, respecting quotes and escapes. */
function tokenize(line: string): { tokens: string[]; comment: string | undefined; rawRest: string[] } {
  const tokens: string[] = [];
  const rawRest: string[] = [];
  let i = 0;
  let comment: string | undefined;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === ';') {
      comment = line.slice(i + 1).trim();
      break;
    }
    let j = i;
    if (c === '"') {
      j++;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      j++;
    } else {
      while (j < line.length && !' \t;'.includes(line[j]!)) {
        if (line[j] === '"') {
          j++;
          while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
        }
        j++;
      }
    }
    const tok = line.slice(i, j);
    tokens.push(tok);
    rawRest.push(tok);
    i = j;
  }
  return { tokens, comment, rawRest };
}

/** Tokens outside quoted strings that hold `ch` (a `(` inside `"v=DKIM1; p=(x)"` is text, not grouping). */
const bare = (tokens: string[], ch: string) => tokens.some((t) => !t.startsWith('"') && t.includes(ch));
const ungroup = (tokens: string[]) => tokens.map((t) => (t.startsWith('"') ? t : t.replace(/[()]/g, ' ')));

/** Joins parenthesised continuations into one logical line, keeping the first line's comment. */
function logicalLines(text: string): { line: string; no: number }[] {
  const out: { line: string; no: number }[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const no = i + 1;
    const first = tokenize(line);
    if (bare(first.tokens, '(')) {
      const tokens = [...first.tokens];
      let comment = first.comment;
      while (!bare(tokens, ')') && i + 1 < lines.length) {
        i++;
        const next = tokenize(lines[i]!);
        tokens.push(...next.tokens);
        comment ??= next.comment;
      }
      // A blank start (the previous owner) must survive the join.
      const lead = /^[ \t]/.test(line) ? ' ' : '';
      line = lead + ungroup(tokens).join(' ') + (comment !== undefined ? ` ;${comment}` : '');
    }
    out.push({ line, no });
  }
  return out;
}

const CLASSES = new Set(['IN', 'CH', 'HS']);

const TTL_UNITS: Record<string, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };
/**
 * A TTL as BIND reads one: seconds (`3600`), or numbers with units summed (`1h`, `1d2h`, `1w`,
 * `90m`, case-insensitive; a last number without a unit is seconds, `1h30`). Undefined when the
 * token is not a TTL (so it may be a class or type).
 */
export function parseTtl(token: string): number | undefined {
  if (/^\d+$/.test(token)) return Number(token);
  if (!/^(?:\d+[wdhms])+\d*$/i.test(token)) return undefined;
  let total = 0;
  for (const [, n, unit] of token.matchAll(/(\d+)([wdhms]?)/gi))
    total += Number(n) * (unit ? TTL_UNITS[unit.toLowerCase()]! : 1);
  return total;
}

/**
 * TXT RDATA as the API's content: each token a character-string (RFC 1035 §5.1: `a b` is two
 * strings, as `"a" "b"` is). One plain word stays as written (today's mode stores content as sent);
 * otherwise every unquoted word is quoted, its escapes (`\\032`) kept, meaning what they meant.
 */
function txtContent(rd: string[]): string {
  if (rd.length === 1 && !rd[0]!.startsWith('"') && !rd[0]!.includes('\\')) return rd[0]!;
  return rd.map((t) => (t.startsWith('"') ? t : `"${t}"`)).join(' ');
}
/** A character-string of RDATA as text: quotes dropped, `\\X` is X and `\\DDD` the byte DDD (RFC 1035 §5.1), read as UTF-8. */
function zoneStringText(token: string): string {
  const s = token.startsWith('"') && token.endsWith('"') && token.length >= 2 ? token.slice(1, -1) : token;
  if (!s.includes('\\')) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      const ddd = /^\d{3}/.exec(s.slice(i + 1, i + 4));
      if (ddd && Number(ddd[0]) <= 255) {
        bytes.push(Number(ddd[0]));
        i += 3;
        continue;
      }
      i++;
    }
    bytes.push(...utf8(s[i]!));
  }
  return fromUtf8(new Uint8Array(bytes));
}
const unquote = (s: string) =>
  s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1).replace(/\\(.)/g, '$1') : s;

const TAG_ITEM = '(?:[^\\s,"]|"(?:[^"\\\\]|\\\\.)*")*';
const TAG_LIST = new RegExp(`^${TAG_ITEM}(?:\\s*,\\s*${TAG_ITEM})*\\s*$`);

/**
 * Where the `cf_tags=` list starts: the first `cf_tags=` (at the start or after a space) followed by
 * nothing but a tag list, so a comment that itself mentions `cf_tags=` stays the comment (the
 * export then always writes a list, empty if need be, after it).
 */
function cfTagsAt(comment: string): number {
  for (const m of comment.matchAll(/(^|\s)cf_tags=/g)) {
    const at = m.index + m[1]!.length;
    if (TAG_LIST.test(comment.slice(at + 'cf_tags='.length))) return at;
  }
  return -1;
}

/** Parses `cf_tags=a,b:v,c:"x,y"` out of a comment; the text before it is the record's comment. */
function parseComment(comment: string | undefined): {
  comment?: string;
  proxied?: boolean;
  flatten?: boolean;
  tags: string[];
} {
  if (!comment) return { tags: [] };
  const at = cfTagsAt(comment);
  const before = (at < 0 ? comment : comment.slice(0, at)).trim();
  const tags: string[] = [];
  let proxied: boolean | undefined;
  let flatten: boolean | undefined;
  if (at >= 0) {
    const list = comment.slice(at + 'cf_tags='.length).trim();
    for (const raw of list.match(/(?:[^,"]+|"(?:[^"\\]|\\.)*")+/g) ?? []) {
      const t = raw.trim();
      if (t === 'cf-proxied:true') proxied = true;
      else if (t === 'cf-proxied:false') proxied = false;
      else if (t === 'cf-flatten-cname') flatten = true;
      else if (t) {
        const colon = t.indexOf(':');
        tags.push(colon < 0 ? t : `${t.slice(0, colon)}:${unquote(t.slice(colon + 1))}`);
      }
    }
  }
  const out: { comment?: string; proxied?: boolean; flatten?: boolean; tags: string[] } = { tags };
  if (before) out.comment = before;
  if (proxied !== undefined) out.proxied = proxied;
  if (flatten) out.flatten = true;
  return out;
}

/** `$GENERATE start-stop[/step] lhs [ttl] [class] type rhs`, with `$` (and `${offset}`) substitution. */
function expandGenerate(tokens: string[]): string[] {
  const m = /^(\d+)-(\d+)(?:\/(\d+))?$/.exec(tokens[0] ?? '');
  if (!m) throw new Error('bad $GENERATE range');
  const [from, to, step] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 1)];
  if (to - from > 65535 || step < 1) throw new Error('bad $GENERATE range');
  const subst = (s: string, n: number) =>
    s.replace(/\$(\{(-?\d+)(?:,(\d+))?(?:,([doxX]))?\})?/g, (_, __, off?: string, width?: string, base?: string) => {
      const v = n + Number(off ?? 0);
      const text =
        base === 'x'
          ? v.toString(16)
          : base === 'X'
            ? v.toString(16).toUpperCase()
            : base === 'o'
              ? v.toString(8)
              : String(v);
      return text.padStart(Number(width ?? 0), '0');
    });
  const out: string[] = [];
  for (let n = from; n <= to; n += step)
    out.push(
      tokens
        .slice(1)
        .map((t) => subst(t, n))
        .join(' '),
    );
  return out;
}

const isProviderNs = (host: string, own: ReadonlySet<string>) => own.has(host) || host.endsWith('.ns.cloudflare.com');

export function parseZoneFile(text: string, zone: Zone, defaultProxied: boolean): ParsedZoneFile {
  let origin = zone.name;
  let defaultTtl: number | undefined;
  let owner: string | undefined;
  const records: RecordInput[] = [];
  const skipped: ParsedZoneFile['skipped'] = [];
  let parsed = 0;
  const ownNs = new Set(zone.nameServers);

  const absolute = (n: string): string => {
    if (n === '@') return origin;
    if (n.endsWith('.')) return n.slice(0, -1);
    return `${n}.${origin}`;
  };

  const handle = (line: string, no: number) => {
    if (!line.trim()) return;
    const startsBlank = /^[ \t]/.test(line);
    const { tokens, comment } = tokenize(line);
    if (tokens.length === 0) return;
    const first = tokens[0]!;
    if (first.toUpperCase() === '$INCLUDE') throw dnsErrors.includeNotAllowed();
    if (first.toUpperCase() === '$ORIGIN') {
      origin = asciiName(tokens[1] ?? '') ?? origin;
      return;
    }
    if (first.toUpperCase() === '$TTL') {
      defaultTtl = parseTtl(tokens[1] ?? '') ?? Number(tokens[1]);
      return;
    }
    if (first.toUpperCase() === '$GENERATE') {
      let lines: string[];
      try {
        lines = expandGenerate(tokens.slice(1));
      } catch (e) {
        throw dnsErrors.importParse(no, (e as Error).message);
      }
      for (const l of lines) handle(l, no);
      return;
    }
    let i = 0;
    if (!startsBlank) owner = absolute(tokens[i++]!);
    if (owner === undefined) throw dnsErrors.importParse(no, 'record without an owner name');
    // Owners compare as DNS names do (case, Unicode); the record keeps the owner as written.
    const ownerName = asciiName(owner) ?? owner.toLowerCase();
    let ttl = defaultTtl;
    let type: string | undefined;
    while (i < tokens.length && type === undefined) {
      const t = tokens[i++]!;
      const asTtl = parseTtl(t);
      if (asTtl !== undefined) ttl = asTtl;
      else if (CLASSES.has(t.toUpperCase())) continue;
      else type = t.toUpperCase();
    }
    if (type === undefined) throw dnsErrors.importParse(no, 'missing record type');
    const rd = tokens.slice(i);
    if (type === 'SOA') return;
    // The apex NS set is the provider's (this zone's or, in another zone's export, that zone's).
    if (type === 'NS' && ownerName === zone.name && isProviderNs((rd[0] ?? '').replace(/\.$/, '').toLowerCase(), ownNs))
      return;
    parsed++;
    const meta = parseComment(comment);
    const input: RecordInput = { type, name: owner, tags: meta.tags };
    // An absolute owner outside the zone is out-of-zone data (BIND ignores it): skipped with a
    // message, never made relative (the API's "append the zone" rule is for names in requests).
    if (ownerName !== zone.name && !ownerName.endsWith(`.${zone.name}`)) {
      skipped.push({ input, error: dnsErrors.invalidName() });
      return;
    }
    if (ttl !== undefined) input.ttl = ttl;
    if (meta.comment) input.comment = meta.comment;
    if (type === 'A' || type === 'AAAA' || type === 'CNAME') input.proxied = meta.proxied ?? defaultProxied;
    if (meta.flatten) input.settings = { flatten_cname: true };
    fillRdata(input, type, rd, absolute);
    records.push(input);
  };

  for (const { line, no } of logicalLines(text)) handle(line, no);
  return { records, skipped, parsed };
}

function fillRdata(input: RecordInput, type: string, rd: string[], absolute: (n: string) => string): void {
  const num = (s: string | undefined) => (s !== undefined && /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s);
  const host = (s: string | undefined) => (s === undefined ? '' : s === '.' ? '.' : absolute(s));
  switch (type) {
    case 'MX':
      input.priority = num(rd[0]) as number;
      input.content = host(rd[1]);
      return;
    case 'CNAME':
    case 'NS':
    case 'PTR':
      input.content = host(rd[0]);
      return;
    case 'TXT':
      input.content = txtContent(rd);
      return;
    case 'SRV':
      input.data = { priority: num(rd[0]), weight: num(rd[1]), port: num(rd[2]), target: host(rd[3]) };
      return;
    case 'URI':
      input.priority = num(rd[0]) as number;
      input.data = { weight: num(rd[1]), target: zoneStringText(rd[2] ?? '') };
      return;
    case 'CAA':
      input.data = { flags: num(rd[0]), tag: rd[1], value: zoneStringText(rd.slice(2).join(' ')) };
      return;
    case 'HTTPS':
    case 'SVCB':
      input.data = { priority: num(rd[0]), target: host(rd[1]), value: rd.slice(2).join(' ') };
      return;
    case 'NAPTR':
      input.data = {
        order: num(rd[0]),
        preference: num(rd[1]),
        flags: zoneStringText(rd[2] ?? ''),
        service: zoneStringText(rd[3] ?? ''),
        regex: zoneStringText(rd[4] ?? ''),
        replacement: host(rd[5]),
      };
      return;
    case 'LOC': {
      // d [m [s]] N|S d [m [s]] E|W alt[m] [size[m] [hp[m] [vp[m]]]]
      const t = rd.map((x) => x.replace(/m$/, ''));
      const lat = t.findIndex((x) => x === 'N' || x === 'S');
      const lon = t.findIndex((x) => x === 'E' || x === 'W');
      const part = (a: string[]) => [Number(a[0] ?? 0), Number(a[1] ?? 0), Number(a[2] ?? 0)];
      const [la, lm, ls] = part(t.slice(0, lat));
      const [oa, om, os] = part(t.slice(lat + 1, lon));
      const rest = t.slice(lon + 1).map(Number);
      input.data = {
        lat_degrees: la,
        lat_minutes: lm,
        lat_seconds: ls,
        lat_direction: t[lat],
        long_degrees: oa,
        long_minutes: om,
        long_seconds: os,
        long_direction: t[lon],
        altitude: rest[0] ?? 0,
        size: rest[1] ?? 1,
        precision_horz: rest[2] ?? 10000,
        precision_vert: rest[3] ?? 10,
      };
      return;
    }
    default:
      if (isDataType(type)) {
        // Numeric fields first, then the last field takes the rest (keys, digests, certificates).
        const fields = dataFields(type);
        const data: Record<string, unknown> = {};
        fields.forEach((f, k) => {
          data[f] = k === fields.length - 1 ? rd.slice(k).join('') : num(rd[k]);
        });
        input.data = data;
      } else {
        input.content = rd.join(' ');
      }
  }
}
