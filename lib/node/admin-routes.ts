/**
 * Test support over HTTP (issue 27): what a JavaScript test gets in process (snapshot, restore,
 * reset, seed, fault rules, the call log, a manual clock), for a test suite in any language, under
 * the reserved prefix `/_edge-doubles/` of every server (`r2 serve`, `dns serve`, `api serve`). One
 * router for the three; each server says what it holds (`AdminSubject`) and asks this router first
 * for requests that are not another surface's by Host (a public bucket host's key may start with
 * `_edge-doubles/`; a path-style bucket cannot, as R2 bucket names cannot start with `_`).
 *
 * Everything here goes through the doubles' public test support: `snapshot()`, `restore()`,
 * `reset()`, `Bucket#seed`, `DnsApi#seed`, `faults.add`, `log`, `ManualClock`. JSON in and out; bad
 * input gets a 4xx JSON error `{ "error": { "status", "message" } }` and changes nothing.
 */
import { isIP } from 'node:net';
import type { Account } from '../account/account.js';
import { accountState } from '../account/state.js';
import { Bucket } from '../bucket/bucket.js';
import type { ManualClock } from '../clock.js';
import { DnsApi } from '../dns-api/dns-api.js';
import { DNS } from '../dns/backend.js';
import type { DnsRecordSeed } from '../dns/types.js';
import type { Queue } from '../queue/queue.js';
import { QUEUES } from '../queue/backend.js';
import type { BucketFault } from '../bucket/bucket-support.js';
import type { ApiFault } from '../api/support.js';
import type { QueueFault } from '../support/queue-support.js';
import type { Fault } from '../support/faults.js';

/** The reserved path prefix of the test support over HTTP (no bucket name can start with `_`). */
export const ADMIN_PREFIX = '/_edge-doubles/';

/** What a server holds, as the router reaches it. */
export interface AdminSubject {
  /** The command that serves it: `r2`, `dns` or `api` (shown by `health`). */
  readonly server: 'r2' | 'dns' | 'api';
  /** The double whose snapshot, restore and reset cover the whole server (S3Api, DnsApi, CloudflareApi). */
  readonly state: {
    /** The whole state, as one snapshot. */
    snapshot(): object;
    /** Puts back a snapshot `snapshot()` took. */
    restore(snapshot: never): void;
    /** Empties every bucket, zone and queue, their configuration kept. */
    reset(): void;
  };
  /** The buckets served, by name (absent: the server serves none, as dns serve). */
  buckets?: () => Iterable<readonly [string, Bucket]>;
  /** The DNS API, for zones and API fault rules (dns serve, api serve). */
  readonly dns?: DnsApi;
  /** The account, for its queues (api serve). */
  readonly account?: Account;
}

/** Who may use the test support over HTTP (`--admin-token`), and whether the request came from loopback. */
export interface AdminOptions {
  /** The address the server listens on: off a loopback address the endpoints need `token`. */
  host: string;
  /** `--admin-token`: sent as `Authorization: Bearer <token>` (or `X-Edge-Doubles-Token`); required when given. */
  token?: string;
  /** `--clock manual`: the clock `POST /_edge-doubles/clock` moves. */
  clock?: ManualClock;
}

/**
 * Answers a request under the prefix; any other goes to `next` (the server's surface), and after a
 * write there the buckets or queues it made start logging too.
 */
export type AdminRouter = (request: Request, target: string, next: () => Promise<Response>) => Promise<Response>;

/** A refusal: its status and message reach the client as JSON. */
class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The most a request body may hold (a seed's base64 objects included): more is refused with 413, unread. */
const BODY_LIMIT = 32 * 1024 * 1024;
/** Snapshots kept by id; the oldest is forgotten past this (its restore then answers 404). */
const SNAPSHOTS_KEPT = 1000;

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h.startsWith('::ffff:127.');
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body, replacer), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

/** Log entries hold bytes, Dates and RegExps: JSON gets their sizes, ISO times and sources. */
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  if (value instanceof RegExp) return String(value);
  if (typeof value === 'bigint') return String(value);
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a JSON object body, at most BODY_LIMIT bytes (an empty body is `{}`). */
async function readJson(request: Request): Promise<Record<string, unknown>> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > BODY_LIMIT)
    throw new AdminError(413, `the body is larger than ${BODY_LIMIT} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > BODY_LIMIT) {
        await reader.cancel();
        throw new AdminError(413, `the body is larger than ${BODY_LIMIT} bytes`);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new AdminError(400, `the body is not JSON: ${(e as Error).message}`);
  }
  if (!isObject(parsed)) throw new AdminError(400, 'the body must be a JSON object');
  return parsed;
}

/** Refuses fields a body may not have, so a misspelt one is not silently ignored. */
function only(body: Record<string, unknown>, allowed: readonly string[], what: string): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length)
    throw new AdminError(
      400,
      `${what}: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')} (known: ${allowed.join(', ')})`,
    );
}

/** node:crypto is imported by the first request that brings a token, not with edge-doubles/node. */
const tokenMatches = async (given: string, want: string): Promise<boolean> => {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && (await import('node:crypto')).timingSafeEqual(a, b);
};

/** A fault rule added through the router: the rules it became (one per bucket for a rule naming none). */
interface AddedFault {
  readonly id: string;
  readonly kind: 'bucket' | 'api' | 'queue';
  readonly rule: Record<string, unknown>;
  readonly faults: Fault<unknown>[];
}

/** The router for one server. */
export function adminRoutes(subject: AdminSubject, options: AdminOptions): AdminRouter {
  const open = isLoopback(options.host);
  const snapshots = new Map<string, object>();
  const added = new Map<string, AddedFault>();
  let nextSnapshot = 0;
  let nextFault = 0;

  // The account's Queues backend if it has one: reading it makes none.
  const queues = (): ReadonlyMap<string, Queue> =>
    new Map(
      [...(subject.account ? (accountState(subject.account).made(QUEUES)?.entries() ?? []) : [])].map((e) => [
        e.name,
        e.queue,
      ]),
    );
  const bucketList = (): Iterable<readonly [string, Bucket]> => subject.buckets?.() ?? [];
  const bucketMap = (): Map<string, Bucket> => new Map(bucketList());
  const noBuckets = (what: string) => {
    if (!subject.buckets) throw new AdminError(400, `${what}: ${subject.server} serve holds no buckets`);
  };
  const zonesOf = () => (subject.dns ? subject.dns.account.zones : []);
  const zoneName = (id: string) => zonesOf().find((z) => z.id === id)?.name;

  /**
   * The doubles' call logs are on from the first test-support request (a suite's first reset or
   * seed) until the server stops, and on buckets and queues made since: a server nobody asks for
   * test support keeps no log, as before (no memory, no cost, the caller's own log settings kept).
   */
  let recording = false;
  const record = () => {
    if (!recording) return;
    for (const [, bucket] of bucketList()) if (!bucket.log.recording) bucket.log.start();
    if (subject.dns && !subject.dns.log.recording) subject.dns.log.start();
    for (const q of queues().values()) if (!q.log.recording) q.log.start();
  };

  const health = () => ({
    ok: true,
    server: subject.server,
    buckets: [...bucketMap().keys()],
    zones: zonesOf().map((z) => ({ id: z.id, name: z.name })),
    queues: [...queues().keys()],
    clock: options.clock
      ? { mode: 'manual', now: new Date(options.clock.now()).toISOString() }
      : { mode: 'system', now: new Date().toISOString() },
  });

  function snapshot() {
    const id = `s${++nextSnapshot}`;
    snapshots.set(id, subject.state.snapshot());
    if (snapshots.size > SNAPSHOTS_KEPT) snapshots.delete(snapshots.keys().next().value!);
    return { id };
  }

  function restore(body: Record<string, unknown>) {
    only(body, ['id'], 'restore');
    if (typeof body.id !== 'string') throw new AdminError(400, 'restore: "id" must be the string a snapshot answered');
    const taken = snapshots.get(body.id);
    if (!taken) throw new AdminError(404, `restore: no snapshot ${JSON.stringify(body.id)}`);
    subject.state.restore(taken as never);
    added.clear(); // restore clears every fault rule, as in process
    return { id: body.id };
  }

  // ---- seed -------------------------------------------------------------------------------------

  type ObjectSeed = {
    body: string | Uint8Array;
    httpMetadata?: Record<string, unknown>;
    customMetadata?: Record<string, string>;
    storageClass?: string;
  };

  function objectSeed(bucket: string, key: string, v: unknown): ObjectSeed {
    const where = `seed: buckets.${bucket}[${JSON.stringify(key)}]`;
    if (typeof v === 'string') return { body: v };
    if (!isObject(v)) throw new AdminError(400, `${where} must be a string or an object with "text" or "base64"`);
    only(v, ['text', 'base64', 'httpMetadata', 'customMetadata', 'storageClass'], where);
    if ((v.text === undefined) === (v.base64 === undefined))
      throw new AdminError(400, `${where} needs one of "text" and "base64"`);
    let body: string | Uint8Array;
    if (v.base64 !== undefined) {
      if (typeof v.base64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v.base64) || v.base64.length % 4 !== 0)
        throw new AdminError(400, `${where}.base64 is not base64`);
      body = new Uint8Array(Buffer.from(v.base64, 'base64'));
    } else {
      if (typeof v.text !== 'string') throw new AdminError(400, `${where}.text must be a string`);
      body = v.text;
    }
    if (v.httpMetadata !== undefined && !isObject(v.httpMetadata))
      throw new AdminError(400, `${where}.httpMetadata must be an object`);
    if (
      v.customMetadata !== undefined &&
      (!isObject(v.customMetadata) || Object.values(v.customMetadata).some((x) => typeof x !== 'string'))
    ) {
      throw new AdminError(400, `${where}.customMetadata must be an object of strings`);
    }
    if (v.storageClass !== undefined && typeof v.storageClass !== 'string')
      throw new AdminError(400, `${where}.storageClass must be a string`);
    const out: ObjectSeed = { body };
    if (v.httpMetadata) out.httpMetadata = v.httpMetadata;
    if (v.customMetadata) out.customMetadata = v.customMetadata as Record<string, string>;
    if (v.storageClass) out.storageClass = v.storageClass as string;
    return out;
  }

  async function seed(body: Record<string, unknown>) {
    only(body, ['buckets', 'zones', 'queues'], 'seed');
    // Every part is checked before anything is stored: shapes here, then each bucket's objects and
    // each zone's records against an empty double of the same kind (the same rules, thrown).
    const objects: [Bucket, Record<string, ObjectSeed>][] = [];
    const records: [string, DnsRecordSeed[]][] = [];
    const messages: [Queue, unknown[]][] = [];
    if (body.buckets !== undefined) {
      noBuckets('seed');
      if (!isObject(body.buckets)) throw new AdminError(400, 'seed: "buckets" must be an object of bucket names');
      const served = bucketMap();
      for (const [name, seedObjects] of Object.entries(body.buckets)) {
        const bucket = served.get(name);
        if (!bucket)
          throw new AdminError(
            404,
            `seed: no bucket ${JSON.stringify(name)} (this server has ${[...served.keys()].join(', ') || 'none'})`,
          );
        if (!isObject(seedObjects)) throw new AdminError(400, `seed: buckets.${name} must be an object of keys`);
        const parsed: Record<string, ObjectSeed> = {};
        for (const [key, v] of Object.entries(seedObjects)) parsed[key] = objectSeed(name, key, v);
        try {
          new Bucket().seed(parsed as never);
        } catch (e) {
          throw new AdminError(400, `seed: buckets.${name}: ${(e as Error).message}`);
        }
        objects.push([bucket, parsed]);
      }
    }
    if (body.zones !== undefined) {
      if (!isObject(body.zones)) throw new AdminError(400, 'seed: "zones" must be an object of zone names (or ids)');
      if (!subject.dns) throw new AdminError(400, `seed: ${subject.server} serve holds no zones`);
      for (const [zone, list] of Object.entries(body.zones)) {
        const found = subject.dns.zone(zone);
        if (!found) throw new AdminError(404, `seed: no zone ${JSON.stringify(zone)}`);
        if (!Array.isArray(list) || list.some((r) => !isObject(r)))
          throw new AdminError(400, `seed: zones.${zone} must be an array of records as the API takes them`);
        try {
          // Checked alone on a zone of the same plan and quotas: a Business zone takes 3,500 records.
          const { plan, limits } = accountState(subject.dns.account).backend(DNS).zones.get(found.id)!;
          new DnsApi({ zones: [{ name: found.name, plan, limits }] }).seed(found.name, list as DnsRecordSeed[]);
        } catch (e) {
          throw new AdminError(400, `seed: zones.${zone}: ${(e as Error).message}`);
        }
        records.push([found.id, list as DnsRecordSeed[]]);
      }
    }
    if (body.queues !== undefined) {
      if (!isObject(body.queues)) throw new AdminError(400, 'seed: "queues" must be an object of queue names');
      const held = queues();
      for (const [name, list] of Object.entries(body.queues)) {
        const queue = held.get(name);
        if (!queue) throw new AdminError(404, `seed: no queue ${JSON.stringify(name)}`);
        if (!Array.isArray(list)) throw new AdminError(400, `seed: queues.${name} must be an array of message bodies`);
        messages.push([queue, list]);
      }
    }
    // A record that passed alone may still clash with one the zone holds (a CNAME beside an A):
    // then everything this seed wrote is taken back.
    const before = subject.state.snapshot();
    try {
      for (const [zone, list] of records) subject.dns!.seed(zone, list);
    } catch (e) {
      subject.state.restore(before as never);
      added.clear();
      throw new AdminError(
        400,
        `seed: ${(e as Error).message} (nothing was seeded; the fault rules and the log were cleared)`,
      );
    }
    for (const [bucket, parsed] of objects) bucket.seed(parsed as never);
    for (const [queue, list] of messages) for (const m of list) await queue.send(m as never, { contentType: 'json' });
    return {
      buckets: objects.reduce((n, [, o]) => n + Object.keys(o).length, 0),
      records: records.reduce((n, [, l]) => n + l.length, 0),
      messages: messages.reduce((n, [, l]) => n + l.length, 0),
    };
  }

  // ---- log ----------------------------------------------------------------------------------------

  function log(query: URLSearchParams) {
    for (const k of query.keys())
      if (!['surface', 'op', 'bucket', 'zone', 'since'].includes(k))
        throw new AdminError(400, `log: unknown filter ${JSON.stringify(k)} (known: surface, op, bucket, zone, since)`);
    const one = (name: string) => {
      const all = query.getAll(name);
      if (all.length > 1) throw new AdminError(400, `log: ${name} given more than once`);
      return all[0];
    };
    const surface = one('surface');
    const op = one('op');
    const bucketName = one('bucket');
    const zone = one('zone');
    const sinceText = one('since');
    let since: number | undefined;
    if (sinceText !== undefined) {
      since = /^\d+$/.test(sinceText) ? Number(sinceText) : Date.parse(sinceText);
      if (!Number.isFinite(since))
        throw new AdminError(
          400,
          `log: since must be epoch milliseconds or an ISO time, got ${JSON.stringify(sinceText)}`,
        );
    }
    let zoneId: string | undefined;
    if (zone !== undefined) {
      zoneId = subject.dns?.zone(zone)?.id;
      if (zoneId === undefined) throw new AdminError(404, `log: no zone ${JSON.stringify(zone)}`);
    }
    if (bucketName !== undefined) noBuckets('log');
    if (bucketName !== undefined && !bucketMap().has(bucketName))
      throw new AdminError(404, `log: no bucket ${JSON.stringify(bucketName)}`);
    const entries: Record<string, unknown>[] = [];
    if (zone === undefined) {
      const seen = new Set<Bucket>();
      for (const [name, bucket] of bucketList()) {
        if (seen.has(bucket) || (bucketName !== undefined && name !== bucketName)) continue;
        seen.add(bucket);
        for (const e of bucket.log.all()) entries.push({ ...e, bucket: name });
      }
    }
    if (bucketName === undefined && subject.dns) {
      for (const e of subject.dns.log.all()) {
        const id = /\/zones\/([0-9a-f]{32})(?:\/|$)/.exec(e.path)?.[1];
        if (zoneId !== undefined && id !== zoneId) continue;
        // A DNS question is logged as in process (surface 'dns', its type as the op); a request as 'api'.
        const question = e.surface === 'dns';
        entries.push({
          ...e,
          surface: question ? 'dns' : 'api',
          op: question ? String(e.query.type) : e.method,
          ...(id ? { zone: zoneName(id) ?? id } : {}),
        });
      }
    }
    if (bucketName === undefined && zone === undefined)
      for (const q of queues().values()) for (const e of q.log.all()) entries.push({ ...e, surface: 'queue' });
    return entries
      .filter(
        (e) =>
          (surface === undefined || e.surface === surface) &&
          (op === undefined || e.op === op) &&
          (since === undefined || (e.at as number) >= since),
      )
      .sort((a, b) => (a.at as number) - (b.at as number))
      .map((e) => ({ ...e, time: new Date(e.at as number).toISOString() }));
  }

  // ---- faults -------------------------------------------------------------------------------------

  const SCHEDULE = ['times', 'after', 'probability', 'seed', 'delay'];

  function addFault(body: Record<string, unknown>) {
    const kind =
      body.queue !== undefined
        ? 'queue'
        : body.surface !== undefined ||
            ['method', 'path', 'status', 'code', 'message', 'retryAfter'].some((k) => body[k] !== undefined)
          ? 'api'
          : 'bucket';
    for (const k of SCHEDULE)
      if (body[k] !== undefined && typeof body[k] !== 'number')
        throw new AdminError(400, `faults: "${k}" must be a number`);
    const faults: Fault<unknown>[] = [];
    try {
      if (kind === 'bucket') {
        noBuckets('faults');
        only(body, ['op', 'key', 'error', 'bucket', ...SCHEDULE], 'faults (a bucket rule)');
        if (
          body.op !== undefined &&
          typeof body.op !== 'string' &&
          !(Array.isArray(body.op) && body.op.every((o) => typeof o === 'string'))
        )
          throw new AdminError(400, 'faults: "op" must be an operation or a list of them');
        if (body.key !== undefined && typeof body.key !== 'string')
          throw new AdminError(400, 'faults: "key" must be a string (the exact key)');
        if (body.error !== undefined && body.error !== 'internal' && body.error !== 'rateLimit')
          throw new AdminError(400, 'faults: "error" must be "internal" or "rateLimit"');
        if (body.bucket !== undefined && typeof body.bucket !== 'string')
          throw new AdminError(400, 'faults: "bucket" must be a bucket name');
        const { bucket: scope, ...rule } = body;
        const served = bucketMap();
        if (scope !== undefined && !served.has(scope as string))
          throw new AdminError(404, `faults: no bucket ${JSON.stringify(scope)}`);
        const targets = new Set(scope !== undefined ? [served.get(scope as string)!] : served.values());
        for (const bucket of targets) faults.push(bucket.faults.add(rule as BucketFault) as Fault<unknown>);
      } else if (kind === 'api') {
        if (!subject.dns)
          throw new AdminError(
            400,
            body.surface === 'dns'
              ? `faults: ${subject.server} serve answers no DNS questions (dns serve and api serve do)`
              : `faults: ${subject.server} serve has no /client/v4 API for a rule with method, path or status`,
          );
        // `surface: 'dns'` is a rule for DNS questions (name, type, rcode, drop), as `api.faults.add` takes it.
        only(
          body,
          [
            'surface',
            'method',
            'path',
            'status',
            'code',
            'message',
            'retryAfter',
            'name',
            'type',
            'rcode',
            'drop',
            ...SCHEDULE,
          ],
          body.surface === 'dns' ? 'faults (a DNS question rule)' : 'faults (an API rule)',
        );
        if (body.path !== undefined && typeof body.path !== 'string')
          throw new AdminError(400, 'faults: "path" must be a string (under /client/v4/, * for one segment)');
        if (
          body.status !== undefined &&
          (typeof body.status !== 'number' || !Number.isInteger(body.status) || body.status < 400 || body.status > 599)
        )
          throw new AdminError(400, 'faults: "status" must be 400..599');
        faults.push(subject.dns.faults.add(body as ApiFault) as Fault<unknown>);
      } else {
        only(body, ['queue', 'op', 'action', 'message', ...SCHEDULE], 'faults (a queue rule)');
        const queue = typeof body.queue === 'string' ? queues().get(body.queue) : undefined;
        if (!queue) throw new AdminError(404, `faults: no queue ${JSON.stringify(body.queue)}`);
        const { queue: _name, ...rule } = body;
        faults.push(queue.faults.add(rule as QueueFault) as Fault<unknown>);
      }
    } catch (e) {
      for (const f of faults) f.remove();
      if (e instanceof AdminError) throw e;
      throw new AdminError(400, `faults: ${(e as Error).message}`);
    }
    const id = `f${++nextFault}`;
    added.set(id, { id, kind, rule: body, faults });
    return { id };
  }

  function removeFaults(id?: string) {
    if (id === undefined) {
      for (const f of added.values()) for (const fault of f.faults) fault.remove();
      added.clear();
      for (const [, bucket] of bucketList()) bucket.faults.clear();
      subject.dns?.faults.clear();
      for (const q of queues().values()) q.faults.clear();
      return { removed: 'all' };
    }
    const f = added.get(id);
    if (!f) throw new AdminError(404, `faults: no rule ${JSON.stringify(id)}`);
    for (const fault of f.faults) fault.remove();
    added.delete(id);
    return { removed: id };
  }

  const listFaults = () =>
    [...added.values()].map((f) => ({
      id: f.id,
      kind: f.kind,
      rule: f.rule,
      hits: f.faults.reduce((n, x) => n + x.hits, 0),
      remaining: Math.max(0, ...f.faults.map((x) => x.remaining)),
    }));

  // ---- clock ----------------------------------------------------------------------------------------

  function moveClock(body: Record<string, unknown>) {
    const clock = options.clock;
    if (!clock)
      throw new AdminError(
        409,
        'clock: this server runs on the system clock; start it with --clock manual[=<ISO time>] to move time',
      );
    only(body, ['advance', 'set'], 'clock');
    if ((body.advance === undefined) === (body.set === undefined))
      throw new AdminError(400, 'clock: give one of "advance" (milliseconds) and "set" (an ISO time)');
    if (body.advance !== undefined) {
      if (typeof body.advance !== 'number' || !Number.isFinite(body.advance) || body.advance < 0)
        throw new AdminError(400, 'clock: "advance" must be a non-negative number of milliseconds');
      clock.advance(body.advance);
    } else {
      const at = typeof body.set === 'string' ? Date.parse(body.set) : NaN;
      if (!Number.isFinite(at))
        throw new AdminError(400, `clock: "set" must be an ISO time, got ${JSON.stringify(body.set)}`);
      clock.set(at);
    }
    return { now: new Date(clock.now()).toISOString() };
  }

  const clockNow = () => ({
    mode: options.clock ? 'manual' : 'system',
    now: new Date(options.clock ? options.clock.now() : Date.now()).toISOString(),
  });

  // ---- dispatch ---------------------------------------------------------------------------------------

  type Route = (request: Request, rest: string, query: URLSearchParams) => Promise<unknown> | unknown;
  const routes: Record<string, Partial<Record<string, Route>>> = {
    health: { GET: health },
    snapshot: { POST: async (r) => (only(await readJson(r), [], 'snapshot'), snapshot()) },
    restore: { POST: async (r) => restore(await readJson(r)) },
    reset: {
      POST: async (r) => {
        only(await readJson(r), [], 'reset');
        subject.state.reset(); // every bucket, zone and queue emptied, fault rules and the log cleared
        added.clear();
        return { ok: true };
      },
    },
    seed: { POST: async (r) => seed(await readJson(r)) },
    log: { GET: (_r, _rest, q) => log(q) },
    faults: {
      GET: listFaults,
      POST: async (r) => addFault(await readJson(r)),
      DELETE: (_r, rest) => removeFaults(rest === '' ? undefined : rest),
    },
    clock: { GET: clockNow, POST: async (r) => moveClock(await readJson(r)) },
  };

  async function answer(request: Request, target: string): Promise<Response> {
    try {
      if (!open || options.token !== undefined) {
        if (options.token === undefined)
          throw new AdminError(
            403,
            `the test-support endpoints are off on ${options.host}, not a loopback address: start the server with --admin-token`,
          );
        const auth = request.headers.get('authorization');
        const given = auth?.startsWith('Bearer ') ? auth.slice(7) : (request.headers.get('x-edge-doubles-token') ?? '');
        if (!(await tokenMatches(given, options.token)))
          throw new AdminError(
            401,
            'the test-support endpoints need the --admin-token, as Authorization: Bearer <token>',
          );
      }
      recording = true;
      record();
      const q = target.indexOf('?');
      const path = q < 0 ? target : target.slice(0, q);
      const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
      const [name = '', ...restParts] = path.slice(ADMIN_PREFIX.length).split('/');
      const rest = restParts.join('/');
      const route = routes[name];
      if (!route || (rest !== '' && name !== 'faults'))
        throw new AdminError(
          404,
          `no test-support endpoint ${path} (known: ${Object.keys(routes)
            .map((n) => ADMIN_PREFIX + n)
            .join(', ')})`,
        );
      const method = request.method.toUpperCase();
      const handler = route[method === 'HEAD' ? 'GET' : method];
      if (!handler || (rest !== '' && method !== 'DELETE')) {
        const allowed = Object.keys(route).join(', ');
        return new Response(JSON.stringify({ error: { status: 405, message: `${path} answers ${allowed}` } }), {
          status: 405,
          headers: { 'content-type': 'application/json', allow: allowed },
        });
      }
      if (method === 'GET' || method === 'DELETE') {
        if (request.body) await request.body.cancel();
      }
      let id: string;
      try {
        id = decodeURIComponent(rest);
      } catch {
        throw new AdminError(400, `${path}: not percent-encoded UTF-8`);
      }
      return json(200, await handler(request, id, query));
    } catch (e) {
      if (e instanceof AdminError) return json(e.status, { error: { status: e.status, message: e.message } });
      return json(500, { error: { status: 500, message: String((e as Error)?.message ?? e) } });
    }
  }

  return (request, target, next) => {
    if (target.startsWith(ADMIN_PREFIX) || target === ADMIN_PREFIX.slice(0, -1)) return answer(request, target);
    const method = request.method;
    if (!recording || method === 'GET' || method === 'HEAD') return next();
    return next().then((response) => {
      record(); // a bucket or queue this request made (S3 CreateBucket, the API) logs from now on
      return response;
    });
  };
}
