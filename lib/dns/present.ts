/** How records and zones look on the wire: field order, timestamps, retired fields. */
import { toHex, utf8 } from '../bytes.js';
import { digest } from '../hash.js';
import type { DnsPlan, DnsRecord, DnsUser, DnsZone } from './types.js';
import { shadowMeta } from './shadow.js';
import type { StoredRecord, Zone } from './zone.js';
import { zoneSettings } from './zone-settings.js';
import { PLANS } from './plans.js';

/** RFC 3339 UTC with the fraction's trailing zeros trimmed, as Go's RFC3339Nano writes it. */
export function timestamp(ms: number): string {
  // Records made in one request (and created/modified pairs) share a millisecond: format it once.
  if (ms !== lastMs) {
    lastMs = ms;
    lastText = new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
  }
  return lastText;
}
let lastMs = NaN;
let lastText = '';

export function presentRecord(r: StoredRecord, zone: Zone, retiredFields: boolean, shadow = false): DnsRecord {
  const out: Partial<DnsRecord> = { id: r.id };
  if (retiredFields) {
    out.zone_id = zone.id;
    out.zone_name = zone.name;
  }
  out.name = r.name;
  out.type = r.type;
  out.content = r.content;
  if (r.priority !== undefined) out.priority = r.priority;
  out.proxiable = r.proxiable;
  out.proxied = r.proxied;
  if (r.privateRouting) out.private_routing = true;
  out.ttl = r.ttl;
  if (retiredFields) out.locked = false;
  if (r.data) out.data = { ...r.data };
  out.settings = { ...r.settings };
  out.meta = retiredFields
    ? { auto_added: false, managed_by_apps: false, managed_by_argo_tunnel: false, source: 'primary' }
    : {};
  if (shadow) Object.assign(out.meta, shadowMeta(zone, r));
  out.comment = r.comment;
  out.tags = [...r.tags];
  out.created_on = timestamp(r.created);
  out.modified_on = timestamp(r.modified);
  if (r.commentModified !== undefined) out.comment_modified_on = timestamp(r.commentModified);
  if (r.tagsModified !== undefined) out.tags_modified_on = timestamp(r.tagsModified);
  return out as DnsRecord;
}

/**
 * A zone as `GET /zones` answers it: the fields and their order are those of dns-lexicon's recording
 * of a free zone (tests/fixtures/cassettes/cloudflare, 2025-08), `vanity_name_servers` `[]` and
 * `vanity_name_servers_ips` null (none are set), an empty `tenant` and `tenant_unit` (the zone is no
 * tenant's); the plan's id is production's rate plan id (plans.ts).
 */
export function presentZone(z: Zone, account: { id: string; name: string }): DnsZone {
  const settings = zoneSettings(z);
  const at = timestamp(z.created);
  const plan = PLANS[z.plan];
  return {
    id: z.id,
    name: z.name,
    status: 'active',
    paused: settings.paused,
    type: settings.type,
    development_mode: 0,
    name_servers: [...z.nameServers],
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    modified_on: settings.modified === undefined ? at : timestamp(settings.modified),
    created_on: at,
    activated_on: at,
    vanity_name_servers: [],
    vanity_name_servers_ips: null,
    meta: { step: 4, custom_certificate_quota: 0, page_rule_quota: 3, phishing_detected: false },
    owner: { id: null, type: 'user', email: null },
    account: { id: account.id, name: account.name },
    tenant: { id: null, name: null },
    tenant_unit: { id: null },
    permissions: ['#dns_records:edit', '#dns_records:read', '#zone:read'],
    plan: {
      id: plan.id,
      name: plan.name,
      price: 0,
      currency: 'USD',
      frequency: '',
      is_subscribed: z.plan !== 'free',
      can_subscribe: false,
      legacy_id: z.plan,
      legacy_discount: false,
      externally_managed: false,
    },
  };
}

/** The user object of `GET /user`, in the SDK's field set; the id is stable per e-mail. */
export function presentUser(email: string, plans: ReadonlySet<DnsPlan>): DnsUser {
  return {
    id: toHex(digest('md5', utf8(`edge-doubles user ${email.toLowerCase()}`))),
    email,
    first_name: null,
    last_name: null,
    telephone: null,
    country: null,
    zipcode: null,
    two_factor_authentication_enabled: false,
    two_factor_authentication_locked: false,
    has_pro_zones: plans.has('pro'),
    has_business_zones: plans.has('business'),
    has_enterprise_zones: plans.has('enterprise'),
    suspended: false,
    betas: [],
    organizations: [],
  };
}
