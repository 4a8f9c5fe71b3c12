/**
 * The HTTP layer's reading of requests: JSON bodies into record inputs (with the API's errors for
 * wrong JSON types) and query strings into list queries (dotted keys, repeated params).
 */
import { dnsErrors } from './errors.js';
import { emptyQuery, type ListQuery, type TextOp } from './list.js';
import { asciiName } from './names.js';
import type { RecordInput } from './record-rules.js';
import type { BatchOps } from './zone.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseJsonObject(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw dnsErrors.invalidBody();
  }
  if (!isObject(body)) throw dnsErrors.invalidBody();
  return body;
}

/**
 * The request fields of a record the double reads: every field SDK 7.3 types on a record's create
 * parameters (spec/dns/sdk-fields.test.ts walks the SDK's types against this list).
 */
export const RECORD_REQUEST_FIELDS = [
  'type',
  'name',
  'content',
  'data',
  'priority',
  'ttl',
  'proxied',
  'comment',
  'tags',
  'settings',
  'private_routing',
] as const;

/** Known fields with the wrong JSON type fail as the API's Go decoder does (9207); unknown fields are ignored. */
export function recordInput(body: unknown): RecordInput {
  if (!isObject(body)) throw dnsErrors.invalidBody();
  const input: RecordInput = {};
  const str = (k: 'type' | 'name' | 'content') => {
    const v = body[k];
    if (v === undefined || v === null) return;
    if (typeof v !== 'string') throw dnsErrors.invalidBody();
    input[k] = v;
  };
  str('type');
  str('name');
  str('content');
  for (const k of ['ttl', 'priority'] as const) {
    const v = body[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number') throw dnsErrors.invalidBody();
    input[k] = v;
  }
  if (body.proxied !== undefined && body.proxied !== null) {
    if (typeof body.proxied !== 'boolean') throw dnsErrors.badProxiedValue();
    input.proxied = body.proxied;
  }
  if (body.private_routing !== undefined && body.private_routing !== null) {
    if (typeof body.private_routing !== 'boolean') throw dnsErrors.invalidBody();
    input.privateRouting = body.private_routing;
  }
  if (body.comment !== undefined) {
    if (body.comment !== null && typeof body.comment !== 'string') throw dnsErrors.invalidBody();
    input.comment = body.comment;
  }
  if (body.tags !== undefined && body.tags !== null) {
    if (!Array.isArray(body.tags) || !body.tags.every((t) => typeof t === 'string')) throw dnsErrors.invalidBody();
    input.tags = body.tags;
  }
  for (const k of ['data', 'settings'] as const) {
    const v = body[k];
    if (v === undefined || v === null) continue;
    if (!isObject(v)) throw dnsErrors.invalidBody();
    input[k] = v;
  }
  return input;
}

const idOf = (item: unknown): string => {
  if (!isObject(item) || typeof item.id !== 'string') throw dnsErrors.invalidBody();
  return item.id;
};

export function batchOps(body: Record<string, unknown>): BatchOps {
  const list = (k: string): unknown[] => {
    const v = body[k];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) throw dnsErrors.invalidBody();
    return v;
  };
  return {
    deletes: list('deletes').map((d) => ({ id: idOf(d) })),
    patches: list('patches').map((p) => ({ ...recordInput(p), id: idOf(p) })),
    puts: list('puts').map((p) => ({ ...recordInput(p), id: idOf(p) })),
    posts: list('posts').map((p) => recordInput(p)),
  };
}

const OPS: TextOp[] = ['exact', 'contains', 'startswith', 'endswith'];
const ORDERS = ['type', 'name', 'content', 'ttl', 'proxied'] as const;

function intParam(q: URLSearchParams, key: string, fallback: number, max: number): number {
  const raw = q.get(key);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw dnsErrors.badQuery(key, 'must be a positive integer');
  const n = Number(raw);
  if (n < 1 || n > max) throw dnsErrors.badQuery(key, `must be between 1 and ${max}`);
  return n;
}

function oneOf<T extends string>(q: URLSearchParams, key: string, values: readonly T[], fallback: T): T {
  const raw = q.get(key);
  if (raw === null || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw))
    throw dnsErrors.badQuery(key, `must be one of ${values.join(', ')}`);
  return raw as T;
}

/** `true`/`false` (or absent: false), as the SDK writes booleans. */
export function boolParam(q: URLSearchParams, key: string): boolean {
  const raw = q.get(key);
  if (raw === null || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw dnsErrors.badQuery(key, 'must be true or false');
}

export function listQuery(q: URLSearchParams, zoneName: string): ListQuery {
  const out = emptyQuery();
  // `type=A,AAAA` lists both (a dynamic-DNS client's CI checks it on a real zone; it was left out of
  // the 2025 removal of comma lists for name and content). A repeated `type=A&type=AAAA` is not
  // combined: the API reads the first (observed 2026). docs/conformance.md, the DNS API's "Choices between conflicting sources".
  const type = q.get('type');
  out.type = type
    ? [
        ...new Set(
          type
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ]
    : [];
  for (const field of ['name', 'content', 'comment', 'tag'] as const) {
    const target = out[field] as Partial<Record<TextOp, string[]>>;
    const bare = q.getAll(field);
    if (bare.length) target.exact = [...bare];
    for (const op of OPS) {
      const v = q.getAll(`${field}.${op}`);
      if (v.length) target[op] = [...(target[op] ?? []), ...v];
    }
  }
  if (q.has('comment.present')) out.comment.present = true;
  if (q.has('comment.absent')) out.comment.absent = true;
  if (q.has('tag.present')) out.tag.present = q.getAll('tag.present');
  if (q.has('tag.absent')) out.tag.absent = q.getAll('tag.absent');
  const proxied = q.get('proxied');
  if (proxied !== null && proxied !== '') {
    if (proxied !== 'true' && proxied !== 'false') throw dnsErrors.badQuery('proxied', 'must be true or false');
    out.proxied = proxied === 'true';
  }
  out.match = oneOf(q, 'match', ['all', 'any'], 'all');
  // cloudflare-go v0 spelled it with a hyphen.
  out.tagMatch = oneOf(q, q.has('tag_match') ? 'tag_match' : 'tag-match', ['all', 'any'], 'all');
  const search = q.get('search');
  if (search) out.search = search;
  const order = q.get('order');
  if (order !== null && order !== '' && !(ORDERS as readonly string[]).includes(order)) throw dnsErrors.badOrder();
  out.order = (order || 'type') as ListQuery['order'];
  out.direction = oneOf(q, 'direction', ['asc', 'desc'], 'asc');
  const shadowMeta = boolParam(q, 'include_shadow_metadata');
  for (const [key, field] of [
    ['shadowed_by_name', 'shadowedByName'],
    ['shadowing_name', 'shadowingName'],
  ] as const) {
    const raw = q.get(key);
    if (raw === null || raw === '') continue;
    if (key === 'shadowed_by_name' && !shadowMeta)
      throw dnsErrors.badQuery(key, 'requires include_shadow_metadata=true');
    const name = asciiName(raw);
    if (!name || name === zoneName || !name.endsWith(`.${zoneName}`))
      throw dnsErrors.badQuery(key, 'must be a subdomain of the zone');
    out[field] = name;
  }
  out.page = intParam(q, 'page', 1, Number.MAX_SAFE_INTEGER);
  out.perPage = intParam(q, 'per_page', 100, 5_000_000);
  return out;
}
