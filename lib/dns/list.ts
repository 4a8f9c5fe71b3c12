/**
 * Listing: filters, `match`/`tag_match`, order, direction and pages over one zone. Exact-name and
 * type filters pick candidates from the zone's indexes; the remaining filters run on those only.
 */
import { asciiName } from './names.js';
import { atOrBelow, shadowingNs } from './shadow.js';
import { cmp, defaultOrder, sortName, type StoredRecord, type Zone } from './zone.js';

export type TextOp = 'exact' | 'contains' | 'startswith' | 'endswith';

export interface ListQuery {
  type: string[];
  name: Partial<Record<TextOp, string[]>>;
  content: Partial<Record<TextOp, string[]>>;
  comment: Partial<Record<TextOp, string[]>> & { present?: boolean; absent?: boolean };
  tag: Partial<Record<TextOp, string[]>> & { present?: string[]; absent?: string[] };
  proxied?: boolean;
  match: 'all' | 'any';
  tagMatch: 'all' | 'any';
  search?: string;
  order: 'type' | 'name' | 'content' | 'ttl' | 'proxied';
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
  /** Shadow filters (normalised names); `shadowedByName` needs include_shadow_metadata. */
  shadowedByName?: string;
  shadowingName?: string;
}

export const emptyQuery = (): ListQuery => ({
  type: [],
  name: {},
  content: {},
  comment: {},
  tag: {},
  match: 'all',
  tagMatch: 'all',
  order: 'type',
  direction: 'asc',
  page: 1,
  perPage: 100,
});

export interface ListPage {
  records: StoredRecord[];
  total: number;
}

type Pred = (r: StoredRecord) => boolean;

const text = (op: TextOp, want: string): ((v: string) => boolean) => {
  const w = want.toLowerCase();
  switch (op) {
    case 'exact':
      return (v) => v.toLowerCase() === w;
    case 'contains':
      return (v) => v.toLowerCase().includes(w);
    case 'startswith':
      return (v) => v.toLowerCase().startsWith(w);
    case 'endswith':
      return (v) => v.toLowerCase().endsWith(w);
  }
};

const OPS: TextOp[] = ['exact', 'contains', 'startswith', 'endswith'];

/**
 * One tag filter. `name:value` (OAS24 `tag.exact/contains/startswith/endswith`) keeps records with a
 * tag of that name whose value matches, so `tag.endswith=env:od` finds `env:prod`; comparing the
 * whole `name:value` string would not. A bare `name` applies the operator to tag names (for
 * `.contains` the value is a tag name: docs/sources/dns-api.md#list). Tag filters are case-insensitive.
 */
function tagPred(op: TextOp, want: string): Pred {
  const colon = want.indexOf(':');
  if (colon < 0) {
    const f = text(op, want);
    return (r) => r.tags.some((t) => f(tagName(t)));
  }
  const name = want.slice(0, colon).toLowerCase();
  const f = text(op, want.slice(colon + 1));
  return (r) =>
    r.tags.some((t) => t.includes(':') && tagName(t).toLowerCase() === name && f(t.slice(t.indexOf(':') + 1)));
}
const tagName = (t: string) => (t.includes(':') ? t.slice(0, t.indexOf(':')) : t);

export function listRecords(zone: Zone, q: ListQuery): ListPage {
  const exactNames = [...new Set((q.name.exact ?? []).map((n) => asciiName(n) ?? n.toLowerCase()))];
  const types = [...new Set(q.type)];
  const preds: Pred[] = [];
  const onlyIndexed = (): boolean => preds.length === 0;

  // Filters that the indexes can answer.
  const namePreds = exactNames.map(
    (n): Pred =>
      (r) =>
        r.name === n,
  );
  // A type list is one filter: any of its types.
  const typeSet = new Set(types);
  const typePreds: Pred[] = types.length ? [(r) => typeSet.has(r.type)] : [];
  for (const op of OPS) if (op !== 'exact') for (const v of q.name[op] ?? []) preds.push((r) => text(op, v)(r.name));
  for (const op of OPS)
    for (const v of q.content[op] ?? []) {
      const f = text(op, v);
      preds.push((r) => f(r.content));
    }
  for (const op of OPS)
    for (const v of q.comment[op] ?? []) {
      const f = text(op, v);
      preds.push((r) => r.comment !== null && f(r.comment));
    }
  if (q.comment.present) preds.push((r) => r.comment !== null);
  if (q.comment.absent) preds.push((r) => r.comment === null);
  if (q.proxied !== undefined) {
    const p = q.proxied;
    preds.push((r) => r.proxied === p);
  }

  const tagPreds: Pred[] = [];
  for (const op of OPS) for (const v of q.tag[op] ?? []) tagPreds.push(tagPred(op, v));
  for (const n of q.tag.present ?? []) tagPreds.push(tagPred('exact', n.split(':')[0]!));
  for (const n of q.tag.absent ?? []) {
    const has = tagPred('exact', n.split(':')[0]!);
    tagPreds.push((r) => !has(r));
  }
  if (tagPreds.length) {
    preds.push(q.tagMatch === 'any' ? (r) => tagPreds.some((p) => p(r)) : (r) => tagPreds.every((p) => p(r)));
  }

  let candidates: readonly StoredRecord[];
  let inDefaultOrder = false;
  let filter: Pred | undefined;
  if (q.match === 'all') {
    if (exactNames.length > 1) candidates = [];
    else if (exactNames.length === 1) {
      candidates = zone.atName(exactNames[0]!);
      preds.push(...typePreds);
    } else if (types.length <= 1) {
      candidates = zone.sorted(types[0]);
      inDefaultOrder = true;
    } else {
      // The default order is by type first: each type's sorted list, types in order, is in it.
      candidates = [...types].sort(cmp).flatMap((t) => zone.sorted(t));
      inDefaultOrder = true;
    }
    if (!onlyIndexed()) filter = (r) => preds.every((p) => p(r));
  } else {
    const indexed = [...namePreds, ...typePreds];
    if (preds.length === 0 && indexed.length > 0) {
      // Only exact names and types: the union of their index entries.
      const set = new Set<StoredRecord>();
      for (const n of exactNames) for (const r of zone.atName(n)) set.add(r);
      for (const t of types) for (const r of zone.ofType(t)) set.add(r);
      candidates = [...set];
    } else {
      candidates = zone.sorted();
      inDefaultOrder = true;
      const all = [...indexed, ...preds];
      if (all.length) filter = (r) => all.some((p) => p(r));
    }
  }

  if (q.shadowedByName !== undefined || q.shadowingName !== undefined) {
    const allowed = new Set<StoredRecord>();
    const sets: Set<StoredRecord>[] = [];
    if (q.shadowedByName !== undefined) sets.push(new Set(atOrBelow(zone, q.shadowedByName)));
    if (q.shadowingName !== undefined) sets.push(new Set(shadowingNs(zone, q.shadowingName)));
    for (const r of sets[0]!) if (sets.every((set) => set.has(r))) allowed.add(r);
    const inner = filter;
    filter = (r) => allowed.has(r) && (!inner || inner(r));
  }

  if (q.search) {
    const s = q.search.toLowerCase();
    const inner = filter;
    filter = (r) =>
      (!inner || inner(r)) &&
      (r.name.includes(s) ||
        r.content.toLowerCase().includes(s) ||
        (r.comment ?? '').toLowerCase().includes(s) ||
        r.tags.some((t) => t.toLowerCase().includes(s)));
  }

  let matched = filter ? candidates.filter(filter) : candidates;
  if (q.order !== 'type' || !inDefaultOrder) matched = [...matched].sort(ORDERS[q.order]);
  const total = matched.length;
  const start = (q.page - 1) * q.perPage;
  let records: StoredRecord[];
  if (q.direction === 'desc') {
    const end = total - start;
    records = end <= 0 ? [] : matched.slice(Math.max(0, end - q.perPage), end).reverse();
  } else {
    records = start >= total ? [] : matched.slice(start, start + q.perPage);
  }
  return { records, total };
}

const ORDERS: Record<ListQuery['order'], (a: StoredRecord, b: StoredRecord) => number> = {
  type: defaultOrder,
  name: (a, b) => cmp(sortName(a), sortName(b)) || cmp(a.name, b.name) || defaultOrder(a, b),
  content: (a, b) => cmp(a.content.toLowerCase(), b.content.toLowerCase()) || defaultOrder(a, b),
  ttl: (a, b) => cmp(a.ttl, b.ttl) || defaultOrder(a, b),
  proxied: (a, b) => cmp(Number(a.proxied), Number(b.proxied)) || defaultOrder(a, b),
};
