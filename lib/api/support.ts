/**
 * Test support for the `/client/v4` front door (a DnsApi, a CloudflareApi; front-door.ts): its fault
 * rules and its call log, written on the shared primitives (lib/support/) and wrapped around the
 * double's two entry points, never inside its rules: API requests (`fetch` and `handle` both end in one call to
 * the router) and DNS questions (`ask`: the DNS server's, over UDP and TCP, and `resolve`'s), whose
 * log entries and fault rules have `surface: 'dns'`.
 *
 * A failing fault answers before the router runs, in the API's envelope, so it changes nothing
 * stored; a delay waits on the double's clock, then lets the request through. On a DNS question a
 * rule answers `rcode` (SERVFAIL by default) or nothing at all (`drop`), or only delays it.
 */
import type { TimeSource } from '../clock.js';
import type { DnsAnswer, DnsQuestion, DnsRcode } from '../dns-answer.js';
import { apiErrors } from './errors.js';
import type { Incoming } from './router.js';
import { ArrayStore, CallLog, partialMatch, show, type LoggedCall } from '../support/call-log.js';
import { ownDouble, type StateOwner, type TestDouble } from '../support/double.js';
import { FaultList, type FaultSchedule, type Injected } from '../support/faults.js';

/** An API fault rule: requests it catches get `status` in the API's error envelope. */
export interface ApiFault extends FaultSchedule {
  /** HTTP method(s) caught (any case). Default: every method. */
  method?: string | readonly string[];
  /**
   * The path caught: a string is matched against the path under the base path (`/client/v4/`
   * unless `basePath` says otherwise; `*` stands for one segment, so `zones/*\/dns_records` catches
   * creates and lists in any zone); a RegExp is tested against the whole path (`/client/v4/...`).
   * Default: every path.
   */
  path?: string | RegExp;
  /**
   * The status answered. 429 answers the API's rate-limit error (code 971); a 5xx answers code
   * 10001 `Internal error` (the API's 5xx bodies are not documented: our choice). Default 500,
   * unless `delay` is given alone (then the request is only delayed).
   */
  status?: number;
  /** The error's code and message in the envelope, instead of the status's defaults. */
  code?: number;
  message?: string;
  /** Adds `retry-after: <seconds>` to the response (the API's rate limiter sends it on 429). */
  retryAfter?: number;
  /**
   * What the rule catches: `'api'` (the default) API requests, `'dns'` DNS questions (over UDP and
   * TCP from the DNS server, and `api.resolve`). A DNS rule takes `name`, `type`, `rcode`, `drop`
   * and `delay`; an API rule the HTTP fields.
   */
  surface?: 'api' | 'dns';
  /** DNS: the question name caught (a string: that name, any case, trailing dot or not; a RegExp: tested against the name as asked). Default: every name. */
  name?: string | RegExp;
  /** DNS: the question type(s) caught (`TXT`, any case). Default: every type. */
  type?: string | readonly string[];
  /** DNS: the response code answered, with no records. Default `SERVFAIL` (unless `drop`, or `delay` alone). */
  rcode?: Exclude<DnsRcode, 'NOERROR'>;
  /** DNS: no answer at all (a lost datagram, a dead server): the client's timeout and retry are what is tested. */
  drop?: boolean;
}

/** The response codes a DNS fault rule may answer. */
const FAULT_RCODES: readonly string[] = ['FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];
const HTTP_FIELDS = ['method', 'path', 'status', 'code', 'message', 'retryAfter'] as const;
const DNS_FIELDS = ['name', 'type', 'rcode', 'drop'] as const;

/** A DNS name as compared: lower case, no trailing dot. */
const plainName = (name: string) => name.toLowerCase().replace(/\.$/, '');

function nameMatches(want: string | RegExp | undefined, name: string): boolean {
  if (want === undefined) return true;
  if (want instanceof RegExp) {
    want.lastIndex = 0;
    return want.test(name);
  }
  return plainName(want) === plainName(name);
}

const typeMatches = (want: string | readonly string[] | undefined, type: string) =>
  want === undefined || [want].flat().some((t) => t.toUpperCase() === type.toUpperCase());

/** One call as the fault rules see it: an API request, or a DNS question. */
type FaultCall = { surface: 'api'; method: string; path: string } | { surface: 'dns'; name: string; type: string };

function ruleCatches(rule: ApiFault, call: FaultCall, basePath: string): boolean {
  if (call.surface === 'dns')
    return rule.surface === 'dns' && nameMatches(rule.name, call.name) && typeMatches(rule.type, call.type);
  return (
    rule.surface !== 'dns' && methodMatches(rule.method, call.method) && pathMatches(rule.path, call.path, basePath)
  );
}

function checkRule(rule: ApiFault): void {
  if (rule.surface !== undefined && rule.surface !== 'api' && rule.surface !== 'dns')
    throw new RangeError(`dns fault: surface must be 'api' or 'dns', got ${JSON.stringify(rule.surface)}`);
  if (rule.surface === 'dns') {
    for (const f of HTTP_FIELDS)
      if (rule[f] !== undefined)
        throw new RangeError(
          `dns fault: '${f}' is for API requests; a rule with surface 'dns' takes name, type, rcode, drop and delay`,
        );
    if (rule.rcode !== undefined && !FAULT_RCODES.includes(rule.rcode))
      throw new RangeError(
        `dns fault: rcode must be one of ${FAULT_RCODES.join(', ')}, got ${JSON.stringify(rule.rcode)}`,
      );
    if (rule.drop !== undefined && typeof rule.drop !== 'boolean')
      throw new RangeError(`dns fault: drop must be a boolean, got ${JSON.stringify(rule.drop)}`);
    if (rule.drop && rule.rcode !== undefined) throw new RangeError('dns fault: give rcode or drop, not both');
    return;
  }
  for (const f of DNS_FIELDS)
    if (rule[f] !== undefined) throw new RangeError(`dns fault: '${f}' is for DNS questions: add surface: 'dns'`);
  if (rule.status !== undefined && !(Number.isInteger(rule.status) && rule.status >= 200 && rule.status <= 599)) {
    throw new RangeError(`dns fault: status must be an HTTP status, got ${rule.status}`);
  }
}

/** Whether a rule only delays what it catches. */
const delaysOnly = (rule: ApiFault) =>
  rule.delay !== undefined &&
  (rule.surface === 'dns' ? rule.rcode === undefined && !rule.drop : rule.status === undefined);

/** How a request authenticated, as the log shows it (never the secret itself). */
export type ApiAuthScheme = 'bearer' | 'global-key' | 'none';

export interface ApiRequest extends LoggedCall {
  readonly method: string;
  /** The URL's path, `/client/v4/...` (under the configured base path). */
  readonly path: string;
  /** Query parameters (a name given more than once keeps every value, in an array). */
  readonly query: Readonly<Record<string, string | string[]>>;
  /** The request body: parsed JSON when it is JSON, else its text; undefined when empty. */
  readonly body: unknown;
  readonly auth: ApiAuthScheme;
  /** 0 until the response is ready. */
  readonly status: number;
  /** The response body: parsed JSON when it is JSON, else its text. */
  readonly response: unknown;
  /** Set when a fault rule acted on the request. */
  readonly injected?: Injected;
  /**
   * `'dns'` for a DNS question (absent for an API request). A question's entry has `method`
   * `'QUERY'`, `path` the name asked, `query` `{ type }`, `response` the answer (absent when dropped),
   * `status` 0, and the fields below.
   */
  readonly surface?: 'dns';
  /** DNS: how the question came (`udp`, `tcp`, or `in-process` for `api.resolve`). */
  readonly transport?: 'udp' | 'tcp' | 'in-process';
  /** DNS: the response code answered, or `dropped` when no answer was sent. */
  readonly rcode?: DnsRcode | 'dropped';
}

/** Fields a logged request must have: `path` as in a fault rule; `body`/`response` match partially. */
export interface ApiRequestQuery {
  method?: string;
  path?: string | RegExp;
  query?: Record<string, unknown>;
  body?: unknown;
  auth?: ApiAuthScheme;
  status?: number;
  response?: unknown;
  injected?: boolean;
  /** `'api'`: API requests only; `'dns'`: DNS questions only. Default: both. */
  surface?: 'api' | 'dns';
  /** DNS: the question name (any case, trailing dot or not) or a RegExp. */
  name?: string | RegExp;
  /** DNS: the question type. */
  type?: string;
  rcode?: DnsRcode | 'dropped';
}

/**
 * A rule's or query's `path` against a request path. A string is relative to `basePath` (the
 * DnsApi's, `/client/v4` by default, `''` at a bare origin): both the request path and the pattern
 * lose it, and the pattern's leading slash, before they are compared.
 */
function pathMatches(want: string | RegExp | undefined, path: string, basePath: string): boolean {
  if (want === undefined) return true;
  if (want instanceof RegExp) {
    want.lastIndex = 0;
    return want.test(path);
  }
  const prefix = `${basePath}/`;
  const under = path.startsWith(prefix) ? path.slice(prefix.length) : path;
  let pattern = want.startsWith('/') ? want : `/${want}`;
  if (pattern.startsWith(prefix)) pattern = pattern.slice(prefix.length);
  pattern = pattern.replace(/^\//, '').replace(/\/$/, '');
  const re = new RegExp(`^${pattern.split('*').map(escape).join('[^/]+')}/?$`);
  return re.test(under);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const methodMatches = (want: string | readonly string[] | undefined, method: string) =>
  want === undefined || [want].flat().some((m) => m.toUpperCase() === method);

function authScheme(headers: Incoming['headers']): ApiAuthScheme {
  if (headers.get('authorization') !== null) return 'bearer';
  if (headers.get('x-auth-key') !== null || headers.get('x-auth-email') !== null) return 'global-key';
  return 'none';
}

function parseBody(text: string, type: string | null): unknown {
  if (text === '') return undefined;
  if (type === null || /json/i.test(type)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function queryOf(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

function matchesRequest(e: ApiRequest, q: ApiRequestQuery, basePath: string): boolean {
  if (q.surface !== undefined && q.surface !== (e.surface ?? 'api')) return false;
  if (q.name !== undefined && !(e.surface === 'dns' && nameMatches(q.name, e.path))) return false;
  if (q.type !== undefined && !(e.surface === 'dns' && typeMatches(q.type, String(e.query.type)))) return false;
  if (q.rcode !== undefined && q.rcode !== e.rcode) return false;
  if (q.method !== undefined && q.method.toUpperCase() !== e.method) return false;
  if (q.path !== undefined && e.surface !== 'dns' && !pathMatches(q.path, e.path, basePath)) return false;
  if (q.path !== undefined && e.surface === 'dns') return false;
  if (q.query !== undefined && !partialMatch(e.query, q.query)) return false;
  if (q.body !== undefined && !partialMatch(e.body, q.body)) return false;
  if (q.auth !== undefined && q.auth !== e.auth) return false;
  if (q.status !== undefined && q.status !== e.status) return false;
  if (q.response !== undefined && !partialMatch(e.response, q.response)) return false;
  if (q.injected !== undefined && q.injected !== (e.injected !== undefined)) return false;
  return true;
}

/** The response's first error, or its result's id/name, in a few words. */
function outcomeCell(e: ApiRequest): string {
  const r = e.response as
    { success?: boolean; errors?: { code: number; message: string }[]; result?: unknown } | undefined;
  if (r && typeof r === 'object' && r.success === false && r.errors?.[0])
    return `${r.errors[0].code} ${r.errors[0].message}`;
  if (r && typeof r === 'object' && 'result' in r) {
    const res = r.result;
    if (Array.isArray(res)) return `${res.length} results`;
    if (res && typeof res === 'object') {
      const o = res as Record<string, unknown>;
      return [o.type, o.name, o.content].filter((x) => typeof x === 'string').join(' ') || show(o.id ?? '');
    }
  }
  return typeof r === 'string' ? r : '';
}

/** One line per request (`dns serve --log`): time, method, path, status, outcome. */
export function requestLine(e: ApiRequest): string {
  if (e.surface === 'dns') {
    return `${new Date(e.at).toISOString()} DNS/${e.transport} ${e.path} ${String(e.query.type)} ${e.rcode ?? ''}${e.injected ? ` (fault #${e.injected.fault})` : ''}`;
  }
  const q = new URLSearchParams(Object.entries(e.query).flatMap(([k, v]) => [v].flat().map((x) => [k, x]))).toString();
  return `${new Date(e.at).toISOString()} ${e.method} ${e.path}${q ? `?${q}` : ''} ${e.status} ${outcomeCell(e)}${e.injected ? ` (fault #${e.injected.fault})` : ''}`;
}

const row = (e: ApiRequest, basePath: string): Record<string, string> => ({
  at: new Date(e.at).toISOString(),
  method: e.surface === 'dns' ? `DNS ${String(e.query.type)}` : e.method,
  // Under the base path, with ids cut to their first characters: the path stays readable in a column.
  path: (basePath && e.path.startsWith(`${basePath}/`) ? e.path.slice(basePath.length) : e.path).replace(
    /[0-9a-f]{32}/g,
    (id) => `${id.slice(0, 6)}…`,
  ),
  auth: e.auth,
  body: show(e.body),
  status: e.surface === 'dns' ? (e.rcode ?? '') : String(e.status),
  outcome:
    e.surface === 'dns' ? `${(e.response as DnsAnswer | undefined)?.answers.length ?? 0} answers` : outcomeCell(e),
  fault: e.injected ? `#${e.injected.fault}${e.injected.delay ? ` +${e.injected.delay} ms` : ''}` : '',
});

type MutableRequest = { -readonly [K in keyof ApiRequest]: ApiRequest[K] };

const JSON_HEADERS = { 'content-type': 'application/json' };

function faultResponse(rule: ApiFault): Response {
  const status = rule.status ?? 500;
  const base = status === 429 ? apiErrors.rateLimited().errors[0]! : { code: 10001, message: 'Internal error' };
  const error = { code: rule.code ?? base.code, message: rule.message ?? base.message };
  const headers: Record<string, string> = { ...JSON_HEADERS };
  if (rule.retryAfter !== undefined) headers['retry-after'] = String(rule.retryAfter);
  return new Response(JSON.stringify({ result: null, success: false, errors: [error], messages: [] }), {
    status,
    headers,
  });
}

export class ApiSupport {
  readonly faults: FaultList<ApiFault, FaultCall>;
  readonly log: CallLog<ApiRequest, ApiRequestQuery>;
  private readonly store = new ArrayStore<ApiRequest>();

  constructor(
    private readonly time: TimeSource,
    recording: boolean,
    /** The DnsApi's base path: rules' and queries' string paths are relative to it. */
    basePath: string,
  ) {
    this.faults = new FaultList<ApiFault, FaultCall>(
      (rule, call) => ruleCatches(rule, call, basePath),
      checkRule,
      (rule) =>
        rule.surface === 'dns'
          ? {
              method: `DNS ${rule.type === undefined ? '*' : [rule.type].flat().join(',')}`,
              path: rule.name === undefined ? '*' : String(rule.name),
              status: delaysOnly(rule) ? '' : rule.drop ? 'drop' : (rule.rcode ?? 'SERVFAIL'),
            }
          : {
              method: rule.method === undefined ? '*' : [rule.method].flat().join(','),
              path: rule.path === undefined ? '*' : String(rule.path),
              status: delaysOnly(rule) ? '' : String(rule.status ?? 500),
            },
    );
    this.log = new CallLog<ApiRequest, ApiRequestQuery>(
      recording,
      this.store,
      (e, q) => matchesRequest(e, q, basePath),
      (e) => row(e, basePath),
    );
  }

  clear(): void {
    this.faults.clear();
    this.log.clear();
  }

  /** Answers a request through `route`, with faults and the log around it. */
  respond(req: Incoming, route: (req: Incoming) => Promise<Response>): Promise<Response> {
    if (!this.faults.active && !this.log.recording) return route(req);
    return this.run(req, route);
  }

  /**
   * A DNS question answered through `answer` (the model; a promise when the answer is signed), with
   * the log (surface `dns`) and the fault rules with surface `dns` around it: the answer, or null
   * when a rule dropped it.
   */
  question(
    question: DnsQuestion,
    transport: 'udp' | 'tcp' | 'in-process',
    answer: () => DnsAnswer | Promise<DnsAnswer>,
  ): AskedAnswer {
    if (!this.faults.active && !this.log.recording) return answer();
    const type = String(question.type).toUpperCase();
    const entry = this.log.recording
      ? (this.store.push({
          seq: this.store.length + 1,
          at: this.time.now(),
          surface: 'dns',
          transport,
          method: 'QUERY',
          path: question.name,
          query: { type },
          body: undefined,
          auth: 'none',
          status: 0,
          response: undefined,
        }) as MutableRequest)
      : undefined;
    const fault = this.faults.active ? this.faults.take({ surface: 'dns', name: question.name, type }) : undefined;
    const acts = fault !== undefined && !delaysOnly(fault.rule);
    if (fault && entry) entry.injected = { fault: fault.id, delay: fault.rule.delay, failed: acts };
    const logged = (out: DnsAnswer | null): DnsAnswer | null => {
      if (entry) {
        entry.rcode = out === null ? 'dropped' : out.rcode;
        if (out !== null) entry.response = out;
        this.log.done(entry);
      }
      return out;
    };
    const finish = (): DnsAnswer | null | Promise<DnsAnswer | null> => {
      const out = !acts ? answer() : fault.rule.drop ? null : faultAnswer(fault.rule.rcode ?? 'SERVFAIL');
      return out instanceof Promise ? out.then(logged) : logged(out);
    };
    return fault?.rule.delay ? this.time.sleep(fault.rule.delay).then(finish) : finish();
  }

  private async run(req: Incoming, route: (req: Incoming) => Promise<Response>): Promise<Response> {
    const method = req.method.toUpperCase();
    const path = req.url.pathname;
    let entry: MutableRequest | undefined;
    let text: Promise<string> | undefined;
    if (this.log.recording) {
      // The router may read the body; keep what it read for the log.
      const read = req.text.bind(req);
      req = { ...req, text: () => (text ??= read()) };
      entry = this.store.push({
        seq: this.store.length + 1,
        at: this.time.now(),
        method,
        path,
        query: queryOf(req.url),
        body: undefined,
        auth: authScheme(req.headers),
        status: 0,
        response: undefined,
      }) as MutableRequest;
    }
    const fault = this.faults.active ? this.faults.take({ surface: 'api', method, path }) : undefined;
    const fails = fault !== undefined && !delaysOnly(fault.rule);
    if (fault) {
      if (entry) entry.injected = { fault: fault.id, delay: fault.rule.delay, failed: fails };
      if (fault.rule.delay) await this.time.sleep(fault.rule.delay);
    }
    const res = fails ? faultResponse(fault.rule) : await route(req);
    if (entry) {
      const type = req.headers.get('content-type');
      if (type !== null && /multipart\/form-data/i.test(type)) entry.body = '[multipart form data]';
      else if (text !== undefined || (method !== 'GET' && method !== 'HEAD'))
        entry.body = parseBody(await req.text().catch(() => ''), type);
      entry.status = res.status;
      entry.response = parseBody(await res.clone().text(), res.headers.get('content-type'));
      this.log.done(entry);
    }
    return res;
  }
}

/** A DNS question's answer through the test support: the answer, or null when a fault rule dropped it. */
export type AskedAnswer = DnsAnswer | null | Promise<DnsAnswer | null>;

/** A fault rule's answer to a DNS question it fails: its response code, no records. */
const faultAnswer = (rcode: DnsRcode): DnsAnswer => ({
  rcode,
  authoritative: false,
  answers: [],
  authorities: [],
  additionals: [],
});

/**
 * An API double (DnsApi, CloudflareApi) as a test double (double.ts): its fault rules, its request
 * log, and the readers its products' matchers find (its zones), opaque to the front door.
 */
export function apiDouble(api: StateOwner, readers: readonly object[], support: ApiSupport): TestDouble {
  return ownDouble(api, support, {
    name: 'DnsApi',
    label: 'DnsApi',
    entry: 'request',
    sameKind: (e, q) => (e as ApiRequest).method === (q as ApiRequestQuery).method?.toUpperCase(),
    readers,
  });
}
