/**
 * The account's DNS settings and its internal DNS views over `/client/v4` (cloudflare/api-schemas
 * 2026-08-14, "DNS Settings for an Account" and "DNS Internal Views for an Account"; the SDK's
 * `dns.settings.account` and `dns.settings.account.views`):
 *
 *   GET|PATCH /accounts/{a}/dns_settings                 `{ zone_defaults, enforce_dns_only }`
 *   GET|POST  /accounts/{a}/dns_settings/views           list (filters, paging, order), create `{ name, zones }`
 *   GET|PATCH|DELETE /accounts/{a}/dns_settings/views/{id}
 *
 * Both are the account's DNS backend's (backend.ts): a plain value replaced whole, so the backend's
 * snapshot takes it in O(1) and `--persist` writes it when it changes. The
 * zone defaults are what a zone made afterwards starts with (`zoneDefaultsFor`: the schema's
 * "Default settings for new zones created in this account"), through the API or `addZone`.
 *
 * Views, as the DNS views page says (developers.cloudflare.com/dns/internal-dns/dns-views/): a view
 * may be empty, its name is unique in the account, and two zones of one name cannot be in one view.
 * A view's zones must be zones of the account. The double has no internal zones (a view there may
 * hold only internal ones), so it takes any zone of the account; see docs/conformance.md (DNS
 * choices) for this and the placeholder answers: a body or query the schema refuses is
 * `400 1004 DNS Validation Error: <why>` (the zone settings' form), an unknown view `404 1004`.
 */
import { ok, paging } from '../api/envelope.js';
import { apiErrors, fail } from '../api/errors.js';
import {
  HEX32,
  positiveParam,
  type ApiService,
  type Handler,
  type Incoming,
  type Route,
  type RouteTable,
} from '../api/router.js';
import { randomHex } from '../random.js';
import type { BackendHost } from '../support/backend.js';
import { DNS, type AccountDns, type DnsBackend, type DnsView } from './backend.js';
import { timestamp } from './present.js';

/** The account's DNS settings and views now (a new account's until changed). */
const accountDns = (host: BackendHost): AccountDns => host.backend(DNS).settings;

/** Replaces the account's DNS settings and views (never changed in place: a snapshot is the value). */
function setAccountDns(host: BackendHost, dns: AccountDns): void {
  host.backend(DNS).settings = dns;
}

const bad = (why: string) => fail(400, 1004, `DNS Validation Error: ${why}`);
/** placeholder: a view id the account does not have. Not established. */
const noSuchView = () => fail(404, 1004, 'DNS Validation Error: the DNS view does not exist');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

async function bodyObject(req: Incoming): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = JSON.parse(await req.text());
  } catch {
    throw bad('the request body is not valid JSON');
  }
  if (!isObject(v)) throw bad('the request body must be an object');
  return v;
}

// ---- settings --------------------------------------------------------------------------------

/** The SOA fields' bounds (the schema's dns-settings SOA, as the zone's: zone-admin.ts). */
const SOA_BOUNDS: Record<string, [number, number]> = {
  expire: [86400, 2419200],
  min_ttl: [60, 86400],
  refresh: [600, 86400],
  retry: [600, 86400],
  ttl: [300, 86400],
};

/** The account's nameserver types (the SDK's `ZoneDefaults.Nameservers.type`). */
const NAMESERVER_TYPES: ReadonlySet<string> = new Set([
  'cloudflare.standard',
  'cloudflare.advanced',
  'cloudflare.standard.random',
  'custom.account',
  'custom.tenant',
]);

/**
 * The zone defaults in full: each field the SDK's `ZoneDefaults` requires, a new account's value
 * until set (those of a new zone: zone-admin.ts), `soa.mname` null ("a Cloudflare-assigned value").
 */
function zoneDefaults(dns: AccountDns): Record<string, unknown> {
  const set = dns.zoneDefaults;
  return {
    flatten_all_cnames: false,
    foundation_dns: false,
    internal_dns: {},
    multi_provider: false,
    nameservers: { type: 'cloudflare.standard' },
    ns_ttl: 86400,
    secondary_overrides: false,
    zone_mode: 'standard',
    ...set,
    soa: {
      expire: 604800,
      min_ttl: 1800,
      mname: null,
      refresh: 10000,
      retry: 2400,
      rname: 'dns.cloudflare.com',
      ttl: 3600,
      ...(set.soa as object | undefined),
    },
  };
}

/** What a zone made now starts with (zone-settings.ts `dns`, and its flatten_all_cnames), or undefined before any default was set. */
export function zoneDefaultsFor(
  dns: DnsBackend,
): { dns: Record<string, unknown>; flattenAllCnames: boolean | undefined } | undefined {
  const set = dns.settings.zoneDefaults;
  if (Object.keys(set).length === 0) return undefined;
  const { flatten_all_cnames, soa, ...rest } = set;
  const settings: Record<string, unknown> = { ...rest };
  // A null mname leaves the zone's own (its first name server), as the schema's "Cloudflare-assigned".
  if (isObject(soa)) {
    const { mname, ...others } = soa;
    settings.soa = mname === null || mname === undefined ? others : { ...others, mname };
  }
  return { dns: settings, flattenAllCnames: typeof flatten_all_cnames === 'boolean' ? flatten_all_cnames : undefined };
}

/** The zone defaults a PATCH gives, judged whole before anything changes (the SDK's `AccountEditParams.ZoneDefaults`). */
function patchedDefaults(current: Readonly<Record<string, unknown>>, raw: unknown): Record<string, unknown> {
  if (!isObject(raw)) throw bad('zone_defaults must be an object');
  const next: Record<string, unknown> = { ...current };
  for (const k of ['flatten_all_cnames', 'foundation_dns', 'multi_provider', 'secondary_overrides']) {
    if (raw[k] === undefined) continue;
    if (typeof raw[k] !== 'boolean') throw bad(`zone_defaults.${k} must be a boolean`);
    next[k] = raw[k];
  }
  if (raw.ns_ttl !== undefined) {
    const v = raw.ns_ttl;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 30 || v > 86400)
      throw bad('zone_defaults.ns_ttl must be an integer from 30 to 86400');
    next.ns_ttl = v;
  }
  if (raw.zone_mode !== undefined) {
    if (raw.zone_mode !== 'standard' && raw.zone_mode !== 'cdn_only' && raw.zone_mode !== 'dns_only')
      throw bad('zone_defaults.zone_mode must be standard, cdn_only or dns_only');
    next.zone_mode = raw.zone_mode;
  }
  if (raw.nameservers !== undefined) {
    const ns = raw.nameservers;
    if (!isObject(ns) || typeof ns.type !== 'string' || !NAMESERVER_TYPES.has(ns.type))
      throw bad(`zone_defaults.nameservers.type must be one of ${[...NAMESERVER_TYPES].join(', ')}`);
    next.nameservers = { type: ns.type };
  }
  if (raw.internal_dns !== undefined) {
    if (!isObject(raw.internal_dns)) throw bad('zone_defaults.internal_dns must be an object');
    const ref = raw.internal_dns.reference_zone_id;
    if (ref !== undefined && typeof ref !== 'string')
      throw bad('zone_defaults.internal_dns.reference_zone_id must be a zone identifier');
    next.internal_dns = ref === undefined ? {} : { reference_zone_id: ref };
  }
  if (raw.soa !== undefined) {
    if (!isObject(raw.soa)) throw bad('zone_defaults.soa must be an object');
    const soa: Record<string, unknown> = { ...(next.soa as object | undefined) };
    for (const [k, v] of Object.entries(raw.soa)) {
      const bounds = SOA_BOUNDS[k];
      if (bounds) {
        if (typeof v !== 'number' || !Number.isInteger(v) || v < bounds[0] || v > bounds[1])
          throw bad(`zone_defaults.soa.${k} must be an integer from ${bounds[0]} to ${bounds[1]}`);
      } else if (k === 'mname') {
        if (v !== null && (typeof v !== 'string' || v === ''))
          throw bad('zone_defaults.soa.mname must be a name or null');
      } else if (k === 'rname') {
        if (typeof v !== 'string' || v === '') throw bad('zone_defaults.soa.rname must be a name');
      } else throw bad(`zone_defaults.soa.${k} is not a field of the SOA settings`);
      soa[k] = v;
    }
    next.soa = soa;
  }
  return next;
}

const presentSettings = (dns: AccountDns) => ({
  zone_defaults: zoneDefaults(dns),
  enforce_dns_only: dns.enforceDnsOnly,
});

const getSettings: Handler<ApiService> = (svc, _req, params) =>
  ok(presentSettings(accountDns(params.account ?? svc.account)));

const patchSettings: Handler<ApiService> = async (svc, req, params) => {
  const account = params.account ?? svc.account;
  const b = await bodyObject(req);
  const dns = accountDns(account);
  const zoneDefaults =
    b.zone_defaults === undefined ? dns.zoneDefaults : patchedDefaults(dns.zoneDefaults, b.zone_defaults);
  if (b.enforce_dns_only !== undefined && typeof b.enforce_dns_only !== 'boolean')
    throw bad('enforce_dns_only must be a boolean');
  const next: AccountDns = Object.freeze({
    ...dns,
    zoneDefaults: Object.freeze(zoneDefaults),
    enforceDnsOnly: (b.enforce_dns_only as boolean | undefined) ?? dns.enforceDnsOnly,
  });
  setAccountDns(account, next);
  return ok(presentSettings(next));
};

// ---- views -------------------------------------------------------------------------------------

const presentView = (v: DnsView) => ({
  id: v.id,
  name: v.name,
  zones: [...v.zones],
  created_time: timestamp(v.created),
  modified_time: timestamp(v.modified),
});

/** A view's name: a non-empty string of at most 255 characters (our bound: the schema's is not read). */
function viewName(v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '' || v.length > 255)
    throw bad('name must be a non-empty string of at most 255 characters');
  return v;
}

/** A view's zones: ids of the account's zones, no two of one name, each once. */
function viewZones(account: BackendHost, v: unknown): string[] {
  if (!Array.isArray(v) || !v.every((z) => typeof z === 'string')) throw bad('zones must be an array of zone ids');
  const names = new Map<string, string>();
  const zones = account.backend(DNS).zones;
  for (const id of v as string[]) {
    const zone = zones.get(id);
    if (!zone) throw bad(`zone ${id} is not a zone of this account`);
    const other = names.get(zone.name);
    if (other !== undefined && other !== id)
      throw bad(`zones ${other} and ${id} are both named ${zone.name}: a view holds one zone of a name`);
    names.set(zone.name, id);
  }
  return [...new Set(v as string[])];
}

function nameTaken(dns: AccountDns, name: string, except?: string): void {
  if (dns.views.some((v) => v.name === name && v.id !== except))
    throw bad(`a DNS view named ${name} already exists in this account`);
}

const VIEW_ORDERS: Record<string, (v: DnsView) => string | number> = {
  name: (v) => v.name,
  created_on: (v) => v.created,
  modified_on: (v) => v.modified,
};

const listViews: Handler<ApiService> = (svc, req, params) => {
  const account = params.account ?? svc.account;
  const q = req.url.searchParams;
  const page = positiveParam(q.get('page'), 1, 'page');
  const perPage = positiveParam(q.get('per_page'), 20, 'per_page');
  const match = q.get('match') ?? 'all';
  if (match !== 'all' && match !== 'any') throw apiErrors.badQuery('match', 'must be any or all');
  const order = q.get('order');
  if (order !== null && !(order in VIEW_ORDERS))
    throw apiErrors.badQuery('order', 'must be name, created_on or modified_on');
  const direction = q.get('direction');
  if (direction !== null && direction !== 'asc' && direction !== 'desc')
    throw apiErrors.badQuery('direction', 'must be asc or desc');
  // `name` is the schema's alias of `name.exact`; the SDK sends the others as `name.contains`, ...
  const exact = q.get('name.exact') ?? q.get('name');
  const filters: ((v: DnsView) => boolean)[] = [];
  if (exact !== null) filters.push((v) => v.name === exact);
  const contains = q.get('name.contains');
  if (contains !== null) filters.push((v) => v.name.includes(contains));
  const starts = q.get('name.startswith');
  if (starts !== null) filters.push((v) => v.name.startsWith(starts));
  const ends = q.get('name.endswith');
  if (ends !== null) filters.push((v) => v.name.endsWith(ends));
  const zoneId = q.get('zone_id');
  if (zoneId !== null) filters.push((v) => v.zones.includes(zoneId));
  const zoneName = q.get('zone_name');
  if (zoneName !== null) {
    const zones = account.backend(DNS).zones;
    filters.push((v) => v.zones.some((id) => zones.get(id)?.name === zoneName));
  }
  const test = (v: DnsView) =>
    filters.length === 0 || (match === 'any' ? filters.some((f) => f(v)) : filters.every((f) => f(v)));
  let all = accountDns(account).views.filter(test);
  if (order !== null) {
    const key = VIEW_ORDERS[order]!;
    all = [...all].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  if (direction === 'desc') all = [...all].reverse();
  const slice = all.slice((page - 1) * perPage, page * perPage);
  return ok(slice.map(presentView), paging(page, perPage, slice.length, all.length));
};

const createView: Handler<ApiService> = async (svc, req, params) => {
  const account = params.account ?? svc.account;
  const b = await bodyObject(req);
  const name = viewName(b.name);
  const zones = viewZones(account, b.zones);
  const dns = accountDns(account);
  nameTaken(dns, name);
  const now = svc.now();
  const view: DnsView = Object.freeze({ id: randomHex(16), name, zones, created: now, modified: now });
  setAccountDns(account, Object.freeze({ ...dns, views: [...dns.views, view] }));
  return ok(presentView(view));
};

function viewOf(account: BackendHost, id: string): DnsView {
  const v = accountDns(account).views.find((x) => x.id === id);
  if (!v) throw noSuchView();
  return v;
}

const getView =
  (id: string): Handler<ApiService> =>
  (svc, _req, params) =>
    ok(presentView(viewOf(params.account ?? svc.account, id)));

const editView =
  (id: string): Handler<ApiService> =>
  async (svc, req, params) => {
    const account = params.account ?? svc.account;
    const v = viewOf(account, id);
    const b = await bodyObject(req);
    const name = b.name === undefined ? v.name : viewName(b.name);
    const zones = b.zones === undefined ? v.zones : viewZones(account, b.zones);
    const dns = accountDns(account);
    nameTaken(dns, name, id);
    const next: DnsView = Object.freeze({ ...v, name, zones, modified: svc.now() });
    setAccountDns(account, Object.freeze({ ...dns, views: dns.views.map((x) => (x.id === id ? next : x)) }));
    return ok(presentView(next));
  };

const deleteView =
  (id: string): Handler<ApiService> =>
  (svc, _req, params) => {
    const account = params.account ?? svc.account;
    viewOf(account, id);
    const dns = accountDns(account);
    setAccountDns(account, Object.freeze({ ...dns, views: dns.views.filter((x) => x.id !== id) }));
    return ok({ id });
  };

/** A view's path names it by a 32-hex id (the schema's dns-settings_identifier); anything else is no view. */
const VIEW_ID = /^[0-9a-f]{32}$/;

export const accountDnsRoutes: RouteTable<ApiService> = (segments): Route<ApiService> | undefined => {
  if (segments[0] !== 'accounts' || segments[2] !== 'dns_settings') return undefined;
  const accountId = segments[1]!;
  if (!HEX32.test(accountId)) return undefined;
  if (segments.length === 3) return { methods: { GET: getSettings, PATCH: patchSettings }, accountId };
  if (segments[3] !== 'views') return undefined;
  if (segments.length === 4) return { methods: { GET: listViews, POST: createView }, accountId };
  if (segments.length === 5 && VIEW_ID.test(segments[4]!)) {
    const id = segments[4]!;
    return { methods: { GET: getView(id), PATCH: editView(id), DELETE: deleteView(id) }, accountId };
  }
  return undefined;
};
