/** `DnsApi`: a view over an account's zones (its own unless one is given), its options, and its two entry points, `fetch` and `handle`. */
import { timeSource, type TimeSource } from '../clock.js';
import type { CallLog } from '../support/call-log.js';
import { dnsDouble, DnsSupport, type AskedAnswer, type DnsFault, type DnsRequest, type DnsRequestQuery } from '../support/dns-support.js';
import type { FaultList } from '../support/faults.js';
import { registerDouble } from '../support/registry.js';
import { fromUtf8, utf8, utf8Length } from '../bytes.js';
import { fetchOver } from '../fetch.js';
import { randomHex } from '../random.js';
import { Account, accountState, type AccountState } from '../account/account.js';
import { derivedId } from '../account/ids.js';
import { accountRoutes } from '../account/routes.js';
import { declaredLength, readBounded } from '../api/body.js';
import { API_RATE_LIMIT, RateLimiter } from '../api/rate-limit.js';
import { respond, type Incoming, type RouteTable } from '../api/router.js';
import { normaliseZoneName } from './names.js';
import { presentRecord } from './present.js';
import { recordInput } from './request.js';
import { dnsRoutes, type DnsService } from './routes.js';
import type { DnsApiOptions, DnsCredential, DnsLimits, DnsPlan, DnsRecord, DnsRecordSeed, DnsZoneInit } from './types.js';
import { Zone, type ModelOptions, type ZoneSnapshot } from './zone.js';
import type { DnsAnswer, DnsQuestion } from './answer.js';
import { edgeAddresses, resolve, type EdgeAddresses } from './resolve.js';
import { questionType } from './rr-types.js';

const PLAN_LIMITS: Record<DnsPlan, DnsLimits> = {
  free: { records: 200, tags: 0, commentLength: 100, batch: 200, minTtl: 60 },
  pro: { records: 3500, tags: 20, commentLength: 500, batch: 3500, minTtl: 60 },
  business: { records: 3500, tags: 50, commentLength: 500, batch: 3500, minTtl: 60 },
  enterprise: { records: 1_000_000, tags: 500, commentLength: 500, batch: 3500, minTtl: 30 },
};

const NS_NAMES = ['ada', 'bob', 'cruz', 'dana', 'ezra', 'fay', 'gus', 'hana', 'ivan', 'jade', 'kai', 'lola', 'max', 'nia'];

/** Record ids: 32 lowercase hex from the platform's CSPRNG (records are made inside handlers). */
const newId = (): string => randomHex(16);

/** The routes a DnsApi answers: its zones' (first: nearly every request is one), then its account's. No path matches both. */
const ROUTES: readonly RouteTable<DnsService>[] = [dnsRoutes, accountRoutes];

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

const snapshotState = new WeakMap<object, { owner: DnsApi; zones: [Zone, ZoneSnapshot][]; credentials: object }>();

export class DnsApi {
  /** A standard fetch, already bound: pass it to the SDK, stub the global with it, or call it. */
  readonly fetch: DnsFetch;
  /** The account's zones, by id: shared with every other view of the account. */
  private readonly zonesById: Map<string, Zone>;
  /** The account this view serves (the one given, or its own): share it with `S3Api`, `createEnv`. */
  readonly account: Account;
  private readonly state: AccountState;
  private readonly clock: () => number;
  private readonly time: TimeSource;
  private readonly model: ModelOptions;
  /** What every route may ask of the double; a product's view (CloudflareApi) adds its own switches. */
  protected readonly service: DnsService;
  /** The route tables, in order: a view over more products (CloudflareApi) adds its tables here. */
  protected routes: readonly RouteTable<DnsService>[] = ROUTES;
  private readonly support: DnsSupport;
  private readonly edge: EdgeAddresses;
  /** The account's zones as they are whenever iterated (a CNAME chain looks more than once). */
  private readonly liveZones: Iterable<Zone> = { [Symbol.iterator]: () => this.zonesById.values() };

  constructor(options: DnsApiOptions = {}) {
    // Today's API is the default: real clients are written against it (docs/dns-api.md, "The interface document vs today's API").
    const today = options.compat !== 'document';
    this.time = timeSource(options.clock);
    this.clock = this.time.now;
    const basePath = normaliseBasePath(options.basePath ?? DEFAULT_BASE_PATH);
    this.support = new DnsSupport(this.time, options.log ?? false, basePath);
    if (options.account !== undefined && options.credentials !== undefined) {
      // One table of credentials per account: a second one here would silently disagree with it.
      throw new Error('DnsApi: give credentials to the Account (new Account({ credentials }) or account.addCredential) when sharing one');
    }
    this.account = options.account ?? new Account({ credentials: options.credentials, clock: options.clock });
    this.state = accountState(this.account);
    this.zonesById = this.state.zones;
    this.model = {
      quoteTxt: options.quoteTxt ?? !today,
      providerAddresses: options.providerAddresses ?? (today ? 'refuse-proxied' : 'refuse'),
      labelRules: options.labelRules ?? (today ? 'today' : 'document'),
      refuseTypeChange: options.refuseTypeChange ?? false,
      newId,
      now: () => this.clock(),
    };
    this.edge = edgeAddresses(options.proxyAddresses);
    const retiredFields = options.retiredFields ?? !today;
    this.service = {
      basePath,
      account: this.state,
      retiredFields,
      now: () => this.clock(),
    };
    // `POST /zones` makes zones as addZone does (lib/dns/zone-admin.ts).
    this.service.addZone = (init) => this.addZone(init);
    if (options.rateLimit) this.service.limiter = new RateLimiter(options.rateLimit === true ? API_RATE_LIMIT : options.rateLimit);
    registerDouble(this, dnsDouble(this, { zone: (idOrName) => this.findZone(idOrName), retiredFields }, this.support));
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
    // The account's credentials are configuration a test changes (addCredential): held too.
    snapshotState.set(s, { owner: this, zones, credentials: this.state.credentials.snapshot() });
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
    this.state.credentials.restore(s.credentials);
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
    const nameServers = init.nameServers?.map(nameServer) ?? [0, 1].map((k) => `${NS_NAMES[(n + k * 7) % NS_NAMES.length]}.ns.cloudflare.com`);
    if (nameServers.length === 0) throw new Error('DnsApi: a zone needs at least one nameserver');
    const zone = new Zone({ id, name, plan, limits, nameServers, flattenAllCnames: init.flattenAllCnames ?? false }, this.model);
    this.zonesById.set(id, zone);
    if (init.records?.length) this.seed(id, init.records);
    return { id, name };
  }

  // ---- DNS resolution: what the zones answer over DNS (lib/dns/resolve.ts) ---------------------

  /**
   * The answer Cloudflare's authoritative servers would give to one question, from the account's
   * zones as they are now: synchronous, never throws (FORMERR for a type it cannot read, REFUSED for
   * a name in no zone). The DNS server (edge-doubles/node) encodes exactly this.
   */
  answer(question: DnsQuestion): DnsAnswer {
    return resolve({ zones: this.liveZones, edge: this.edge }, question);
  }

  /**
   * Whether each DNS question must come through `ask` (its call log records, or fault rules are
   * armed): the DNS server's answer cache (edge-doubles/node) is bypassed meanwhile.
   */
  watchesQuestions(): boolean {
    return this.support.log.recording || this.support.faults.active;
  }

  /**
   * What every answer of `answer` depends on, as a list that differs whenever an answer may: each
   * zone, then its change count. The DNS server's cache of encoded answers (edge-doubles/node)
   * compares it element by element on each query.
   */
  answerState(): unknown[] {
    const out: unknown[] = [];
    for (const z of this.zonesById.values()) out.push(z, z.version);
    return out;
  }

  /**
   * What a resolver asking the zone's nameservers would see for `name` and `type` (default `A`):
   * `{ rcode, authoritative, answers, authorities, additionals }`, records with their wire TTLs and
   * data as `dns-packet` shapes it (TXT as character-strings of at most 255 bytes). No socket.
   * Rejects with a TypeError for a type it does not know (a typo, not a DNS answer).
   */
  async resolve(name: string, type = 'A'): Promise<DnsAnswer> {
    if (questionType(type) === undefined) throw new TypeError(`DnsApi.resolve: unknown record type ${JSON.stringify(type)}`);
    const answer = await this.ask({ name, type });
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

  /** Accepts one more credential (switches off "any well-formed credential" if it was on). */
  addCredential(c: DnsCredential): void {
    this.state.credentials.add(c);
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

  /**
   * Answers one request. `target`, the request-target as the client wrote it, is not used: the
   * DNS routes name nothing by a free-form path (ids are 32 hex, every other segment a literal),
   * and the API sits behind Cloudflare's edge, whose default URL normalization (type "cloudflare",
   * scope incoming: dot segments removed, `\\` made `/`; developers.cloudflare.com/rules/normalization/)
   * routes the same collapsed path `request.url` holds. Only a request whose body cannot be read
   * rejects (`TypeError: fetch failed`); every other request gets an answer.
   */
  handle(request: Request, target?: string): Promise<Response> {
    try {
      let bytes: Promise<Uint8Array> | undefined;
      // Read once, within the size limit (the route's, for a route that takes more); the router and the request log share what was read.
      const read = (limit?: number) => (bytes ??= readBounded(request.body, limit));
      return this.respond({
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        length: declaredLength(request.headers),
        text: async () => fromUtf8(await read()),
        bytes: read,
        formData: async () => {
          const headers = { 'content-type': request.headers.get('content-type') ?? '' };
          // A body stream's chunks are never shared memory.
          return new Response((await read()) as Uint8Array<ArrayBuffer>, { headers }).formData();
        },
      });
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The one way into the router: test support (faults, the request log) wraps it. */
  private respond(incoming: Incoming): Promise<Response> {
    return this.support.respond(incoming, (req) => respond(this.service, this.routes, req));
  }

  private findZone(idOrName: string): Zone | undefined {
    const byId = this.zonesById.get(idOrName);
    if (byId) return byId;
    const name = idOrName.toLowerCase().replace(/\.$/, '');
    for (const z of this.zonesById.values()) if (z.name === name) return z;
    return undefined;
  }

  /**
   * A standard fetch: strings and URLs with a string (or no) body and plain options skip building a
   * Request (most calls, and the SDK's: it matters for speed); everything else, and anything the
   * quick path is unsure of, builds one, so bad arguments reject with exactly the platform's error.
   */
  private dispatch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    let incoming: Incoming | undefined;
    try {
      incoming = quickIncoming(input, init);
    } catch {
      incoming = undefined; // the Request constructor below raises the platform's own error
    }
    return incoming ? this.respond(incoming) : this.viaRequest(input, init);
  }

  private readonly viaRequest = fetchOver((request, target) => this.handle(request, target));
}

/** A nameserver name as given to a zone: lower case, no trailing dot. */
function nameServer(raw: string): string {
  const n = raw.trim().toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})+$/.test(n)) throw new Error(`DnsApi: invalid nameserver name ${JSON.stringify(raw)}`);
  return n;
}

/** Options the quick path understands; any other set option goes through a Request. */
const QUICK_OPTIONS = new Set(['method', 'headers', 'body', 'signal']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const NORMALISED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The request a string or URL with plain options describes, without building a Request; undefined
 * (or a throw) where `new Request(input, init)` might see it otherwise, which then decides.
 */
function quickIncoming(input: RequestInfo | URL, init: RequestInit | undefined): Incoming | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  if (init !== undefined) {
    if (typeof init !== 'object' || init === null) return undefined;
    const proto = Object.getPrototypeOf(init);
    if (proto !== Object.prototype && proto !== null) return undefined;
    for (const key of Object.keys(init)) {
      if (!QUICK_OPTIONS.has(key) && (init as Record<string, unknown>)[key] !== undefined) return undefined;
    }
  }
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== 'string') return undefined;
  const signal = init?.signal;
  if (signal !== undefined && signal !== null && !(signal instanceof AbortSignal)) return undefined;
  const rawMethod = init?.method ?? 'GET';
  if (typeof rawMethod !== 'string' || !TOKEN.test(rawMethod) || FORBIDDEN_METHODS.has(rawMethod.toUpperCase())) return undefined;
  const method = NORMALISED_METHODS.has(rawMethod.toUpperCase()) ? rawMethod.toUpperCase() : rawMethod;
  if (typeof body === 'string' && (method === 'GET' || method === 'HEAD')) return undefined;
  const url = new URL(input);
  const given = init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
  // A real fetch labels a string body text/plain when the caller did not say; so must we.
  const headers =
    typeof body === 'string' && !given.has('content-type')
      ? { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'text/plain;charset=UTF-8' : given.get(name)) }
      : given;
  const text = body ?? '';
  return {
    method,
    url,
    headers,
    // What a fetch would send as content-length, so an oversized body is refused before it is used.
    length: utf8Length(text),
    text: async () => text,
    bytes: async () => utf8(text),
    formData: () => new Request(url, { method: 'POST', headers: given, body: text }).formData(),
  };
}
