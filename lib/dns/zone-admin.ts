/**
 * Zone administration over the API, as infrastructure tools call it before they touch records
 * (issue 28 point 5; the SDK's `zones.create/edit/delete`, `dns.settings.zone`, `dns.dnssec`):
 *
 *   POST   /zones                       a zone in the account (`{ name, account?: { id? }, type? }`)
 *   PATCH  /zones/{id}                  paused, type, plan ({ plan: { id } }: a known rate plan id, plans.ts)
 *   DELETE /zones/{id}                  the zone and its records go (the DNS port stops answering for it)
 *   GET|PATCH /zones/{id}/dns_settings  zone-level DNS settings (stored and shown; resolution reads flatten_all_cnames)
 *   GET|PATCH|DELETE /zones/{id}/dnssec DNSSEC: status, the key-signing key and its DS (dnssec.ts)
 *   GET    /zones/{id}/dnssec/zsk      the zone-signing key
 *
 * Shapes are the published schema's (cloudflare/api-schemas; spec/api-schema validates them).
 * Decisions where production is not established: a zone name the account already has is 1061
 * "<name> already exists" (the code and text clients quote), a name that is not a domain 1049
 * (placeholder), an account other than the caller's 9109 (the router's answer for account
 * resources), an unknown plan id 400 1004 (placeholder; a plan change sets the plan's quotas, keeping
 * the zone's own overrides). Enabling DNSSEC makes the zone's keys and answers `pending`, as production does until
 * the registrar has the DS record; the double has no registrar: `DnsApi.dsAtRegistrar` says it has.
 */
import { canSeeAccount } from '../api/auth.js';
import { ok } from '../api/envelope.js';
import { apiErrors, fail } from '../api/errors.js';
import type { Handler as ApiHandler, Incoming } from '../api/router.js';
import { DNS } from './backend.js';
import { ALGORITHM, DIGEST_TYPE } from './dnssec-keys.js';
import { DNSSEC_RECORD_TTL, dnssecStatus, dsLine, ensureKeys } from './dnssec.js';
import { asciiName } from './names.js';
import { limitsAfterPlanChange, planById } from './plans.js';
import type { DnsPlan } from './types.js';
import { presentZone, timestamp } from './present.js';
import type { DnsService } from './routes.js';
import { changeZoneSettings, zoneSettings, type ZoneType } from './zone-settings.js';
import type { Zone } from './zone.js';

type Handler = ApiHandler<DnsService>;

const adminErrors = {
  exists: (name: string) => fail(400, 1061, `${name} already exists`),
  badName: (name: string) => fail(400, 1049, `${name} is not a registered domain`),
  bad: (why: string) => fail(400, 1004, `DNS Validation Error: ${why}`),
};

const ZONE_TYPES: ReadonlySet<string> = new Set(['full', 'partial', 'secondary']);

async function object(req: Incoming): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = JSON.parse(await req.text());
  } catch {
    throw adminErrors.bad('the request body is not valid JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw adminErrors.bad('the request body must be an object');
  return v as Record<string, unknown>;
}

const shown = (svc: DnsService, z: Zone) => presentZone(z, svc.account);

export const createZone: Handler = async (svc, req, { who }) => {
  const b = await object(req);
  if (typeof b.name !== 'string') throw adminErrors.bad('name is required');
  // `account.id` is optional (the SDK's ZoneCreateParams.Account): without it the zone goes to the
  // caller's own account, as octodns-cloudflare#72 (2023-12) reports of the API; this double serves
  // one account, so that is the account the caller reaches (docs/conformance.md, DNS choice 29).
  const account = b.account ?? {};
  if (typeof account !== 'object' || Array.isArray(account)) throw adminErrors.bad('account must be an object');
  const accountId = (account as { id?: unknown }).id;
  if (accountId !== undefined && accountId !== null && typeof accountId !== 'string')
    throw adminErrors.bad('account.id must be an account identifier');
  if ((typeof accountId === 'string' && accountId !== svc.account.id) || !canSeeAccount(who, svc.account))
    throw apiErrors.unauthorizedResource();
  const type = b.type ?? 'full';
  if (typeof type !== 'string' || !ZONE_TYPES.has(type))
    throw adminErrors.bad('type must be full, partial or secondary');
  const name = asciiName(b.name.trim());
  if (name === undefined || !/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/.test(name))
    throw adminErrors.badName(b.name);
  for (const z of svc.account.backend(DNS).zones.values()) if (z.name === name) throw adminErrors.exists(name);
  if (!svc.addZone) throw apiErrors.noRoute(req.url.pathname);
  const { id } = svc.addZone({ name });
  const zone = svc.account.backend(DNS).zones.get(id)!;
  changeZoneSettings(zone, (s) => (s.type = type as ZoneType));
  return ok(shown(svc, zone));
};

export const editZone: Handler = async (svc, req, { zone }) => {
  const b = await object(req);
  if (b.paused !== undefined && typeof b.paused !== 'boolean') throw adminErrors.bad('paused must be a boolean');
  if (b.type !== undefined && (typeof b.type !== 'string' || !ZONE_TYPES.has(b.type)))
    throw adminErrors.bad('type must be full, partial or secondary');
  let plan: DnsPlan | undefined;
  if (b.plan !== undefined) {
    // `{ plan: { id } }`, the schema's (deprecated) way to change a zone's plan (zones-0-patch).
    const id = (b.plan as { id?: unknown } | null)?.id;
    if (typeof b.plan !== 'object' || b.plan === null || Array.isArray(b.plan) || typeof id !== 'string')
      throw adminErrors.bad('plan must be an object with a plan id');
    plan = planById(id);
    if (plan === undefined) throw adminErrors.bad(`plan.id ${id} is not a plan this zone can take`);
  }
  changeZoneSettings(zone!, (s) => {
    if (b.paused !== undefined) s.paused = b.paused as boolean;
    if (b.type !== undefined) s.type = b.type as ZoneType;
    s.modified = svc.now();
  });
  if (plan !== undefined && plan !== zone!.plan) {
    zone!.limits = limitsAfterPlanChange(zone!.limits, zone!.plan, plan);
    zone!.plan = plan;
  }
  return ok(shown(svc, zone!));
};

export const deleteZone: Handler = (svc, _req, { zone }) => {
  svc.account.backend(DNS).zones.delete(zone!.id);
  return ok({ id: zone!.id });
};

// ---- zone DNS settings ----------------------------------------------------------------------------

/**
 * The zone's DNS settings, every field the schema's response requires and the SDK types
 * (dns-settings_dns-settings-zone-response, cloudflare/api-schemas 2026-08-14; ZoneGetResponse in
 * resources/dns/settings/zone), defaults until PATCH sets them. `flatten_all_cnames` is the zone's
 * own (resolution reads it); `internal_dns` is `{}` for a zone that references none, as a terraform
 * plan of production's answer shows it without `reference_zone_id`
 * (terraform-provider-cloudflare#5523, 2025-04).
 */
function dnsSettings(z: Zone): Record<string, unknown> {
  const set = zoneSettings(z).dns;
  return {
    flatten_all_cnames: z.flattenAllCnames,
    foundation_dns: false,
    internal_dns: {},
    multi_provider: false,
    nameservers: { type: 'cloudflare.standard' },
    ns_ttl: 86400,
    secondary_overrides: false,
    ...set,
    soa: {
      expire: 604800,
      min_ttl: 1800,
      mname: z.nameServers[0],
      refresh: 10000,
      retry: 2400,
      rname: 'dns.cloudflare.com',
      ttl: 3600,
      ...(set.soa as object | undefined),
    },
    zone_mode: set.zone_mode ?? 'standard',
  };
}

const SOA_BOUNDS: Record<string, [number, number]> = {
  expire: [86400, 2419200],
  min_ttl: [60, 86400],
  refresh: [600, 86400],
  retry: [600, 86400],
  ttl: [300, 86400],
};

/** The zone's nameserver types (dns-settings-zone-patch), and the SDK's custom set (`custom` with its id). */
const NAMESERVER_TYPES: ReadonlySet<string> = new Set([
  'cloudflare.standard',
  'cloudflare.advanced',
  'custom.account',
  'custom.tenant',
  'custom.zone',
  'custom',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `nameservers` as the schema takes it (type, ns_set 1–5; the SDK's `custom` with nameserver_set_id), kept as given. */
function nameservers(v: unknown): Record<string, unknown> {
  if (!isObject(v) || typeof v.type !== 'string' || !NAMESERVER_TYPES.has(v.type))
    throw adminErrors.bad(`nameservers.type must be one of ${[...NAMESERVER_TYPES].join(', ')}`);
  const out: Record<string, unknown> = { type: v.type };
  if (v.ns_set !== undefined) {
    if (typeof v.ns_set !== 'number' || !Number.isInteger(v.ns_set) || v.ns_set < 1 || v.ns_set > 5)
      throw adminErrors.bad('nameservers.ns_set must be an integer from 1 to 5');
    out.ns_set = v.ns_set;
  }
  if (v.type === 'custom') {
    if (typeof v.nameserver_set_id !== 'string' || v.nameserver_set_id === '')
      throw adminErrors.bad('nameservers.nameserver_set_id is required for type custom');
    out.nameserver_set_id = v.nameserver_set_id;
  }
  return out;
}

const getDnsSettings: Handler = (_svc, _req, { zone }) => ok(dnsSettings(zone!));

const patchDnsSettings: Handler = async (_svc, req, { zone }) => {
  const b = await object(req);
  const next: Record<string, unknown> = { ...zoneSettings(zone!).dns };
  for (const k of ['foundation_dns', 'multi_provider', 'secondary_overrides', 'flatten_all_cnames']) {
    if (b[k] === undefined) continue;
    if (typeof b[k] !== 'boolean') throw adminErrors.bad(`${k} must be a boolean`);
    if (k !== 'flatten_all_cnames') next[k] = b[k];
  }
  if (b.ns_ttl !== undefined) {
    if (typeof b.ns_ttl !== 'number' || !Number.isInteger(b.ns_ttl) || b.ns_ttl < 30 || b.ns_ttl > 86400)
      throw adminErrors.bad('ns_ttl must be an integer from 30 to 86400');
    next.ns_ttl = b.ns_ttl;
  }
  if (b.zone_mode !== undefined) {
    if (b.zone_mode !== 'standard' && b.zone_mode !== 'cdn_only' && b.zone_mode !== 'dns_only')
      throw adminErrors.bad('zone_mode must be standard, cdn_only or dns_only');
    next.zone_mode = b.zone_mode;
  }
  if (b.nameservers !== undefined) next.nameservers = nameservers(b.nameservers);
  if (b.internal_dns !== undefined) {
    if (!isObject(b.internal_dns)) throw adminErrors.bad('internal_dns must be an object');
    const ref = b.internal_dns.reference_zone_id;
    if (ref !== undefined && typeof ref !== 'string')
      throw adminErrors.bad('internal_dns.reference_zone_id must be a zone identifier');
    next.internal_dns = ref === undefined ? {} : { reference_zone_id: ref };
  }
  if (b.soa !== undefined) {
    if (!isObject(b.soa)) throw adminErrors.bad('soa must be an object');
    const soa: Record<string, unknown> = { ...(next.soa as object | undefined) };
    for (const [k, v] of Object.entries(b.soa)) {
      const bounds = SOA_BOUNDS[k];
      if (bounds) {
        if (typeof v !== 'number' || !Number.isInteger(v) || v < bounds[0] || v > bounds[1])
          throw adminErrors.bad(`soa.${k} must be an integer from ${bounds[0]} to ${bounds[1]}`);
      } else if (k === 'mname' && v === null) {
        // Null asks for the Cloudflare-assigned primary again (dns-settings_soa-base: mname is
        // nullable, "If null, a Cloudflare-assigned value will be used").
        delete soa.mname;
        continue;
      } else if (k === 'mname' || k === 'rname') {
        if (typeof v !== 'string' || v === '') throw adminErrors.bad(`soa.${k} must be a name`);
      } else throw adminErrors.bad(`soa.${k} is not a field of the SOA settings`);
      soa[k] = v;
    }
    next.soa = soa;
  }
  // Every field was judged before anything changes: a refused PATCH leaves the settings as they were.
  changeZoneSettings(zone!, (s) => (s.dns = next));
  if (typeof b.flatten_all_cnames === 'boolean') zone!.flattenAllCnames = b.flatten_all_cnames;
  return ok(dnsSettings(zone!));
};

// ---- DNSSEC ---------------------------------------------------------------------------------------

/**
 * The zone's DNSSEC as `GET/PATCH /zones/{id}/dnssec` answer it: every field of the schema's
 * dnssec_dnssec, in its (alphabetical) order, the key fields from the zone's key-signing key and
 * null while it has none (docs/sources/dns-wire.md#dnssec; python-cloudflare's README shows a
 * production answer with the same fields and forms).
 */
function dnssec(svc: DnsService, z: Zone) {
  const d = zoneSettings(z).dnssec;
  const keys = d.keys;
  return {
    algorithm: keys ? String(ALGORITHM) : null,
    digest: keys ? keys.digest : null,
    digest_algorithm: keys ? 'SHA256' : null,
    digest_type: keys ? String(DIGEST_TYPE) : null,
    dnssec_multi_signer: d.multiSigner,
    dnssec_presigned: d.presigned,
    dnssec_use_nsec3: d.useNsec3 ?? false,
    ds: keys ? dsLine(z, keys) : null,
    flags: keys ? keys.ksk.flags : null,
    key_tag: keys ? keys.ksk.tag : null,
    key_type: keys ? 'ECDSAP256SHA256' : null,
    modified_on: d.modified === undefined ? null : timestamp(d.modified),
    public_key: keys ? keys.ksk.publicKey : null,
    status: dnssecStatus(z, svc.account.backend(DNS).zones.values()),
  };
}

/** A zone enabled in an image written before keys were kept gets its keys when next read. */
async function keysIfEnabled(z: Zone): Promise<void> {
  const status = zoneSettings(z).dnssec.status;
  if (status === 'pending' || status === 'active') await ensureKeys(z);
}

const getDnssec: Handler = async (svc, _req, { zone }) => {
  await keysIfEnabled(zone!);
  return ok(dnssec(svc, zone!));
};

/** An unreadable `status`: the code and text production answered (ZE3kr/Cloudflare-CNAME-Setup#23, 2018). */
const badStatus = () => fail(400, 1002, 'Invalid or missing "status"');

const patchDnssec: Handler = async (svc, req, { zone }) => {
  const b = await object(req);
  if (b.status !== undefined && b.status !== 'active' && b.status !== 'disabled') throw badStatus();
  for (const k of ['dnssec_multi_signer', 'dnssec_presigned', 'dnssec_use_nsec3'] as const)
    if (b[k] !== undefined && typeof b[k] !== 'boolean') throw adminErrors.bad(`${k} must be a boolean`);
  // Enabling makes the keys first (WebCrypto is asynchronous); a refused request changed nothing before.
  if (b.status === 'active') await ensureKeys(zone!);
  else await keysIfEnabled(zone!);
  // What the owner asked; the status shown adds the registrar's side (dnssec.ts).
  changeZoneSettings(zone!, ({ dnssec: d }) => {
    if (b.status === 'active') d.status = 'pending';
    if (b.status === 'disabled') d.status = 'disabled';
    if (b.dnssec_multi_signer !== undefined) d.multiSigner = b.dnssec_multi_signer as boolean;
    if (b.dnssec_presigned !== undefined) d.presigned = b.dnssec_presigned as boolean;
    if (b.dnssec_use_nsec3 !== undefined) d.useNsec3 = b.dnssec_use_nsec3 as boolean;
    d.modified = svc.now();
  });
  return ok(dnssec(svc, zone!));
};

/**
 * DELETE drops the keys: nothing is signed any more and the state is "deleted" (`disabled`,
 * `modified_on` null). Only from `disabled`: Cloudflare refuses while the DS may still be published
 * (developers.cloudflare.com/dns/dnssec/dnssec-states/); its code and text were not observed
 * (placeholder, docs/conformance.md DNS choice 34).
 */
const deleteDnssec: Handler = (svc, _req, { zone }) => {
  const d = zoneSettings(zone!).dnssec;
  if (d.keys && dnssecStatus(zone!, svc.account.backend(DNS).zones.values()) !== 'disabled')
    throw fail(400, 1004, 'DNSSEC must be disabled, and its DS removed at the registrar, before it is deleted');
  changeZoneSettings(zone!, ({ dnssec: next }) => {
    next.status = 'disabled';
    next.keys = undefined;
    next.dsAtRegistrar = undefined;
    next.modified = undefined;
  });
  return ok('');
};

/**
 * `GET /zones/{id}/dnssec/zsk`: the zone-signing keys, in the shape of the API reference's example
 * (developers.cloudflare.com/api/resources/dns/subresources/dnssec/subresources/zsk/methods/list/;
 * SDK 7.3 `ZskListResponse`): none while the zone has no keys. The private key is encrypted under a
 * key of Cloudflare's there; the double gives none (`privkey` null).
 */
const listZsk: Handler = async (_svc, _req, { zone }) => {
  await keysIfEnabled(zone!);
  const keys = zoneSettings(zone!).dnssec.keys;
  if (!keys) return ok([]);
  const { flags, publicKey } = keys.zsk;
  return ok([
    {
      DNSKEY: {
        Algorithm: ALGORITHM,
        Flags: flags,
        Hdr: { Class: 1, Name: `${zone!.name}.`, Rdlength: 0, Rrtype: 48, Ttl: DNSSEC_RECORD_TTL },
        Protocol: 3,
        PublicKey: publicKey,
      },
      Location: 'database',
      Name: 'zsk_default',
      SigningKey: { kek: 'edge_kek_default', privkey: null, pubkey: `${flags} 3 ${ALGORITHM} ${publicKey}` },
      Tag: 'active',
    },
  ]);
};

/** The zone administration methods for `/zones/{id}/<rest>` (dns_settings, dnssec, dnssec/zsk), or undefined. */
export function zoneAdminMethods(rest: string): Record<string, Handler> | undefined {
  if (rest === 'dns_settings') return { GET: getDnsSettings, PATCH: patchDnsSettings };
  if (rest === 'dnssec') return { GET: getDnssec, PATCH: patchDnssec, DELETE: deleteDnssec };
  if (rest === 'dnssec/zsk') return { GET: listZsk };
  return undefined;
}
