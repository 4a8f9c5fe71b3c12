/**
 * What both doubles of the `/client/v4` API that serve zones share (DnsApi, CloudflareApi): the
 * front door (lib/api/front-door.ts) over an account, plus the account's zones as a test wants them
 * (add, seed, read, snapshot, restore, reset), DNS resolution (what the zones answer over DNS:
 * lib/dns/resolve.ts) and the double's registration with the test support. An assembly adds its
 * route tables and its own state; this holds no route.
 */
import { Account, accountState, type AccountState } from '../account/account.js';
import { derivedId } from '../account/ids.js';
import { FrontDoor, type FrontDoorInit } from '../api/front-door.js';
import type { ApiService } from '../api/router.js';
import { apiDouble, type AskedAnswer } from '../api/support.js';
import { randomHex } from '../random.js';
import { registerDouble } from '../support/registry.js';
import type { DnsAnswer, DnsQuestion } from '../dns-answer.js';
import { normaliseZoneName } from '../dns/names.js';
import { presentRecord } from '../dns/present.js';
import { ZoneReader } from '../dns/record-matcher.js';
import { recordInput } from '../dns/request.js';
import { SIGNATURE_REUSE_MS, signAnswer, type ZoneSigner } from '../dns/dnssec-sign.js';
import { dnssecStatus, zoneKeys } from '../dns/dnssec.js';
import { edgeAddresses, resolve, zoneFor, type EdgeAddresses } from '../dns/resolve.js';
import type { DnsService } from '../dns/routes.js';
import { questionType } from '../dns/rr-types.js';
import { PLANS } from '../dns/plans.js';
import { changeZoneSettings, zoneSettings } from '../dns/zone-settings.js';
import type { DnsRecord, DnsRecordSeed, DnsZoneInit } from '../dns/types.js';
import type { DnsApiOptions } from './options.js';
import { Zone, type ModelOptions } from '../dns/zone.js';
import { zoneDefaultsFor } from '../dns/account-settings.js';
import { DNS, type DnsBackend } from '../dns/backend.js';

const NS_NAMES = [
  'ada',
  'bob',
  'cruz',
  'dana',
  'ezra',
  'fay',
  'gus',
  'hana',
  'ivan',
  'jade',
  'kai',
  'lola',
  'max',
  'nia',
];

/** Record ids: 32 lowercase hex from the platform's CSPRNG (records are made inside handlers). */
const newId = (): string => randomHex(16);

/** The zones and their records at one moment. Opaque; restore it with `restore` on the same double. */
export interface DnsSnapshot {
  readonly zones: number;
}

const snapshotState = new WeakMap<object, { owner: ZonesApi<DnsService>; dns: object; credentials: object }>();

/** The account an API double serves: the one given (credentials then belong to it), or its own. */
function servedAccount(options: DnsApiOptions): Account {
  if (options.account !== undefined && options.credentials !== undefined) {
    // One table of credentials per account: a second one here would silently disagree with it.
    throw new Error(
      'DnsApi: give credentials to the Account (new Account({ credentials }) or account.addCredential) when sharing one',
    );
  }
  return options.account ?? new Account({ credentials: options.credentials, clock: options.clock });
}

/** What an assembly over zones brings: its service (the DNS routes' fields and its own) and its tables. */
export interface ZonesAssembly<S extends DnsService> {
  service: (dns: DnsService) => S;
  routes: FrontDoorInit<S>['routes'];
}

export class ZonesApi<S extends DnsService> extends FrontDoor<S> {
  /** The account this view serves (the one given, or its own): share it with `S3Api`, `createEnv`. */
  readonly account: Account;
  /** The account's DNS backend: its zones by id and its DNS settings, shared with every other view of the account. */
  private readonly dns: DnsBackend;
  /** The account's zones, by id (the backend's). */
  private readonly zonesById: Map<string, Zone>;
  private readonly model: ModelOptions;
  private readonly edge: EdgeAddresses;
  /** The account's zones as they are whenever iterated (a CNAME chain looks more than once). */
  private readonly liveZones: Iterable<Zone> = { [Symbol.iterator]: () => this.zonesById.values() };

  protected constructor(options: DnsApiOptions, assembly: ZonesAssembly<S>) {
    // Today's API is the default: real clients are written against it (docs/dns-api.md, "The
    // interface document vs today's API").
    const today = options.compat !== 'document';
    const account = servedAccount(options);
    const state: AccountState = accountState(account);
    const retiredFields = options.retiredFields ?? !today;
    const dns = state.backend(DNS);
    const zone = (id: string) => dns.zones.get(id);
    super({
      state,
      options,
      service: (base: ApiService<S['account']>) => assembly.service({ ...base, retiredFields, zone }),
      routes: assembly.routes,
    });
    this.account = account;
    this.dns = dns;
    this.zonesById = dns.zones;
    this.model = {
      quoteTxt: options.quoteTxt ?? !today,
      providerAddresses: options.providerAddresses ?? (today ? 'refuse-proxied' : 'refuse'),
      labelRules: options.labelRules ?? (today ? 'today' : 'document'),
      refuseTypeChange: options.refuseTypeChange ?? false,
      newId,
      now: () => this.time.now(),
    };
    this.edge = edgeAddresses(options.proxyAddresses);
    const zones = new ZoneReader(
      (idOrName) => this.findZone(idOrName),
      (z) => z.sorted().map((r) => presentRecord(r, z, retiredFields)),
    );
    registerDouble(this, apiDouble(this, [zones], this.support));
    // `POST /zones` makes zones as addZone does (lib/dns/zone-admin.ts).
    this.service.addZone = (init) => this.addZone(init);
    for (const z of options.zones ?? []) this.addZone(z);
  }

  // ---- test support (not part of the API) ----------------------------------------------------

  /**
   * Adds records to a zone (by id or name) at once, synchronously, with the API's rules (errors are
   * thrown here). Fields are a create's JSON body; `id` (32 lowercase hex) is kept when given.
   */
  seed(idOrName: string, records: readonly DnsRecordSeed[]): DnsRecord[] {
    const z = this.findZone(idOrName);
    if (!z) throw new Error(`DnsApi: no zone ${idOrName}`);
    return records.map((r) => {
      const { id, ...fields } = r;
      try {
        return presentRecord(z.seed(recordInput(fields), id), z, this.service.retiredFields);
      } catch (e) {
        throw e instanceof Error
          ? new Error(`DnsApi seed ${JSON.stringify(r)} in ${z.name}: ${e.message}`, { cause: e })
          : e;
      }
    });
  }

  /** Every zone's records now, in O(1) in the number of records: later changes never reach it. */
  snapshot(): DnsSnapshot {
    const s = Object.freeze({ zones: this.zonesById.size });
    // The DNS backend's (the zones' records, the account's DNS settings and views), and the account's
    // credentials: configuration a test changes (addCredential).
    snapshotState.set(s, {
      owner: this as ZonesApi<DnsService>,
      dns: this.dns.snapshot(),
      credentials: accountState(this.account).credentials.snapshot(),
    });
    return s;
  }

  /**
   * Brings back a snapshot of this double (zones added since are dropped), in O(1) in the number of
   * records; later changes never reach it. Fault rules and the request log are cleared.
   */
  restore(snapshot: DnsSnapshot): void {
    const s = snapshotState.get(snapshot);
    if (!s || s.owner !== (this as ZonesApi<DnsService>))
      throw new TypeError('DnsApi.restore: not a snapshot taken by this DnsApi');
    this.dns.restore(s.dns);
    accountState(this.account).credentials.restore(s.credentials);
    this.support.clear();
  }

  /** Empties every zone of records (the zones stay) and clears fault rules and the request log. */
  reset(): void {
    this.dns.reset();
    this.support.clear();
  }

  /** Adds a zone; returns its id and normalised name. */
  addZone(init: DnsZoneInit): { id: string; name: string } {
    const name = normaliseZoneName(init.name);
    const id = init.id ?? derivedId(`zone ${name}`);
    if (!/^[0-9a-f]{32}$/.test(id))
      throw new Error(`DnsApi: zone id must be 32 lowercase hex characters, got ${JSON.stringify(id)}`);
    if (this.zonesById.has(id)) throw new Error(`DnsApi: duplicate zone id ${id}`);
    const plan = init.plan ?? 'free';
    const limits = { ...PLANS[plan].limits, ...init.limits };
    const n = parseInt(id.slice(0, 4), 16);
    const nameServers =
      init.nameServers?.map(nameServer) ??
      [0, 1].map((k) => `${NS_NAMES[(n + k * 7) % NS_NAMES.length]}.ns.cloudflare.com`);
    if (nameServers.length === 0) throw new Error('DnsApi: a zone needs at least one nameserver');
    // A new zone starts with the account's zone defaults (PATCH /accounts/{id}/dns_settings), when set.
    const defaults = zoneDefaultsFor(this.dns);
    const flattenAllCnames = init.flattenAllCnames ?? defaults?.flattenAllCnames ?? false;
    const zone = new Zone({ id, name, plan, limits, nameServers, flattenAllCnames }, this.model);
    if (defaults) changeZoneSettings(zone, (s) => (s.dns = defaults.dns));
    this.zonesById.set(id, zone);
    if (init.records?.length) this.seed(id, init.records);
    return { id, name };
  }

  // ---- DNS resolution: what the zones answer over DNS (lib/dns/resolve.ts) ---------------------

  /**
   * Whether each DNS question must come through `ask` (its call log records, or fault rules are
   * armed): the DNS server's answer cache (edge-doubles/node) is bypassed meanwhile.
   */
  watchesQuestions(): boolean {
    return this.support.log.recording || this.support.faults.active;
  }

  /**
   * What every answer of `answer` depends on, as a list that differs whenever an answer may: each
   * zone, then its change count, its flatten_all_cnames setting (`PATCH dns_settings` changes it
   * without a record changing), its DNSSEC keys and what its owner asked of DNSSEC (the CDS and
   * CDNSKEY follow it); and, while any zone has keys, the span of SIGNATURE_REUSE_MS the clock is
   * in, since signed answers age. The DNS server's cache of encoded answers (edge-doubles/node)
   * compares it element by element on each query.
   */
  answerState(): unknown[] {
    const out: unknown[] = [];
    let signed = false;
    for (const z of this.zonesById.values()) {
      const d = zoneSettings(z).dnssec;
      out.push(z, z.version, z.flattenAllCnames, d.keys, d.status);
      signed ||= d.keys !== undefined;
    }
    if (signed) out.push(Math.floor(this.time.now() / SIGNATURE_REUSE_MS));
    return out;
  }

  /** The zone that signs `owner` (lower case): the one holding it, when it has DNSSEC keys. */
  private readonly signerFor = (owner: string): ZoneSigner | undefined => {
    const zone = zoneFor(this.liveZones, owner.replace(/\.$/, ''));
    const keys = zone && zoneKeys(zone);
    return keys && { apex: zone!.name, keys };
  };

  /**
   * The answer Cloudflare's authoritative servers would give to one question, from the account's
   * zones as they are now; never throws (FORMERR for a type it cannot read, REFUSED for a name in no
   * zone). The DNS server (edge-doubles/node) encodes exactly this. Synchronous, except for a
   * question with `dnssecOk` whose answer holds records of a zone with DNSSEC keys: that answer is
   * signed (WebCrypto signs asynchronously), so it comes as a promise.
   */
  answer(question: DnsQuestion & { dnssecOk?: false }): DnsAnswer;
  answer(question: DnsQuestion): DnsAnswer | Promise<DnsAnswer>;
  answer(question: DnsQuestion): DnsAnswer | Promise<DnsAnswer> {
    const out = resolve({ zones: this.liveZones, edge: this.edge }, question);
    if (!question.dnssecOk) return out;
    const owners = [...out.answers, ...out.authorities];
    if (!owners.some((r) => this.signerFor(r.name.toLowerCase()))) return out;
    return signAnswer(out, this.signerFor, this.time.now());
  }

  /**
   * What a resolver asking the zone's nameservers would see for `name` and `type` (default `A`):
   * `{ rcode, authoritative, answers, authorities, additionals }`, records with their wire TTLs and
   * data as `dns-packet` shapes it (TXT as character-strings of at most 255 bytes). No socket.
   * With `{ dnssec: true }` the question sets the DO bit: a zone with DNSSEC on answers signed
   * (RRSIG, NSEC, DNSKEY records' data as their RDATA bytes). Rejects with a TypeError for a type it
   * does not know (a typo, not a DNS answer).
   */
  async resolve(name: string, type = 'A', options: { dnssec?: boolean } = {}): Promise<DnsAnswer> {
    if (questionType(type) === undefined)
      throw new TypeError(`DnsApi.resolve: unknown record type ${JSON.stringify(type)}`);
    const answer = await this.ask({ name, type, ...(options.dnssec ? { dnssecOk: true } : {}) });
    if (answer === null) {
      // As Node's resolver reports a server that never answers.
      const syscall = `query${type.charAt(0).toUpperCase()}${type.slice(1).toLowerCase()}`; // queryTxt, queryAaaa
      throw Object.assign(new Error(`${syscall} ETIMEOUT ${name}`), { code: 'ETIMEOUT', syscall, hostname: name });
    }
    return answer;
  }

  /**
   * A DNS question as the double's DNS server asks it (edge-doubles/node: `transport` `udp` or
   * `tcp`) and `resolve` does (`in-process`): `answer`'s answer, through the test support, so each
   * question is in the call log (`surface: 'dns'`) and fault rules with `surface: 'dns'` can answer
   * SERVFAIL (or another rcode), drop it (null: no answer is sent) or delay it.
   */
  ask(question: DnsQuestion, transport: 'udp' | 'tcp' | 'in-process' = 'in-process'): AskedAnswer {
    return this.support.question(question, transport, () => this.answer(question));
  }

  /**
   * Says whether the zone's registrar publishes its DS record (default: it does). The double has no
   * registrar, so this is how a test moves DNSSEC as Cloudflare sees the registry: `pending` becomes
   * `active` once the DS is published, `pending-disabled` becomes `disabled` once it is gone
   * (developers.cloudflare.com/dns/dnssec/dnssec-states/). A DS record that a parent zone of the
   * account holds for the zone counts as published too.
   */
  dsAtRegistrar(idOrName: string, published = true): void {
    const z = this.findZone(idOrName);
    if (!z) throw new Error(`DnsApi: no zone ${idOrName}`);
    const before = dnssecStatus(z, this.liveZones);
    changeZoneSettings(z, (s) => (s.dnssec.dsAtRegistrar = published));
    if (dnssecStatus(z, this.liveZones) !== before) changeZoneSettings(z, (s) => (s.dnssec.modified = this.time.now()));
  }

  /** The zones, in the order added. */
  get zones(): { id: string; name: string }[] {
    return [...this.zonesById.values()].map((z) => ({ id: z.id, name: z.name }));
  }

  /** A zone by id or name. */
  zone(idOrName: string): { id: string; name: string } | undefined {
    const z = this.findZone(idOrName);
    return z && { id: z.id, name: z.name };
  }

  /** The records of a zone (by id or name) as the API shows them, in the API's default order. */
  records(idOrName: string): DnsRecord[] {
    const z = this.findZone(idOrName);
    if (!z) throw new Error(`DnsApi: no zone ${idOrName}`);
    return z.sorted().map((r) => presentRecord(r, z, this.service.retiredFields));
  }

  private findZone(idOrName: string): Zone | undefined {
    const byId = this.zonesById.get(idOrName);
    if (byId) return byId;
    const name = idOrName.toLowerCase().replace(/\.$/, '');
    for (const z of this.zonesById.values()) if (z.name === name) return z;
    return undefined;
  }
}

/** A nameserver name as given to a zone: lower case, no trailing dot. */
function nameServer(raw: string): string {
  const n = raw.trim().toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})+$/.test(n))
    throw new Error(`DnsApi: invalid nameserver name ${JSON.stringify(raw)}`);
  return n;
}
