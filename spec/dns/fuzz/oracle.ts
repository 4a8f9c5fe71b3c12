/**
 * The fuzzer's oracles: what a response must look like whatever the request was (envelope, JSON,
 * schema), and the naive models the fake's answers are compared with (list filters and order,
 * the zone's invariants).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the fuzzer's random request bodies and the API's answers are JSON of any shape */
import { responseSchemaErrors } from '../support.js';
import { txtZoneText } from '../../../lib/dns/bind.js';

export type Rec = Record<string, any>;

/** JSON with sorted keys, so two bodies compare by value. */
export function canon(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/** Property 1 and 2: never a 5xx, JSON on every route but a successful export, a coherent envelope. */
export function envelopeProblems(
  method: string,
  url: URL,
  status: number,
  contentType: string,
  text: string,
  body: any,
): string[] {
  const out: string[] = [];
  if (status >= 500) out.push(`status ${status}`);
  const isExport = /\/dns_records\/export$/.test(url.pathname) && method === 'GET' && status === 200;
  if (isExport) {
    if (!contentType.startsWith('text/plain')) out.push(`export content-type ${contentType}`);
    return out;
  }
  if (!contentType.startsWith('application/json')) out.push(`content-type ${contentType}`);
  if (body === undefined) {
    out.push(`body is not JSON: ${text.slice(0, 200)}`);
    return out;
  }
  if (typeof body !== 'object' || body === null) return [...out, 'body is not an object'];
  const ok = status >= 200 && status < 300;
  if (body.success !== ok) out.push(`success ${body.success} with status ${status}`);
  if (!Array.isArray(body.errors)) out.push('errors is not an array');
  if (!Array.isArray(body.messages)) out.push('messages is not an array');
  if (!ok) {
    if (!Array.isArray(body.errors) || body.errors.length === 0) out.push('failure without errors');
    for (const e of body.errors ?? []) {
      if (typeof e?.code !== 'number' || typeof e?.message !== 'string')
        out.push(`bad error item ${JSON.stringify(e)}`);
    }
    if (body.result !== null) out.push('failure with a result');
  } else if (body.errors?.length) out.push('success with errors');
  // The schema knows nothing of OPENPGPKEY (newer than OAS24): those records are left out.
  let checked = body;
  if (ok && Array.isArray(body.result))
    checked = { ...body, result: body.result.filter((r: Rec) => r?.type !== 'OPENPGPKEY' && !schemaGap(r)) };
  const skip =
    ok && body.result && !Array.isArray(body.result) && (body.result.type === 'OPENPGPKEY' || schemaGap(body.result));
  if (!skip) for (const e of responseSchemaErrors(method, url.pathname, status, checked)) out.push(`schema: ${e}`);
  return out;
}

/** Punctuation-free name, the API's collation key for names. */
const nameKey = (n: string) => n.replace(/[^a-z0-9]/g, '');

type TextOp = 'exact' | 'contains' | 'startswith' | 'endswith';
type TagParam = 'tag' | 'tag.exact' | 'tag.contains' | 'tag.startswith' | 'tag.endswith' | 'tag.present' | 'tag.absent';

export interface ListFilter {
  type?: string;
  name?: string;
  /** A second `type` / `name` parameter (a second `name` is its own condition under `match`; a second `type` is ignored). */
  type2?: string;
  name2?: string;
  content?: string;
  proxied?: boolean;
  /** `name.<op>`, `content.<op>`, `comment.<op>` (op not exact for name/content: those are above). */
  text?: { field: 'name' | 'content' | 'comment'; op: TextOp; value: string }[];
  comment?: 'present' | 'absent';
  tags?: { param: TagParam; value: string }[];
  tagMatch?: 'all' | 'any';
  match?: 'all' | 'any';
  search?: string;
  order?: 'type' | 'name' | 'ttl' | 'content' | 'proxied';
  direction?: 'asc' | 'desc';
}

const fold = (s: string) => s.toLowerCase().replace(/\.$/, '');

const textOp = (op: TextOp, v: string, want: string) => {
  const a = v.toLowerCase();
  const w = want.toLowerCase();
  return op === 'exact'
    ? a === w
    : op === 'contains'
      ? a.includes(w)
      : op === 'startswith'
        ? a.startsWith(w)
        : a.endsWith(w);
};

const split = (tag: string) => {
  const c = tag.indexOf(':');
  return c < 0 ? { name: tag, value: '' } : { name: tag.slice(0, c), value: tag.slice(c + 1) };
};

/**
 * One tag condition, per the published schema: `name:value` forms compare the value of the tags of
 * that name (names case-insensitive); a bare name asks for a tag of that name (`tag`, `.exact`,
 * `.present`) or, for the other operators, applies the operator to tag names
 * (docs/sources/dns-api.md#list).
 */
function tagHolds(tags: string[], param: TagParam, want: string): boolean {
  const op = param === 'tag' || param === 'tag.exact' ? 'exact' : (param.slice(4) as TextOp | 'present' | 'absent');
  if (op === 'present' || op === 'absent') {
    const has = tags.some((t) => split(t).name.toLowerCase() === split(want).name.toLowerCase());
    return op === 'present' ? has : !has;
  }
  const w = split(want);
  if (!want.includes(':')) return tags.some((t) => textOp(op, split(t).name, w.name));
  return tags.some((t) => {
    const x = split(t);
    return t.includes(':') && x.name.toLowerCase() === w.name.toLowerCase() && textOp(op, x.value, w.value);
  });
}

/** The records a filter should match, by a plain scan of the whole zone. */
export function naiveFilter(records: Rec[], f: ListFilter): Rec[] {
  return records.filter((r) => {
    const preds: boolean[] = [];
    // `type` may be a comma list (any of its types); only the first `type` parameter is read.
    const types = (f.type ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (types.length) preds.push(types.includes(r.type));
    if (f.name !== undefined) preds.push(r.name === fold(f.name));
    if (f.name2 !== undefined && fold(f.name2) !== fold(f.name ?? '')) preds.push(r.name === fold(f.name2));
    if (f.content !== undefined) preds.push(String(r.content).toLowerCase() === f.content.toLowerCase());
    if (f.proxied !== undefined) preds.push(r.proxied === f.proxied);
    for (const t of f.text ?? []) {
      const v = t.field === 'comment' ? r.comment : r[t.field];
      preds.push(v !== null && v !== undefined && textOp(t.op, String(v), t.value));
    }
    if (f.comment) preds.push((r.comment !== null) === (f.comment === 'present'));
    if (f.tags?.length) {
      const each = f.tags.map((t) => tagHolds(r.tags, t.param, t.value));
      preds.push(f.tagMatch === 'any' ? each.some(Boolean) : each.every(Boolean));
    }
    const matched = preds.length === 0 || (f.match === 'any' ? preds.some(Boolean) : preds.every(Boolean));
    if (!matched) return false;
    if (f.search) {
      const q = f.search.toLowerCase();
      const hay = [r.name, String(r.content), r.comment ?? '', ...r.tags].map((x) => x.toLowerCase());
      if (!hay.some((x) => x.includes(q))) return false;
    }
    return true;
  });
}

/** The order key the API sorts by (ties unspecified); compared lexicographically. */
function orderKey(r: Rec, order: ListFilter['order']): (string | number)[] {
  switch (order ?? 'type') {
    case 'type':
      return [r.type, nameKey(r.name)];
    case 'name':
      return [nameKey(r.name)];
    case 'ttl':
      return [r.ttl];
    case 'content':
      return [String(r.content).toLowerCase()];
    case 'proxied':
      return [Number(r.proxied)];
  }
}

function cmpKeys(a: (string | number)[], b: (string | number)[]): number {
  for (let i = 0; i < a.length; i++) if (a[i]! !== b[i]!) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** Where a page breaks the requested order, or undefined. */
export function orderProblem(list: Rec[], f: ListFilter): string | undefined {
  const sign = f.direction === 'desc' ? -1 : 1;
  for (let i = 1; i < list.length; i++) {
    const c = cmpKeys(orderKey(list[i - 1]!, f.order), orderKey(list[i]!, f.order)) * sign;
    if (c > 0)
      return `out of ${f.order ?? 'type'} ${f.direction ?? 'asc'} order at ${i}: ${list[i - 1]!.type} ${list[i - 1]!.name} before ${list[i]!.type} ${list[i]!.name}`;
  }
  return undefined;
}

const ADDRESS = new Set(['A', 'AAAA']);

/** Property 4: the zone-wide rules every stored state must keep. */
export function zoneProblems(records: Rec[], zoneName: string): string[] {
  const out: string[] = [];
  const keys = new Map<string, string>();
  const byName = new Map<string, Rec[]>();
  const ids = new Set<string>();
  for (const r of records) {
    if (ids.has(r.id)) out.push(`duplicate id ${r.id}`);
    ids.add(r.id);
    if (r.name !== zoneName && !r.name.endsWith(`.${zoneName}`))
      out.push(`record ${r.id} named ${r.name} outside ${zoneName}`);
    if (r.zone_id !== undefined && r.zone_name !== zoneName) out.push(`record ${r.id} says zone ${r.zone_name}`);
    // Host names in data compare as DNS names (case, trailing dot).
    const host = (v: unknown) => (typeof v === 'string' && v !== '.' ? v.toLowerCase().replace(/\.$/, '') : v);
    const hex = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
    const b64 = (v: unknown) => (typeof v === 'string' ? v.replace(/\s/g, '') : v);
    const same = r.data
      ? canon({
          ...r.data,
          target: host(r.data.target),
          replacement: host(r.data.replacement),
          digest: hex(r.data.digest),
          fingerprint: hex(r.data.fingerprint),
          certificate: r.type === 'CERT' ? b64(r.data.certificate) : hex(r.data.certificate),
          public_key: b64(r.data.public_key),
        })
      : r.content;
    const key = `${r.type} ${r.name} ${same} ${r.priority ?? ''}`;
    if (keys.has(key)) out.push(`identical records ${keys.get(key)} and ${r.id}: ${key}`);
    keys.set(key, r.id);
    const list = byName.get(r.name) ?? [];
    list.push(r);
    byName.set(r.name, list);
    if (r.proxied && !['A', 'AAAA', 'CNAME'].includes(r.type)) out.push(`proxied ${r.type} ${r.id}`);
    if (r.proxied && r.ttl !== 1) out.push(`proxied record ${r.id} with ttl ${r.ttl}`);
  }
  for (const [name, list] of byName) {
    const cnames = list.filter((r) => r.type === 'CNAME').length;
    if (cnames > 1) out.push(`${cnames} CNAMEs at ${name}`);
    if (cnames && list.some((r) => ADDRESS.has(r.type))) out.push(`CNAME beside A/AAAA at ${name}`);
  }
  return out;
}

/**
 * A record as a zone file carries it: without what a fresh zone gives it anew (ids, times, its zone)
 * and modulo what the export format cannot say, which the report lists as known limits:
 * comments lose surrounding spaces, `ipv4_only`/`ipv6_only` and `private_routing` have no cf_tags form, and unquoted TXT
 * content (today's mode stores it as sent) comes back quoted, spaces between TXT strings collapse,
 * and an SRV target sent with a trailing dot comes back without it.
 */
export function portable(r: Rec): Rec {
  const {
    id: _id,
    created_on: _c,
    modified_on: _m,
    comment_modified_on: _cm,
    tags_modified_on: _tm,
    zone_id: _z,
    ...rest
  } = r;
  const out: Rec = { ...rest, settings: { ...rest.settings } };
  delete out.private_routing;
  delete out.settings.ipv4_only;
  delete out.settings.ipv6_only;
  if (typeof out.comment === 'string') out.comment = out.comment.trim() || null;
  // TXT comes back as the file wrote it: its character-strings, quoted, split at 255 bytes, bytes
  // outside printable ASCII as \DDD (so unquoted content comes back quoted, space between strings collapses).
  if (out.type === 'TXT') out.content = txtZoneText(String(out.content));
  // Base64 in data (CERT, DNSKEY) may hold spaces; the file's last field is read back joined.
  for (const k of ['certificate', 'public_key']) {
    if (out.type !== 'CERT' && out.type !== 'DNSKEY') continue;
    if (typeof out.data?.[k] === 'string' && /\s/.test(out.data[k])) {
      out.data = { ...out.data, [k]: out.data[k].replace(/\s/g, '') };
      out.content = String(out.content).replace(
        /^((?:\S+ ){3})(.*)$/,
        (_m: string, head: string, tail: string) => head + tail.replace(/\s/g, ''),
      );
    }
  }
  // An SRV target keeps its case and a trailing dot as sent; the file's absolute form loses the dot.
  if (out.type === 'SRV' && typeof out.data?.target === 'string' && out.data.target !== '.') {
    out.data = { ...out.data, target: out.data.target.replace(/\.$/, '') };
    out.content = String(out.content).replace(/\.$/, '');
  }
  // So do an HTTPS/SVCB target and a NAPTR replacement (written with their dot: issue 26).
  for (const k of ['target', 'replacement']) {
    if (
      !['HTTPS', 'SVCB', 'NAPTR'].includes(out.type) ||
      typeof out.data?.[k] !== 'string' ||
      out.data[k] === '.' ||
      !out.data[k].endsWith('.')
    )
      continue;
    const name: string = out.data[k];
    out.data = { ...out.data, [k]: name.slice(0, -1) };
    out.content = String(out.content).replace(` ${name}`, ` ${name.slice(0, -1)}`);
  }
  return out;
}

/**
 * Records whose round trip is a known limit, left out of the comparison: content with a raw line
 * break (exported as BIND \\DDD escapes, which import keeps as text), and HTTPS/SVCB values with
 * zone-file syntax in them (`;`, parentheses, runs of spaces), which are exported unescaped.
 */
export const roundTripLimit = (r: Rec) =>
  /[\r\n]|\\01[03]/.test(String(r.content)) ||
  ((r.type === 'HTTPS' || r.type === 'SVCB') && /[;()]|\s\s/.test(String(r.data?.value ?? r.content)));

/** Schema gaps (docs/conformance.md, DNS "Choices" 14 lists the others): null MX (RFC 7505) and an SRV target of "." are not hostnames to Ajv. */
const schemaGap = (r: Rec) => (r?.type === 'MX' && r.content === '.') || (r?.type === 'SRV' && r.data?.target === '.');

/**
 * Shadow metadata by a plain scan: an NS below the apex delegates its name, so records at or below
 * it (the NS and DS at the name itself excepted) are shadowed; an A/AAAA that an NS names is glue.
 */
export function naiveShadow(records: Rec[], zoneName: string): Map<string, Rec> {
  const out = new Map<string, Rec>();
  const below = (name: string, top: string) => name === top || name.endsWith(`.${top}`);
  const shadowing = (r: Rec) =>
    records.filter(
      (ns) =>
        ns.type === 'NS' &&
        ns.name !== zoneName &&
        below(r.name, ns.name) &&
        !(ns.name === r.name && (r.type === 'NS' || r.type === 'DS')),
    );
  const glue = (r: Rec, by: Rec[]) => (r.type === 'A' || r.type === 'AAAA') && by.some((ns) => ns.content === r.name);
  for (const r of records) {
    const meta: Rec = {};
    const by = shadowing(r);
    if (by.length) {
      if (glue(r, by)) meta.is_glue = true;
      else meta.shadowed_by = by.map((ns) => ns.id).sort();
    }
    if (r.type === 'NS' && r.name !== zoneName) {
      meta.shadowed_records_count = records.filter((o) => {
        if (o === r || !below(o.name, r.name)) return false;
        const oby = shadowing(o);
        return oby.includes(r) && !glue(o, oby);
      }).length;
    }
    out.set(r.id, meta);
  }
  return out;
}
