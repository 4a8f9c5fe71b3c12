/** `DnsApi`: the double's state (zones, credentials, options) and its two entry points, `fetch` and `handle`. */
import { timeSource, type TimeSource } from '../clock.js';
import type { CallLog } from '../support/call-log.js';
import { DnsSupport, type DnsFault, type DnsRequest, type DnsRequestQuery } from '../support/dns-support.js';
import type { FaultList } from '../support/faults.js';
import { dnsInsides } from '../support/registry.js';
import { toHex, utf8 } from '../bytes.js';
import { digest } from '../hash.js';
import { randomHex } from '../random.js';
import { Credentials } from './auth.js';
import { respond, type Incoming, type Service } from './http.js';
import { normaliseZoneName } from './names.js';
import { presentRecord } from './present.js';
import { recordInput } from './request.js';
import { API_RATE_LIMIT, RateLimiter } from './rate-limit.js';
import type { DnsApiOptions, DnsCredential, DnsLimits, DnsPlan, DnsRecord, DnsRecordSeed, DnsZoneInit } from './types.js';
import { Zone, type ModelOptions, type ZoneSnapshot } from './zone.js';

const PLAN_LIMITS: Record<DnsPlan, DnsLimits> = {
  free: { records: 200, tags: 0, commentLength: 100, batch: 200, minTtl: 60 },
  pro: { records: 3500, tags: 20, commentLength: 500, batch: 3500, minTtl: 60 },
  business: { records: 3500, tags: 50, commentLength: 500, batch: 3500, minTtl: 60 },
  enterprise: { records: 1_000_000, tags: 500, commentLength: 500, batch: 3500, minTtl: 30 },
};

const NS_NAMES = ['ada', 'bob', 'cruz', 'dana', 'ezra', 'fay', 'gus', 'hana', 'ivan', 'jade', 'kai', 'lola', 'max', 'nia'];

/** Record ids: 32 lowercase hex from the platform's CSPRNG (records are made inside handlers). */
const newId = (): string => randomHex(16);

/**
 * Zone and account ids are made when the double is built, which in workerd is often module scope,
 * where random values are refused: derive them from a hash of the name and a sequence instead.
 */
let sequence = 0;
const derivedId = (seed: string): string => toHex(digest('md5', utf8(`edge-doubles ${seed} ${++sequence}`)));

/** Where the real API answers; clients' base URLs end in it. */
export const DEFAULT_BASE_PATH = '/client/v4';

/** `''` or `'/'` is a bare origin; otherwise one leading slash and no trailing one. */
export function normaliseBasePath(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (/[?#\s]/.test(trimmed)) throw new Error(`DnsApi: basePath must be a URL path, got ${JSON.stringify(raw)}`);
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

export type DnsFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** The zones and their records at one moment. Opaque; restore it with `restore` on the same DnsApi. */
export interface DnsSnapshot {
  readonly zones: number;
}

const snapshotState = new WeakMap<object, { owner: DnsApi; zones: [Zone, ZoneSnapshot][] }>();

export class DnsApi {
  /** A standard fetch, already bound: pass it to the SDK, stub the global with it, or call it. */
  readonly fetch: DnsFetch;
  private readonly zonesById = new Map<string, Zone>();
  private readonly credentials: Credentials;
  private readonly clock: () => number;
  private readonly time: TimeSource;
  private readonly model: ModelOptions;
  private readonly service: Service;
  private readonly support: DnsSupport;

  constructor(options: DnsApiOptions = {}) {
    // Today's API is the default: real clients are written against it (README, "The interface document vs today's API").
    const today = options.compat !== 'document';
    this.time = timeSource(options.clock);
    this.clock = this.time.now;
    this.support = new DnsSupport(this.time, options.log ?? false);
    this.credentials = new Credentials(options.credentials);
    this.model = {
      quoteTxt: options.quoteTxt ?? !today,
      providerAddresses: options.providerAddresses ?? (today ? 'refuse-proxied' : 'refuse'),
      labelRules: options.labelRules ?? (today ? 'today' : 'document'),
      refuseTypeChange: options.refuseTypeChange ?? false,
      newId,
      now: () => this.clock(),
    };
    const retiredFields = options.retiredFields ?? !today;
    this.service = {
      basePath: normaliseBasePath(options.basePath ?? DEFAULT_BASE_PATH),
      credentials: this.credentials,
      zoneById: (id) => this.zonesById.get(id),
      allZones: () => this.zonesById.values(),
      retiredFields,
      now: () => this.clock(),
      accountId: derivedId('account'),
    };
    if (options.rateLimit) this.service.limiter = new RateLimiter(options.rateLimit === true ? API_RATE_LIMIT : options.rateLimit);
    dnsInsides.set(this, {
      zone: (idOrName) => this.findZone(idOrName),
      zones: () => this.zonesById.values(),
      retiredFields,
      support: this.support,
    });
    for (const z of options.zones ?? []) this.addZone(z);
    this.fetch = (input, init) => this.dispatch(input, init);
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
        throw e instanceof Error ? new Error(`DnsApi seed ${JSON.stringify(r)} in ${z.name}: ${e.message}`, { cause: e }) : e;
      }
    });
  }

  /** Every zone's records now, in O(1) in the number of records: later changes never reach it. */
  snapshot(): DnsSnapshot {
    const zones = [...this.zonesById.values()].map((z): [Zone, ZoneSnapshot] => [z, z.snapshot()]);
    const s = Object.freeze({ zones: zones.length });
    snapshotState.set(s, { owner: this, zones });
    return s;
  }

  /**
   * Brings back a snapshot of this DnsApi (zones added since are dropped), in O(1) in the number of
   * records; later changes never reach it. Fault rules and the request log are cleared.
   */
  restore(snapshot: DnsSnapshot): void {
    const s = snapshotState.get(snapshot);
    if (!s || s.owner !== this) throw new TypeError('DnsApi.restore: not a snapshot taken by this DnsApi');
    this.zonesById.clear();
    for (const [z, zs] of s.zones) {
      z.restore(zs);
      this.zonesById.set(z.id, z);
    }
    this.support.clear();
  }

  /** Empties every zone of records (the zones stay) and clears fault rules and the request log. */
  reset(): void {
    for (const z of this.zonesById.values()) z.clear();
    this.support.clear();
  }

  /** Fault rules: `api.faults.add({ method: 'POST', path: 'zones/*\/dns_records', status: 429 })`. */
  get faults(): FaultList<DnsFault, unknown> {
    return this.support.faults as FaultList<DnsFault, unknown>;
  }

  /** The request log (`log: true`, or `api.log.start()`). */
  get log(): CallLog<DnsRequest, DnsRequestQuery> {
    return this.support.log;
  }

  /** Adds a zone; returns its id and normalised name. */
  addZone(init: DnsZoneInit): { id: string; name: string } {
    const name = normaliseZoneName(init.name);
    const id = init.id ?? derivedId(`zone ${name}`);
    if (!/^[0-9a-f]{32}$/.test(id)) throw new Error(`DnsApi: zone id must be 32 lowercase hex characters, got ${JSON.stringify(id)}`);
    if (this.zonesById.has(id)) throw new Error(`DnsApi: duplicate zone id ${id}`);
    const plan = init.plan ?? 'free';
    const limits = { ...PLAN_LIMITS[plan], ...init.limits };
    const n = parseInt(id.slice(0, 4), 16);
    const nameServers = [0, 1].map((k) => `${NS_NAMES[(n + k * 7) % NS_NAMES.length]}.ns.cloudflare.com`);
    const zone = new Zone({ id, name, plan, limits, nameServers }, this.model);
    this.zonesById.set(id, zone);
    if (init.records?.length) this.seed(id, init.records);
    return { id, name };
  }

  /** Accepts one more credential (switches off "any well-formed credential" if it was on). */
  addCredential(c: DnsCredential): void {
    this.credentials.add(c);
  }

  /** Where the API answers (`/client/v4` unless `basePath` said otherwise; `''` for a bare origin). */
  get basePath(): string {
    return this.service.basePath;
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

  /** Answers one request. */
  handle(request: Request, target?: string): Promise<Response> {
    return this.respond({
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      text: () => request.text(),
      formData: () => request.formData(),
    });
  }

  /** The one way into the router: test support (faults, the request log) wraps it. */
  private respond(incoming: Incoming): Promise<Response> {
    return this.support.respond(incoming, (req) => respond(this.service, req));
  }

  private findZone(idOrName: string): Zone | undefined {
    const byId = this.zonesById.get(idOrName);
    if (byId) return byId;
    const name = idOrName.toLowerCase().replace(/\.$/, '');
    for (const z of this.zonesById.values()) if (z.name === name) return z;
    return undefined;
  }

  /** Strings and URLs with a string (or no) body skip building a Request: most calls, and the SDK's. */
  private dispatch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const body = init?.body;
    if ((typeof input === 'string' || input instanceof URL) && (body === undefined || body === null || typeof body === 'string')) {
      let url: URL;
      try {
        url = new URL(input);
      } catch {
        return Promise.reject(new TypeError(`Failed to parse URL from ${String(input)}`));
      }
      const given = init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
      // A real fetch labels a string body text/plain when the caller did not say; so must we.
      const headers =
        typeof body === 'string' && !given.has('content-type')
          ? { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'text/plain;charset=UTF-8' : given.get(name)) }
          : given;
      const text = body ?? '';
      const incoming: Incoming = {
        method: init?.method ?? 'GET',
        url,
        headers,
        text: async () => text,
        formData: () => new Request(url, { method: 'POST', headers: given, body: text }).formData(),
      };
      return this.respond(incoming);
    }
    return this.handle(new Request(input, init));
  }
}
