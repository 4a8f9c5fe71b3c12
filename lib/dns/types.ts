/** Plans decide quotas; the numbers are the documented defaults and every one can be overridden. */
export type DnsPlan = 'free' | 'pro' | 'business' | 'enterprise';

/** A zone's quotas, set by its plan; `limits` on a zone overrides any of them. */
export interface DnsLimits {
  /** Records per zone (Free 200, paid 3,500, Enterprise 1,000,000 pool). */
  records: number;
  /** Tags per record (0 on Free). */
  tags: number;
  /** Comment length in characters. */
  commentLength: number;
  /** Changes per batch request (200 Free, 3,500 paid). */
  batch: number;
  /** Lowest custom TTL (30 on Enterprise, 60 otherwise). */
  minTtl: number;
}

/** A zone as `new DnsApi({ zones })` and `addZone` take it: its name, and optionally its id, plan, limits, nameservers and seed records. */
export interface DnsZoneInit {
  /** The zone's apex, e.g. `example.com` (any case, trailing dot allowed, Unicode becomes punycode). */
  name: string;
  /** 32 lowercase hex characters; generated when absent. */
  id?: string;
  /** Default `'free'`, as a new zone is. */
  plan?: DnsPlan;
  /** Overrides of the plan's limits. */
  limits?: Partial<DnsLimits>;
  /** Records to start with (see `DnsApi.seed`). */
  records?: readonly DnsRecordSeed[];
  /**
   * The zone's nameservers (`name_servers` in the API, and the apex NS set and SOA MNAME in DNS
   * answers). Default: two `<name>.ns.cloudflare.com` names derived from the id, as Cloudflare
   * assigns. Name them inside one of the account's zones, with A records there, when a client's
   * propagation check resolves them and asks each one.
   */
  nameServers?: readonly string[];
  /**
   * The zone's DNS setting "CNAME flattening for all CNAME records" (`flatten_all_cnames`, paid
   * plans): every DNS-only CNAME is answered as its target's records. Default false (only the apex
   * and records with `settings.flatten_cname` are flattened).
   */
  flattenAllCnames?: boolean;
}

/** A record to seed: a create's JSON body, plus the `id` to keep (32 lowercase hex; generated when absent). */
export interface DnsRecordSeed {
  id?: string;
  type: string;
  name: string;
  content?: string;
  ttl?: number;
  proxied?: boolean;
  priority?: number;
  data?: Record<string, unknown>;
  comment?: string | null;
  tags?: string[];
  settings?: Record<string, unknown>;
}

/** `GET /user`'s result (the fields the SDK's `client.user.get()` types). */
export interface DnsUser {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  telephone: string | null;
  country: string | null;
  zipcode: string | null;
  two_factor_authentication_enabled: boolean;
  two_factor_authentication_locked: boolean;
  has_pro_zones: boolean;
  has_business_zones: boolean;
  has_enterprise_zones: boolean;
  suspended: boolean;
  betas: string[];
  organizations: unknown[];
}

/**
 * Which record shape and rules to follow where the interface document and today's API differ.
 * `'today'` (default) follows the 2025–26 API, as real clients expect; `'document'` is the
 * interface document's mode (docs/sources/dns-api.md#the-interface-document), kept exactly as it was.
 */
export type DnsCompat = 'document' | 'today';

/** The record as the API returns it (JSON). Optional keys appear only where the API sends them. */
export interface DnsRecord {
  id: string;
  zone_id?: string;
  zone_name?: string;
  name: string;
  type: string;
  content: string;
  priority?: number;
  proxiable: boolean;
  proxied: boolean;
  /** A/AAAA only, and only when set. */
  private_routing?: boolean;
  ttl: number;
  locked?: boolean;
  data?: Record<string, unknown>;
  settings: Record<string, unknown>;
  meta: {
    auto_added?: boolean;
    managed_by_apps?: boolean;
    managed_by_argo_tunnel?: boolean;
    source?: string;
    /** Only with `include_shadow_metadata=true`, and only where relevant. */
    shadowed_by?: string[];
    is_glue?: boolean;
    shadowed_records_count?: number;
  };
  comment: string | null;
  tags: string[];
  created_on: string;
  modified_on: string;
  comment_modified_on?: string;
  tags_modified_on?: string;
}

/** The zone object `GET /zones` and `GET /zones/{id}` return (the fields clients read). */
export interface DnsZone {
  id: string;
  name: string;
  status: 'active';
  paused: boolean;
  type: 'full' | 'partial' | 'secondary';
  development_mode: number;
  name_servers: string[];
  original_name_servers: null;
  original_registrar: null;
  original_dnshost: null;
  modified_on: string;
  created_on: string;
  activated_on: string;
  /** Custom name servers (Business and Enterprise): none are set, so `[]`. */
  vanity_name_servers: string[];
  vanity_name_servers_ips: null;
  meta: Record<string, unknown>;
  owner: { id: null; type: 'user'; email: null };
  account: { id: string; name: string };
  /** The tenant (and its unit) the zone belongs to: none, so their ids are null. */
  tenant: { id: null; name: null };
  tenant_unit: { id: null };
  permissions: string[];
  plan: {
    id: string;
    name: string;
    price: number;
    currency: string;
    frequency: string;
    is_subscribed: boolean;
    can_subscribe: boolean;
    legacy_id: string;
    legacy_discount: boolean;
    externally_managed: boolean;
  };
}
