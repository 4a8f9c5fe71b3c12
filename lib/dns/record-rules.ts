/**
 * From a record's request fields to the fields the zone stores: every per-record rule (type, name,
 * content or data, TTL, proxying, comment, tags, settings), in the order chosen in
 * docs/sources/dns-api.md#create (the API's own order is not observed).
 * Rules that need the rest of the zone (conflicts, quota) live in zone.ts.
 */
import { isPrivateAddress, isProviderAddress } from './addresses.js';
import { dnsErrors } from './errors.js';
import { normaliseName } from './names.js';
import {
  PROXIABLE_TYPES,
  isDataType,
  isRecordType,
  needsPriority,
  normaliseContent,
  renderData,
} from './record-types.js';
import type { DnsLimits, DnsPlan } from './types.js';

/** A record's fields as a request states them; `undefined` = not sent, `null` = sent as null. */
export interface RecordInput {
  type?: string;
  name?: string;
  content?: string;
  data?: Record<string, unknown>;
  priority?: number;
  ttl?: number;
  proxied?: boolean;
  comment?: string | null;
  tags?: string[];
  settings?: Record<string, unknown>;
  /** `private_routing` (A/AAAA). */
  privateRouting?: boolean;
}

export interface RecordFields {
  type: string;
  name: string;
  content: string;
  priority?: number;
  data?: Record<string, unknown>;
  ttl: number;
  proxied: boolean;
  proxiable: boolean;
  comment: string | null;
  tags: string[];
  settings: Record<string, unknown>;
  /** `private_routing: true` on an A/AAAA record (SDK 7.3 types it there); absent otherwise. */
  privateRouting?: true;
  /** Identity for the duplicate rule: type, name, content, priority (not ttl, proxy, comment, tags). */
  key: string;
}

export interface RuleOptions {
  quoteTxt: boolean;
  providerAddresses: 'refuse' | 'refuse-proxied';
  labelRules: 'document' | 'today';
}

export interface ZoneFacts {
  name: string;
  plan: DnsPlan;
  limits: DnsLimits;
}

const TAG_NAME = /^[A-Za-z0-9_-]+$/;

export function recordFields(input: RecordInput, zone: ZoneFacts, opts: RuleOptions): RecordFields {
  const type = input.type;
  if (type === 'SPF') throw dnsErrors.spfDeprecated();
  if (type === undefined || !isRecordType(type)) throw dnsErrors.invalidType();

  const name = normaliseName(input.name ?? '', zone.name, {
    strictLabels: opts.labelRules === 'document' && PROXIABLE_TYPES.has(type),
  });

  let content: string;
  /** What the duplicate rule compares: the content, with data values in one spelling (record-types `sameValue`). */
  let identity: string;
  let priority: number | undefined;
  let data: Record<string, unknown> | undefined;
  if (isDataType(type)) {
    if (needsPriority(type)) priority = checkPriority(input.priority);
    const rendered = renderData(type, input.data, priority);
    data = rendered.data;
    content = rendered.content;
    identity = rendered.identity;
    if (type === 'SRV') priority = data.priority as number;
  } else {
    if (needsPriority(type)) priority = checkPriority(input.priority);
    content = normaliseContent(type, input.content ?? '', opts.quoteTxt);
    identity = content;
    if (type === 'CNAME' && content === name) throw dnsErrors.cnameSelf();
  }

  const ttlIn = input.ttl ?? 1;
  if (!Number.isInteger(ttlIn) || (ttlIn !== 1 && (ttlIn < zone.limits.minTtl || ttlIn > 86400)))
    throw dnsErrors.badTtl();

  const address = type === 'A' || type === 'AAAA' ? type : undefined;
  const isPrivate = address !== undefined && isPrivateAddress(address, content);
  const isProvider = address !== undefined && isProviderAddress(address, content);
  const proxied = input.proxied ?? false;
  if (isProvider && (proxied || opts.providerAddresses === 'refuse')) throw dnsErrors.providerAddress(content);
  if (proxied) {
    if (!PROXIABLE_TYPES.has(type)) throw dnsErrors.notProxiableType();
    if (isPrivate) throw dnsErrors.notProxiableContent();
  }
  const proxiable = PROXIABLE_TYPES.has(type) && !isPrivate && !isProvider;
  // Proxied records answer with the automatic TTL whatever was asked (docs/sources/dns-api.md#ttl).
  const ttl = proxied ? 1 : ttlIn;

  const comment = input.comment === undefined || input.comment === null || input.comment === '' ? null : input.comment;
  if (comment !== null) {
    if (/[\r\n]/.test(comment)) throw dnsErrors.commentInvalid();
    if (moreCharactersThan(comment, zone.limits.commentLength))
      throw dnsErrors.commentTooLong(zone.limits.commentLength);
  }

  const tags = [...new Set(input.tags ?? [])];
  for (const tag of tags) {
    const colon = tag.indexOf(':');
    const tagName = colon < 0 ? tag : tag.slice(0, colon);
    if (!TAG_NAME.test(tagName) || /[\r\n]/.test(tag)) throw dnsErrors.tagInvalid(tag);
  }
  if (tags.length > zone.limits.tags) throw dnsErrors.tagQuota(tags.length, zone.limits.tags);

  const settings = recordSettings(type, input.settings ?? {}, proxied, zone.plan);

  const fields: RecordFields = { type, name, content, ttl, proxied, proxiable, comment, tags, settings, key: '' };
  if (priority !== undefined) fields.priority = priority;
  if (data !== undefined) fields.data = data;
  // Only address records route privately; elsewhere the field is ignored like any unknown one.
  if (input.privateRouting && address !== undefined) fields.privateRouting = true;
  fields.key = `${type}\n${name}\n${identity}\n${priority ?? ''}`;
  return fields;
}

/**
 * Whether `s` holds more than `max` characters (code points, a pair of surrogates being one), without
 * copying it: spreading a 60 MB comment into an array to count it cost over a GiB. n code units hold
 * between n/2 and n code points, so most strings are judged by their length alone.
 */
export function moreCharactersThan(s: string, max: number): boolean {
  if (s.length <= max) return false;
  if (s.length > 2 * max) return true;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    if (++n > max) return true;
  }
  return false;
}

function checkPriority(p: number | undefined): number {
  if (p === undefined) throw dnsErrors.missingPriority();
  if (!Number.isInteger(p) || p < 0 || p > 65535) throw dnsErrors.badData('priority');
  return p;
}

/** Keys appear only when set, except CNAME's flatten_cname, which real responses always carry. */
function recordSettings(type: string, given: Record<string, unknown>, proxied: boolean, plan: DnsPlan) {
  const out: Record<string, unknown> = {};
  for (const k of ['ipv4_only', 'ipv6_only'] as const) {
    if (given[k] === undefined || given[k] === null) continue;
    if (typeof given[k] !== 'boolean') throw dnsErrors.invalidBody();
    if (given[k]) out[k] = true;
  }
  if (out.ipv4_only && out.ipv6_only) throw dnsErrors.settingInvalid('ipv4_only and ipv6_only cannot both be set.');
  if (type === 'CNAME') {
    const flatten = given.flatten_cname ?? false;
    if (typeof flatten !== 'boolean') throw dnsErrors.invalidBody();
    if (flatten && plan === 'free')
      throw dnsErrors.settingInvalid('CNAME flattening of a subdomain requires a paid plan.');
    if (flatten && proxied) throw dnsErrors.settingInvalid('A proxied CNAME record cannot set flatten_cname.');
    out.flatten_cname = flatten;
  }
  return out;
}

/** The request fields that re-create `f` (PATCH merges onto these). */
export function inputOf(f: RecordFields): RecordInput {
  const input: RecordInput = {
    type: f.type,
    name: f.name,
    content: f.content,
    ttl: f.ttl,
    proxied: f.proxied,
    comment: f.comment,
    tags: f.tags,
    settings: f.settings,
  };
  if (f.data) input.data = f.data;
  if (f.priority !== undefined) input.priority = f.priority;
  if (f.privateRouting) input.privateRouting = true;
  return input;
}
