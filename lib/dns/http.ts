/**
 * The HTTP surface: routing under the base path (`/client/v4` unless configured), auth, the `{result, success, errors, messages}`
 * envelope and status codes. Everything it knows about records it asks the model (zone.ts, list.ts,
 * bind.ts); nothing here throws past `respond`: every failure becomes the API's error envelope.
 */
import { canSee, type Credentials, type Principal } from './auth.js';
import { utf8Length } from '../bytes.js';
import { BodyReadError } from '../fetch.js';
import { exportZone, parseZoneFile } from './bind.js';
import { BodyTooLarge, MAX_REQUEST_BODY, payloadTooLarge } from './body.js';
import { DnsApiError, dnsErrors } from './errors.js';
import { listRecords } from './list.js';
import { asciiName } from './names.js';
import { presentRecord, presentUser, presentZone, timestamp } from './present.js';
import { batchOps, boolParam, listQuery, parseJsonObject, recordInput } from './request.js';
import type { RateLimiter } from './rate-limit.js';
import type { Zone } from './zone.js';

/** What the router needs of a request; a `Request` has it, and so does the fast path of `fetch`. */
export interface Incoming {
  method: string;
  url: URL;
  headers: { get(name: string): string | null };
  /** The body's size in bytes where known before reading it (`content-length`, a string body's UTF-8 length). */
  length?: number;
  /**
   * The body, read at most once and within MAX_REQUEST_BODY (body.ts): past it these throw
   * `BodyTooLarge`; a failing stream throws `BodyReadError`, which rejects the fetch.
   */
  text(): Promise<string>;
  formData(): Promise<FormData>;
}

/** What the router needs of the double's state. */
export interface Service {
  /** Where the API answers: `/client/v4` (the API's), or `''` for a bare origin. No trailing slash. */
  basePath: string;
  credentials: Credentials;
  zoneById(id: string): Zone | undefined;
  allZones(): Iterable<Zone>;
  retiredFields: boolean;
  now(): number;
  accountId: string;
  limiter?: RateLimiter;
}

const HEX32 = /^[0-9a-f]{32}$/;
const JSON_HEADERS = { 'content-type': 'application/json' };

// Go's encoding/json escapes these; clients see the same characters after parsing.
const GO_ESCAPED = /[<>&]/g;
const GO_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' };
const goEscape = (s: string) => (s.search(GO_ESCAPED) < 0 ? s : s.replace(GO_ESCAPED, (c) => GO_ESCAPES[c]!));

function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(goEscape(JSON.stringify(body)), { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });
}

const ok = (result: unknown, extra?: Record<string, unknown>) =>
  json(200, { result, success: true, errors: [], messages: [], ...extra });

export function errorResponse(e: DnsApiError): Response {
  return json(e.status, { result: null, success: false, errors: e.errors, messages: [] }, e.headers);
}

type Handler = (svc: Service, req: Incoming, params: { zone?: Zone; id?: string; who: Principal }) => Promise<Response> | Response;

interface Route {
  methods: Record<string, Handler>;
  /** Unknown tokens get `/user/tokens/verify`'s own error there (auth.ts). */
  endpoint?: 'verify';
  zoneId?: string;
  recordId?: string;
}

/** Matches literal segments (`batch`, `export`, `import`, `scan`) before `{dns_record_id}`. */
function match(segments: string[]): Route | undefined {
  if (segments.join('/') === 'user/tokens/verify') return { methods: { GET: verifyToken }, endpoint: 'verify' };
  if (segments.length === 1 && segments[0] === 'user') return { methods: { GET: getUser } };
  if (segments[0] !== 'zones') return undefined;
  if (segments.length === 1) return { methods: { GET: listZones } };
  const zoneId = segments[1]!;
  if (!HEX32.test(zoneId)) return undefined;
  if (segments.length === 2) return { methods: { GET: getZone }, zoneId };
  if (segments.length === 3 && segments[2] === 'pagerules') return { methods: { GET: listPageRules }, zoneId };
  if (segments[2] !== 'dns_records') return undefined;
  const rest = segments.slice(3);
  if (rest.length === 0) return { methods: { GET: list, POST: create }, zoneId };
  const key = rest.join('/');
  switch (key) {
    case 'export': return { methods: { GET: exportRecords }, zoneId };
    case 'import': return { methods: { POST: importRecords }, zoneId };
    case 'batch': return { methods: { POST: batch }, zoneId };
    case 'scan': return { methods: { POST: scan }, zoneId };
    case 'scan/trigger': return { methods: { POST: scanTrigger }, zoneId };
    case 'scan/review': return { methods: { GET: scanReviewList, POST: scanReview }, zoneId };
  }
  if (rest.length === 1 && HEX32.test(rest[0]!)) {
    return { methods: { GET: getRecord, PUT: putRecord, PATCH: patchRecord, DELETE: deleteRecord }, zoneId, recordId: rest[0]! };
  }
  return undefined;
}

export async function respond(svc: Service, req: Incoming): Promise<Response> {
  // The gateway refuses a declared oversized body before routing or credentials (body.ts).
  if (req.length !== undefined && req.length > MAX_REQUEST_BODY) return payloadTooLarge();
  try {
    const path = req.url.pathname;
    const prefix = `${svc.basePath}/`;
    if (!path.startsWith(prefix)) throw dnsErrors.outsideBasePath(path, svc.basePath);
    const segments = path.slice(prefix.length).split('/');
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
    const route = match(segments.map(decodeSegment));
    if (!route) throw dnsErrors.noRoute(path);
    const method = req.method.toUpperCase();
    const handler = route.methods[method];
    if (!handler) throw dnsErrors.methodNotAllowed(method);
    const who = svc.credentials.authenticate(req.headers, route.endpoint ?? 'resource');
    svc.limiter?.take(who.caller, svc.now());
    const params: { zone?: Zone; id?: string; who: Principal } = { who };
    if (route.zoneId !== undefined) params.zone = visibleZone(svc, route.zoneId, who, path);
    if (route.recordId !== undefined) params.id = route.recordId;
    return await handler(svc, req, params);
  } catch (e) {
    if (e instanceof DnsApiError) return errorResponse(e);
    if (e instanceof BodyTooLarge) return payloadTooLarge();
    // A body that cannot be read has no answer: the fetch rejects, as Node's does.
    if (e instanceof BodyReadError) throw e;
    // A bug of ours still answers in the envelope, never as an exception or an HTML page.
    return json(500, { result: null, success: false, errors: [{ code: 10001, message: `Internal error: ${(e as Error)?.message ?? e}` }], messages: [] });
  }
}

const decodeSegment = (s: string) => {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * A zone the caller may not see answers as the API does for that credential: tokens get 10000
 * "Authentication error"; a global key (which owns every zone of its account) gets the route error.
 */
function visibleZone(svc: Service, id: string, who: Principal, path: string): Zone {
  const zone = svc.zoneById(id);
  if (zone && canSee(who, zone)) return zone;
  throw who.kind === 'token' ? dnsErrors.notAuthorized() : dnsErrors.noRoute(path);
}

async function jsonBody(req: Incoming): Promise<Record<string, unknown>> {
  const type = req.headers.get('content-type');
  if (type !== null && !/^application\/json\s*(;|$)/i.test(type.trim())) throw dnsErrors.badContentType();
  return parseJsonObject(await req.text());
}

const paging = (page: number, perPage: number, count: number, total: number) => ({
  result_info: { page, per_page: perPage, count, total_count: total, total_pages: Math.ceil(total / perPage) },
});

// ---- tokens ---------------------------------------------------------------------------------

// Many DNS tools check their token here before touching a zone.
const verifyToken: Handler = (_svc, _req, { who }) => {
  if (who.kind !== 'token') throw dnsErrors.invalidToken();
  return json(200, {
    result: { id: who.tokenId, status: 'active' },
    success: true,
    errors: [],
    messages: [{ code: 10000, message: 'This API Token is valid and active', type: null }],
  });
};

/**
 * Tools check their credentials here before touching records. A global key owns its user; a token
 * sees the user only with User Details Read (the credential's `user`), otherwise 9109, the API's
 * answer to a token without the permission a user or account resource needs.
 */
const getUser: Handler = (svc, _req, { who }) => {
  if (who.email === undefined) throw dnsErrors.unauthorizedResource();
  const plans = new Set([...svc.allZones()].filter((z) => canSee(who, z)).map((z) => z.plan));
  return ok(presentUser(who.email, plans));
};

// ---- zones ----------------------------------------------------------------------------------

const listZones: Handler = (svc, req, { who }) => {
  const q = req.url.searchParams;
  const name = q.get('name');
  const want = name ? asciiName(name) : undefined;
  const page = positive(q.get('page'), 1, 'page');
  // The API's bounds for listing zones: 5 to 50, default 20 (cloudflare/api-schemas openapi.json,
  // `zones-get`); the records list has its own (request.ts). Below 5 is not refused: certbot's
  // dns-cloudflare plugin asks `per_page=1` and works against the API, so the minimum is applied
  // (a page of 5) rather than answered with an error. Above 50 stays a 400 (text ours, unobserved).
  const perPage = Math.max(5, positive(q.get('per_page'), 20, 'per_page'));
  if (perPage > 50) throw dnsErrors.badQuery('per_page', 'must be between 5 and 50');
  const zones = [...svc.allZones()].filter((z) => canSee(who, z) && (want === undefined || z.name === want));
  zones.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const slice = zones.slice((page - 1) * perPage, page * perPage);
  return ok(slice.map((z) => presentZone(z, svc.accountId)), paging(page, perPage, slice.length, zones.length));
};

const positive = (raw: string | null, fallback: number, key: string) => {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw dnsErrors.badQuery(key, 'must be a positive integer');
  return Number(raw);
};

const getZone: Handler = (svc, _req, { zone }) => ok(presentZone(zone!, svc.accountId));

/**
 * Zone-sync tools read a zone's page rules around its records (octodns-cloudflare asks
 * `?status=active` by default and stops on any non-2xx). The double models no page rules, so every
 * zone answers as one without any: the success envelope with `result: []` and no `result_info`,
 * the response shape of `page-rules-list-page-rules` (cloudflare/api-schemas openapi.json). Its
 * query (order, direction, match, status) filters nothing here, so it is not judged.
 */
const listPageRules: Handler = () => ok([]);

// ---- records --------------------------------------------------------------------------------

/**
 * `include_shadow_metadata`, accepted on every record endpoint. Writes read it before they change
 * anything: a bad value is a 400, and a failed request must leave the zone as it was.
 */
const shadowOf = (req: Incoming) => boolParam(req.url.searchParams, 'include_shadow_metadata');

const list: Handler = (svc, req, { zone }) => {
  const q = listQuery(req.url.searchParams, zone!.name);
  const shadow = shadowOf(req);
  const { records, total } = listRecords(zone!, q);
  return ok(
    records.map((r) => presentRecord(r, zone!, svc.retiredFields, shadow)),
    paging(q.page, q.perPage, records.length, total),
  );
};

const create: Handler = async (svc, req, { zone }) => {
  const shadow = shadowOf(req);
  const rec = zone!.create(recordInput(await jsonBody(req)));
  return ok(presentRecord(rec, zone!, svc.retiredFields, shadow));
};

const getRecord: Handler = (svc, req, { zone, id }) => ok(presentRecord(zone!.get(id!), zone!, svc.retiredFields, shadowOf(req)));

const putRecord: Handler = async (svc, req, { zone, id }) => {
  zone!.get(id!); // an unknown id is 404 before the body is judged
  const shadow = shadowOf(req);
  const rec = zone!.update(id!, recordInput(await jsonBody(req)), 'put');
  return ok(presentRecord(rec, zone!, svc.retiredFields, shadow));
};

const patchRecord: Handler = async (svc, req, { zone, id }) => {
  zone!.get(id!);
  const shadow = shadowOf(req);
  const rec = zone!.update(id!, recordInput(await jsonBody(req)), 'patch');
  return ok(presentRecord(rec, zone!, svc.retiredFields, shadow));
};

const deleteRecord: Handler = (_svc, _req, { zone, id }) => {
  const rec = zone!.delete(id!);
  return ok({ id: rec.id });
};

const batch: Handler = async (svc, req, { zone }) => {
  const shadow = shadowOf(req);
  const result = zone!.batch(batchOps(await jsonBody(req)));
  const show = (list: typeof result.posts) => list.map((r) => presentRecord(r, zone!, svc.retiredFields, shadow));
  return ok({ deletes: show(result.deletes), patches: show(result.patches), puts: show(result.puts), posts: show(result.posts) });
};

const exportRecords: Handler = (svc, _req, { zone }) =>
  new Response(exportZone(zone!, svc.now()), { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });

const MAX_ZONE_FILE = 256 * 1024;

const importRecords: Handler = async (svc, req, { zone }) => {
  const started = svc.now();
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) throw dnsErrors.notMultipart();
  let form: FormData;
  try {
    form = await req.formData();
  } catch (e) {
    // An oversized or failing body keeps its own answer; only a form that does not parse is 9207.
    if (e instanceof BodyTooLarge || e instanceof BodyReadError) throw e;
    throw dnsErrors.notMultipart();
  }
  const file = form.get('file');
  if (file === null) throw dnsErrors.missingImportFile();
  const text = typeof file === 'string' ? file : await file.text();
  if (utf8Length(text) > MAX_ZONE_FILE) throw dnsErrors.importParse(0, 'zone file is larger than 256 KiB');
  const proxiedField = form.get('proxied');
  const proxied = typeof proxiedField === 'string' && proxiedField.toLowerCase() === 'true';
  const parsed = parseZoneFile(text, zone!, proxied);
  const { added, skipped } = zone!.addAll(parsed.records);
  const messages = [...parsed.skipped, ...skipped].map(({ input, error }) => {
    const item = error instanceof DnsApiError ? error.errors[0]! : { code: 1000, message: String(error) };
    const name = typeof input.name === 'string' ? input.name : '';
    return { code: item.code, message: `${name}: ${item.message}` };
  });
  const ended = svc.now();
  return json(200, {
    result: { recs_added: added.length, total_records_parsed: parsed.parsed },
    success: true,
    errors: [],
    messages,
    timing: { start_time: timestamp(started), end_time: timestamp(ended), process_time: (ended - started) / 1000 },
  });
};

// A double has no live DNS to scan: scans find nothing, and there is nothing to review.
const scan: Handler = () => ok({ recs_added: 0, total_records_parsed: 0 });
const scanTrigger: Handler = () => ok(null);
const scanReviewList: Handler = () => ok([]);
const scanReview: Handler = async (svc, req, { zone }) => {
  const body = await jsonBody(req);
  const accepts = Array.isArray(body.accepts) ? body.accepts : [];
  const rejects = Array.isArray(body.rejects) ? body.rejects : [];
  // Nothing is pending review, so a reject names nothing and an accept is an ordinary create.
  if (rejects.length) throw dnsErrors.recordNotFound();
  const created = zone!.batch(batchOps({ posts: accepts })).posts;
  return ok({ accepts: created.map((r) => presentRecord(r, zone!, svc.retiredFields)), rejects: [] });
};
