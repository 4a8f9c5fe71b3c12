/**
 * One fuzz run: a seeded sequence of HTTP requests through `api.fetch`, each followed by the
 * property checks. A violation throws a `FuzzFailure` naming the seed, the step, the request and
 * the response, and the requests that led there.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the fuzzer's random request bodies and the API's answers are JSON of any shape */
import { DnsApi, type DnsApiOptions } from '../../../lib/dns.js';
import { BASE_URL } from '../support.js';
import { Rng, genPatchBody, genRecordBody, randomHex32 } from './gen.js';
import {
  canon,
  envelopeProblems,
  roundTripLimit,
  naiveShadow,
  naiveFilter,
  orderProblem,
  portable,
  zoneProblems,
  type ListFilter,
  type Rec,
} from './oracle.js';

const KEY = '0123456789abcdef0123456789abcdef01234';
const OPS_KEY = 'fedcba9876543210fedcba9876543210fedcb';

interface ZoneInfo {
  id: string;
  name: string;
  plan: 'free' | 'pro' | 'enterprise';
}

/** Who sends a request, and which zones that caller may see (`null` = all, `'none'` = refused). */
interface Caller {
  label: string;
  headers: Record<string, string>;
  zones: ReadonlySet<string> | null | 'none';
}

class FuzzFailure extends Error {}

interface Sent {
  method: string;
  url: URL;
  status: number;
  body: any;
  text: string;
  requestBody?: string;
}

export interface FuzzOptions {
  seed: number;
  steps: number;
}

/** Requests by operation and status class, summed over the seeds of one process (FUZZ_STATS=1 prints it). */
export const fuzzStats = new Map<string, number>();

export async function fuzzSeed({ seed, steps }: FuzzOptions): Promise<{ requests: number }> {
  const rng = new Rng(seed);
  const compat = rng.pick(['document', 'today'] as const);
  let now = Date.UTC(2026, 0, 1);
  const options: DnsApiOptions = {
    compat,
    clock: () => now,
    zones: [
      { name: 'example.com', plan: 'pro' },
      { name: 'other.org', plan: 'free', limits: { records: 40 } },
      { name: 'Sub.Example.NET.', plan: 'enterprise', limits: { batch: 6, commentLength: 20 } },
    ],
    credentials: [
      { token: 'tok-all' },
      { token: 'tok-z1', zones: ['example.com'] },
      { token: 'tok-z3', zones: ['SUB.example.NET.'] },
      { email: 'dev@example.com', key: KEY },
      { email: 'ops@example.com', key: OPS_KEY, zones: [] },
    ],
  };
  if (rng.chance(0.3)) options.refuseTypeChange = true;
  // Each switch of the compat table also on its own, against the other mode's defaults.
  if (rng.chance(0.2)) options.quoteTxt = rng.chance(0.5);
  if (rng.chance(0.2)) options.labelRules = rng.pick(['document', 'today'] as const);
  if (rng.chance(0.2)) options.providerAddresses = rng.pick(['refuse', 'refuse-proxied'] as const);
  if (rng.chance(0.2)) options.retiredFields = rng.chance(0.5);
  const api = new DnsApi(options);
  const zones: ZoneInfo[] = api.zones.map((z, i) => ({ ...z, plan: (['pro', 'free', 'enterprise'] as const)[i]! }));
  // The ops key may see the second zone only, by id.
  api.addCredential({ email: 'ops2@example.com', key: OPS_KEY, zones: [zones[1]!.id] });

  const trace: string[] = [];
  let step = 0;
  let requests = 0;

  const fail = (why: string, sent?: Sent): never => {
    const switches = (['refuseTypeChange', 'quoteTxt', 'labelRules', 'providerAddresses', 'retiredFields'] as const)
      .filter((k) => options[k] !== undefined)
      .map((k) => `${k} ${options[k]}`);
    const lines = [`seed ${seed} (compat ${compat}${switches.map((x) => `, ${x}`).join('')}), step ${step}: ${why}`];
    if (sent) {
      lines.push(
        `request: ${sent.method} ${sent.url.pathname}${sent.url.search}${sent.requestBody !== undefined ? ` ${sent.requestBody.slice(0, 1500)}` : ''}`,
      );
      lines.push(`response: ${sent.status} ${sent.text.slice(0, 1500)}`);
    }
    lines.push('last requests:', ...trace.slice(-8));
    lines.push(
      `replay: FUZZ_FROM=${seed} FUZZ_SEEDS=1 FUZZ_STEPS=${steps} npx vitest run spec/dns/fuzz.test.ts --project unit`,
    );
    throw new FuzzFailure(lines.join('\n'));
  };

  const callers: Caller[] = [
    { label: 'token (all zones)', headers: { authorization: 'Bearer tok-all' }, zones: null },
    { label: 'global key', headers: { 'x-auth-email': 'dev@example.com', 'x-auth-key': KEY }, zones: null },
    {
      label: 'global key, email in capitals',
      headers: { 'x-auth-email': 'DEV@example.com', 'x-auth-key': KEY },
      zones: null,
    },
    {
      label: 'token scoped to example.com',
      headers: { authorization: 'Bearer tok-z1' },
      zones: new Set(['example.com']),
    },
    {
      label: 'token scoped to SUB.example.NET.',
      headers: { authorization: 'Bearer tok-z3' },
      zones: new Set(['sub.example.net']),
    },
    {
      label: 'key scoped to other.org by id',
      headers: { 'x-auth-email': 'ops2@example.com', 'x-auth-key': OPS_KEY },
      zones: new Set(['other.org']),
    },
    {
      label: 'key scoped to nothing',
      headers: { 'x-auth-email': 'ops@example.com', 'x-auth-key': OPS_KEY },
      zones: new Set(),
    },
    { label: 'no credentials', headers: {}, zones: 'none' },
    { label: 'unknown token', headers: { authorization: 'Bearer nope' }, zones: 'none' },
    { label: 'malformed authorization', headers: { authorization: 'Token tok-all' }, zones: 'none' },
    { label: 'bearer with a space', headers: { authorization: 'Bearer tok all' }, zones: 'none' },
    {
      label: 'unknown key',
      headers: { 'x-auth-email': 'dev@example.com', 'x-auth-key': KEY.replace('0', 'f') },
      zones: 'none',
    },
    { label: 'bad email', headers: { 'x-auth-email': 'not-an-email', 'x-auth-key': KEY }, zones: 'none' },
    { label: 'key without email', headers: { 'x-auth-key': KEY }, zones: 'none' },
    {
      label: 'unknown token beside a good key',
      headers: { authorization: 'Bearer nope', 'x-auth-email': 'dev@example.com', 'x-auth-key': KEY },
      zones: null,
    },
  ];
  const caller = (): Caller => (rng.chance(0.85) ? callers[rng.int(3)]! : rng.pick(callers));
  const mayUse = (c: Caller, z: ZoneInfo) => c.zones !== 'none' && (c.zones === null || c.zones.has(z.name));
  const good = callers[0]!;

  async function send(
    method: string,
    path: string,
    init: { body?: string | FormData; headers?: Record<string, string>; who?: Caller } = {},
  ): Promise<Sent> {
    now += 1000;
    requests++;
    const url = new URL(path.startsWith('http') ? path : `${BASE_URL}${path}`);
    const headers = { ...(init.who ?? good).headers, ...init.headers };
    const requestBody = typeof init.body === 'string' ? init.body : init.body ? '<form data>' : undefined;
    let res: Response;
    // Clients call fetch every way there is: a string, a URL, a Request; headers as an object or Headers.
    const style = rng.int(4);
    const reqInit: RequestInit = {
      method,
      headers: style === 1 ? new Headers(headers) : headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
    };
    try {
      res =
        style === 2 && !['GET', 'HEAD'].includes(method.toUpperCase())
          ? await api.fetch(new Request(url, reqInit))
          : style === 3
            ? await api.fetch(url, reqInit)
            : await api.fetch(url.href, reqInit);
    } catch (e) {
      return fail(`fetch threw ${(e as Error)?.stack ?? e}`, {
        method,
        url,
        status: 0,
        body: undefined,
        text: '',
        requestBody,
      });
    }
    const text = await res.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const sent: Sent = { method, url, status: res.status, body, text, requestBody };
    const route = url.pathname
      .replace(/^\/client\/v4\/zones\/[0-9a-f]{32}\/dns_records/, 'records')
      .replace(/[0-9a-f]{32}/g, '{id}');
    const statKey = `${method} ${route.startsWith('records/') && !/export|import|batch|scan/.test(route) ? 'records/{id}' : route.split('?')[0]} ${Math.floor(res.status / 100)}xx`;
    fuzzStats.set(statKey, (fuzzStats.get(statKey) ?? 0) + 1);
    trace.push(
      `  ${method} ${url.pathname.replace(BASE_URL, '')}${url.search} ${requestBody?.slice(0, 200) ?? ''} -> ${res.status} ${text.slice(0, 200)}`,
    );
    const problems = envelopeProblems(method, url, res.status, res.headers.get('content-type') ?? '', text, body);
    if (problems.length) fail(problems.join('; '), sent);
    return sent;
  }

  const records = (z: ZoneInfo): Rec[] => api.records(z.id) as unknown as Rec[];
  const snapshot = () => zones.map((z) => canon(records(z)));
  const byId = (list: Rec[]) => new Map(list.map((r) => [r.id, r]));
  const existingNames = (z: ZoneInfo) => [...new Set(records(z).map((r) => r.name))];
  const dnsPath = (z: ZoneInfo, rest = '') => `/zones/${z.id}/dns_records${rest}`;
  const jsonHeaders = { 'content-type': 'application/json' };

  /** A failed request must leave every zone as it was. */
  function unchangedOnFailure(before: string[], sent: Sent) {
    if (sent.status >= 200 && sent.status < 300) return;
    const after = snapshot();
    for (let i = 0; i < zones.length; i++)
      if (after[i] !== before[i]) fail(`failed request changed zone ${zones[i]!.name}`, sent);
  }

  /** A request whose caller may not use the zone must fail. */
  function refusedIfNotAllowed(who: Caller, z: ZoneInfo, sent: Sent) {
    if (!mayUse(who, z) && sent.status < 400) fail(`${who.label} was answered for zone ${z.name}`, sent);
    if (who.zones === 'none' && sent.status < 400) fail(`${who.label} was answered`, sent);
  }

  /** After a success, the zone must be `before` with exactly these changes, and the rest unchanged. */
  function expectZone(z: ZoneInfo, beforeAll: string[], expected: Map<string, Rec>, sent: Sent) {
    const after = records(z);
    const want = [...expected.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    const got = [...after].sort((a, b) => (a.id < b.id ? -1 : 1));
    if (canon(want) !== canon(got)) {
      const w = new Map(want.map((r) => [r.id, canon(r)]));
      const g = new Map(got.map((r) => [r.id, canon(r)]));
      const diff = [...new Set([...w.keys(), ...g.keys()])]
        .filter((id) => w.get(id) !== g.get(id))
        .map((id) => `${id}: want ${w.get(id)} got ${g.get(id)}`);
      fail(`zone ${z.name} after success differs from the model:\n${diff.join('\n').slice(0, 3000)}`, sent);
    }
    const now = snapshot();
    zones.forEach((o, i) => {
      if (o !== z && now[i] !== beforeAll[i]) fail(`request on ${z.name} changed zone ${o.name}`, sent);
    });
  }

  async function getSame(z: ZoneInfo, rec: Rec, sent: Sent) {
    const g = await send('GET', dnsPath(z, `/${rec.id}`));
    if (g.status !== 200 || canon(g.body.result) !== canon(rec))
      fail(`get after write differs: ${g.text.slice(0, 600)}`, sent);
  }

  const pickZone = () =>
    rng.weighted<ZoneInfo>([
      [6, zones[0]!],
      [2, zones[1]!],
      [2, zones[2]!],
    ]);
  const someId = (z: ZoneInfo): string => {
    const own = records(z);
    return rng.weighted<() => string>([
      [8, () => (own.length ? rng.pick(own).id : randomHex32(rng))],
      [1, () => randomHex32(rng)],
      [
        1,
        () => {
          const other = records(rng.pick(zones.filter((o) => o !== z)));
          return other.length ? rng.pick(other).id : randomHex32(rng);
        },
      ],
    ])();
  };

  // ---- operations ------------------------------------------------------------------------------

  async function createOp() {
    const z = pickZone();
    const who = caller();
    const body = genRecordBody(rng, z.name, existingNames(z));
    const before = snapshot();
    const beforeZ = byId(records(z));
    const raw = rng.chance(0.05)
      ? rng.pick(['{"type":', '[]', 'null', '', '"x"', '{"type":"A","name":"www","content":"198.51.100.4",}'])
      : JSON.stringify(body);
    const headers: Record<string, string> = rng.chance(0.95)
      ? jsonHeaders
      : rng.pick<Record<string, string>>([
          {},
          { 'content-type': 'text/plain' },
          { 'content-type': 'application/json; charset=utf-8' },
          { 'content-type': 'APPLICATION/JSON' },
        ]);
    const query = rng.chance(0.1)
      ? rng.pick(['?include_shadow_metadata=true', '?foo=bar', '?include_shadow_metadata=maybe'])
      : '';
    const sent = await send('POST', dnsPath(z, query), { body: raw, headers, who });
    refusedIfNotAllowed(who, z, sent);
    unchangedOnFailure(before, sent);
    if (sent.status === 200) {
      const rec = sent.body.result;
      if (beforeZ.has(rec.id)) fail('create reused an id', sent);
      beforeZ.set(
        rec.id,
        query.includes('shadow') ? { ...rec, meta: records(z).find((r) => r.id === rec.id)?.meta } : rec,
      );
      expectZone(z, before, beforeZ, sent);
      if (!query.includes('shadow')) await getSame(z, rec, sent);
    }
  }

  async function updateOp(mode: 'PUT' | 'PATCH') {
    const z = pickZone();
    const who = caller();
    const id = someId(z);
    const old = records(z).find((r) => r.id === id);
    const body =
      mode === 'PUT'
        ? genRecordBody(rng, z.name, existingNames(z), old)
        : genPatchBody(rng, z.name, existingNames(z), old ?? {});
    const before = snapshot();
    const beforeZ = byId(records(z));
    const raw = rng.chance(0.04) ? rng.pick(['{bad', '[1]', '']) : JSON.stringify(body);
    const sent = await send(mode, dnsPath(z, `/${id}`), { body: raw, headers: jsonHeaders, who });
    refusedIfNotAllowed(who, z, sent);
    unchangedOnFailure(before, sent);
    if (!old && sent.status < 400) fail(`${mode} of an id not in this zone succeeded`, sent);
    if (sent.status === 200) {
      const rec = sent.body.result;
      if (rec.id !== id || rec.created_on !== old!.created_on) fail(`${mode} changed id or created_on`, sent);
      // PATCH keeps every field it was not given (while the type stays).
      if (mode === 'PATCH' && (body.type === undefined || body.type === old!.type)) {
        for (const k of ['name', 'content', 'ttl', 'proxied', 'comment', 'tags', 'priority', 'data', 'settings']) {
          if (
            k in body ||
            (k === 'ttl' && body.proxied === true) ||
            ((k === 'content' || k === 'priority') && 'data' in body)
          )
            continue;
          if (canon(rec[k]) !== canon(old![k])) fail(`PATCH without ${k} changed it`, sent);
        }
      }
      // *_modified_on: set when the value changes, kept when it does not, absent when empty.
      for (const [k, stamp] of [
        ['comment', 'comment_modified_on'],
        ['tags', 'tags_modified_on'],
      ] as const) {
        const empty = k === 'comment' ? rec.comment === null : rec.tags.length === 0;
        const want = empty
          ? undefined
          : canon(rec[k]) === canon(old![k]) && old![stamp]
            ? old![stamp]
            : rec.modified_on;
        if (rec[stamp] !== want) fail(`${stamp} is ${rec[stamp]}, expected ${want}`, sent);
      }
      beforeZ.set(id, rec);
      expectZone(z, before, beforeZ, sent);
      await getSame(z, rec, sent);
    }
  }

  async function deleteOp() {
    const z = pickZone();
    const who = caller();
    const id = someId(z);
    const before = snapshot();
    const beforeZ = byId(records(z));
    const sent = await send('DELETE', dnsPath(z, `/${id}`), {
      who,
      ...(rng.chance(0.1) ? { body: '{}', headers: jsonHeaders } : {}),
    });
    refusedIfNotAllowed(who, z, sent);
    unchangedOnFailure(before, sent);
    if (!beforeZ.has(id) && sent.status < 400) fail('delete of an id not in this zone succeeded', sent);
    if (sent.status === 200) {
      if (canon(sent.body.result) !== canon({ id })) fail('delete result is not {id}', sent);
      beforeZ.delete(id);
      expectZone(z, before, beforeZ, sent);
      const g = await send('GET', dnsPath(z, `/${id}`));
      if (g.status !== 404) fail('deleted record still answers', g);
    }
  }

  async function getOp() {
    const z = pickZone();
    const who = caller();
    const literal = rng.chance(0.05);
    const id = !literal
      ? someId(z)
      : rng.pick(['export', 'batch', 'ABCDEF' + '0'.repeat(26), 'x', '0'.repeat(31), '%30'.repeat(32)]);
    const before = snapshot();
    const sent = await send('GET', dnsPath(z, `/${id}`), { who });
    refusedIfNotAllowed(who, z, sent);
    unchangedOnFailure(before, sent);
    const rec = records(z).find((r) => r.id === id);
    if (!literal && sent.status === 200 && (!rec || canon(rec) !== canon(sent.body.result)))
      fail('get answered something other than the stored record', sent);
    if (rec && mayUse(who, z) && sent.status !== 200) fail('get of a stored record failed', sent);
  }

  async function batchOp() {
    const z = pickZone();
    const who = caller();
    const own = records(z);
    const names = existingNames(z);
    const n = () =>
      rng.weighted([
        [4, 0],
        [3, 1],
        [2, 2],
        [1, 4],
      ]);
    const deletes = Array.from({ length: n() }, () =>
      rng.chance(0.95) ? { id: someId(z) } : rng.pick<unknown>([{}, 'id', { id: 5 }]),
    );
    const patches = Array.from({ length: n() }, () => {
      const id = someId(z);
      return { ...genPatchBody(rng, z.name, names, own.find((r) => r.id === id) ?? {}), id };
    });
    const puts = Array.from({ length: n() }, () => {
      const id = someId(z);
      return {
        ...genRecordBody(
          rng,
          z.name,
          names,
          own.find((r) => r.id === id),
        ),
        id,
      };
    });
    const posts = Array.from({ length: n() }, () => genRecordBody(rng, z.name, names));
    const body: Record<string, unknown> = {};
    if (deletes.length || rng.chance(0.2)) body.deletes = deletes;
    if (patches.length || rng.chance(0.2)) body.patches = patches;
    if (puts.length || rng.chance(0.2)) body.puts = puts;
    if (posts.length || rng.chance(0.2)) body.posts = posts;
    if (rng.chance(0.05)) body.posts = rng.pick<unknown>([{}, 'x', null]);
    const before = snapshot();
    const model = byId(own);
    const sent = await send('POST', dnsPath(z, '/batch'), { body: JSON.stringify(body), headers: jsonHeaders, who });
    refusedIfNotAllowed(who, z, sent);
    unchangedOnFailure(before, sent);
    if (sent.status === 200) {
      const r = sent.body.result;
      for (const d of r.deletes) {
        const was = model.get(d.id);
        if (!was || canon(was) !== canon(d)) fail('batch delete result is not the record as it was', sent);
        model.delete(d.id);
      }
      for (const p of [...r.patches, ...r.puts]) {
        if (!model.has(p.id)) fail('batch updated a record that was not there', sent);
        model.set(p.id, p);
      }
      for (const p of r.posts) {
        if (model.has(p.id)) fail('batch post reused an id', sent);
        model.set(p.id, p);
      }
      const counts = ['deletes', 'patches', 'puts', 'posts'].map((k) =>
        Array.isArray(body[k]) ? (body[k] as unknown[]).length : 0,
      );
      const got = [r.deletes.length, r.patches.length, r.puts.length, r.posts.length];
      if (canon(counts) !== canon(got)) fail(`batch answered ${got} for ${counts} operations`, sent);
      // A record patched then put in one batch is reported twice; the model keeps the last.
      expectZone(z, before, model, sent);
    }
  }

  /**
   * What tools do after a read: send the record back as they got it (Terraform's PUT of unchanged
   * state, or a delete and re-create in one batch). The record must come back the same, except for
   * the times a write moves (and, for the re-create, its id).
   */
  async function echoOp() {
    const z = pickZone();
    const own = records(z);
    if (!own.length) return;
    const old = rng.pick(own);
    const before = snapshot();
    const model = byId(own);
    const same = (a: Rec, b: Rec, keepId: boolean) => {
      const strip = (r: Rec) => {
        const { modified_on: _m, created_on: _c, id, ...rest } = r;
        return keepId ? { id, ...rest } : rest;
      };
      return canon(strip(a)) === canon(strip(b));
    };
    if (rng.chance(0.5)) {
      const sent = await send('PUT', dnsPath(z, `/${old.id}`), { body: JSON.stringify(old), headers: jsonHeaders });
      if (sent.status !== 200) fail('PUT of a record as read was refused', sent);
      if (!same(sent.body.result, old, true) || sent.body.result.created_on !== old.created_on)
        fail('PUT of a record as read changed it', sent);
      model.set(old.id, sent.body.result);
      expectZone(z, before, model, sent);
    } else {
      const sent = await send('POST', dnsPath(z, '/batch'), {
        body: JSON.stringify({ deletes: [{ id: old.id }], posts: [old] }),
        headers: jsonHeaders,
      });
      // A new A/AAAA/CNAME at a delegated name is refused (docs/conformance.md, DNS choice 10), even one just deleted.
      const delegated =
        ['A', 'AAAA', 'CNAME'].includes(old.type) &&
        old.name !== z.name &&
        own.some((r) => r.type === 'NS' && r.name === old.name);
      if (delegated && sent.status === 400 && sent.body.errors[0].code === 81056) return;
      // A DS whose NS went since is refused anew (docs/conformance.md, DNS choice 27): only a re-save keeps it.
      const orphanDs =
        old.type === 'DS' && old.name !== z.name && !own.some((r) => r.type === 'NS' && r.name === old.name);
      if (orphanDs && sent.status === 400 && sent.body.errors[0].code === 1004) return;
      if (sent.status !== 200) fail('delete and re-create of a record as read was refused', sent);
      const made = sent.body.result.posts[0];
      const { comment_modified_on: _a, tags_modified_on: _b, ...oldRest } = old;
      const { comment_modified_on: _c, tags_modified_on: _d, ...madeRest } = made;
      if (!same(madeRest, oldRest, false)) fail('re-created record differs from the one read', sent);
      model.delete(old.id);
      model.set(made.id, made);
      expectZone(z, before, model, sent);
    }
  }

  /** `shadowed_by_name` (records at or below a name, its own NS excepted) and `shadowing_name` (NS at or above it). */
  async function shadowFilters(z: ZoneInfo, all: Rec[]) {
    const names = [...new Set(all.map((r) => r.name))];
    const name = names.length && rng.chance(0.9) ? rng.pick(names) : `nope.${z.name}`;
    const below = (n: string, top: string) => n === top || n.endsWith(`.${top}`);
    const key = rng.pick(['shadowed_by_name', 'shadowing_name'] as const);
    const sent = await send(
      'GET',
      dnsPath(
        z,
        `?include_shadow_metadata=true&per_page=5000&${key}=${encodeURIComponent(rng.chance(0.2) ? name.toUpperCase() : name)}`,
      ),
    );
    if (name === z.name) {
      if (sent.status !== 400) fail(`${key} of the apex should be refused`, sent);
      return;
    }
    if (sent.status !== 200) fail(`${key} listing failed`, sent);
    const want =
      key === 'shadowed_by_name'
        ? all.filter((r) => (r.name === name ? r.type !== 'NS' : below(r.name, name)))
        : all.filter((r) => r.type === 'NS' && r.name !== z.name && below(name, r.name));
    const got = (sent.body.result as Rec[]).map((r) => r.id).sort();
    if (canon(got) !== canon(want.map((r) => r.id).sort()))
      fail(`${key}=${name}: ${got.length} records, a plain scan finds ${want.length}`, sent);
  }

  /** `include_shadow_metadata=true` on a full listing must say what a plain scan of the delegations says. */
  async function shadowOp() {
    const z = pickZone();
    const all = records(z);
    const sent = await send('GET', dnsPath(z, '?include_shadow_metadata=true&per_page=5000'));
    if (sent.status !== 200) fail('shadow listing failed', sent);
    const want = naiveShadow(all, z.name);
    await shadowFilters(z, all);
    for (const r of sent.body.result as Rec[]) {
      const { auto_added: _a, managed_by_apps: _b, managed_by_argo_tunnel: _c, source: _d, ...meta } = r.meta;
      if (meta.shadowed_by) meta.shadowed_by = [...meta.shadowed_by].sort();
      if (canon(meta) !== canon(want.get(r.id)))
        fail(`shadow meta of ${r.type} ${r.name}: ${canon(meta)}, a plain scan says ${canon(want.get(r.id))}`, sent);
    }
  }

  function genFilter(z: ZoneInfo): ListFilter {
    const own = records(z);
    const some = () => (own.length ? rng.pick(own) : undefined);
    const piece = (v: string) => {
      if (!v) return v;
      const a = rng.int(v.length);
      const b = a + 1 + rng.int(v.length - a);
      return rng.chance(0.3) ? v.slice(a, b).toUpperCase() : v.slice(a, b);
    };
    const f: ListFilter = {};
    if (rng.chance(0.3)) {
      f.type = rng.weighted([
        [9, rng.pick(['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'SRV', 'NS'])],
        [3, rng.pick(['A,AAAA', 'TXT,MX,A', 'AAAA, CNAME', 'A,,TXT', 'FOO,A'])],
        [1, rng.pick(['a', 'FOO', ','])],
      ]);
    }
    if (rng.chance(0.2)) {
      const n = some()?.name ?? `www.${z.name}`;
      f.name = rng.pick([n, `${n}.`, n.toUpperCase()]);
    }
    if (rng.chance(0.1) && own.length) {
      const c = String(some()!.content);
      f.content = rng.chance(0.7) ? c : c.toUpperCase();
    }
    if (f.type && rng.chance(0.2)) f.type2 = rng.pick(['A', 'AAAA', 'TXT', f.type]);
    if (f.name && rng.chance(0.2)) f.name2 = some()?.name ?? f.name;
    if (rng.chance(0.12)) f.proxied = rng.chance(0.5);
    if (rng.chance(0.3)) {
      f.text = Array.from({ length: rng.int(2) + 1 }, () => {
        const field = rng.pick(['name', 'content', 'comment'] as const);
        const op =
          field === 'comment'
            ? rng.pick(['exact', 'contains', 'startswith', 'endswith'] as const)
            : rng.pick(['contains', 'startswith', 'endswith'] as const);
        const r = some();
        const src = r ? String(field === 'comment' ? (r.comment ?? 'hello') : r[field]) : 'www';
        return { field, op, value: op === 'exact' ? src : rng.pick([piece(src), src.slice(0, 3), src.slice(-3)]) };
      });
    }
    if (rng.chance(0.08)) f.comment = rng.pick(['present', 'absent'] as const);
    if (rng.chance(0.3)) {
      const tagged = own.flatMap((r) => r.tags as string[]);
      f.tags = Array.from({ length: rng.int(2) + 1 }, () => {
        const param = rng.pick([
          'tag',
          'tag.exact',
          'tag.contains',
          'tag.startswith',
          'tag.endswith',
          'tag.present',
          'tag.absent',
        ] as const);
        const t =
          tagged.length && rng.chance(0.85)
            ? rng.pick(tagged)
            : rng.pick(['env:prod', 'owner', 'team:web', 'v:pro', 'nope']);
        const c = t.indexOf(':');
        const value =
          param === 'tag.present' || param === 'tag.absent'
            ? t.split(':')[0]!
            : c < 0 || rng.chance(0.2)
              ? piece(t.split(':')[0]!)
              : `${t.slice(0, c)}:${param === 'tag.contains' ? piece(t.slice(c + 1)) : param === 'tag.startswith' ? t.slice(c + 1, c + 3) : param === 'tag.endswith' ? t.slice(-2) : t.slice(c + 1)}`;
        return { param, value: rng.chance(0.2) ? value.toUpperCase() : value };
      });
      if (rng.chance(0.5)) f.tagMatch = rng.pick(['all', 'any'] as const);
    }
    if (rng.chance(0.3)) f.match = rng.pick(['all', 'any'] as const);
    if (rng.chance(0.08)) f.search = rng.pick(['www', 'example', 'prod', 'HELLO', '198.51', 'zzz']);
    if (rng.chance(0.4)) f.order = rng.pick(['type', 'name', 'ttl', 'content', 'proxied'] as const);
    if (rng.chance(0.3)) f.direction = rng.pick(['asc', 'desc'] as const);
    return f;
  }

  const filterQuery = (f: ListFilter) => {
    const q = new URLSearchParams();
    if (f.type !== undefined) q.append('type', f.type);
    if (f.name !== undefined) q.append(rng.chance(0.5) ? 'name' : 'name.exact', f.name);
    if (f.type2 !== undefined) q.append('type', f.type2);
    if (f.name2 !== undefined) q.append('name', f.name2);
    if (f.content !== undefined) q.append(rng.chance(0.5) ? 'content' : 'content.exact', f.content);
    if (f.proxied !== undefined) q.append('proxied', String(f.proxied));
    for (const t of f.text ?? [])
      q.append(
        t.field === 'comment' && t.op === 'exact' && rng.chance(0.5) ? 'comment' : `${t.field}.${t.op}`,
        t.value,
      );
    if (f.comment) q.append(`comment.${f.comment}`, '');
    for (const t of f.tags ?? []) q.append(t.param, t.value);
    if (f.tagMatch) q.append('tag_match', f.tagMatch);
    if (f.match) q.append('match', f.match);
    if (f.search) q.append('search', f.search);
    if (f.order) q.append('order', f.order);
    if (f.direction) q.append('direction', f.direction);
    return q;
  };

  async function listOp() {
    const z = pickZone();
    const who = caller();
    const f = genFilter(z);
    const q = filterQuery(f);
    const perPage = rng.weighted<number | undefined>([
      [3, undefined],
      [4, rng.int(7) + 1],
      [1, 5_000_000],
    ]);
    const page = rng.weighted<number | undefined>([
      [4, undefined],
      [3, rng.int(4) + 1],
    ]);
    if (perPage !== undefined) q.set('per_page', String(perPage));
    if (page !== undefined) q.set('page', String(page));
    const odd = rng.chance(0.1);
    if (odd)
      q.set(
        rng.pick(['foo', 'match', 'per_page', 'page', 'direction', 'order', 'proxied']),
        rng.pick(['bar', '0', '-1', 'x', '']),
      );
    const before = snapshot();
    const all = records(z);
    const sent = await send('GET', dnsPath(z, `?${q}`), { who });
    refusedIfNotAllowed(who, z, sent);
    unchangedOnFailure(before, sent);
    if (snapshot().some((s, i) => s !== before[i])) fail('a list changed state', sent);
    if (sent.status !== 200) return;
    if (odd) return; // an odd parameter that was accepted changes what the filter means
    const want = naiveFilter(all, f);
    const info = sent.body.result_info;
    const pp = Number(q.get('per_page') || 100);
    const pg = Number(q.get('page') || 1);
    const expectCount = Math.max(0, Math.min(pp, want.length - (pg - 1) * pp));
    const result: Rec[] = sent.body.result;
    if (info.total_count !== want.length)
      fail(`total_count ${info.total_count}, a plain scan finds ${want.length}`, sent);
    if (result.length !== expectCount || info.count !== result.length)
      fail(`page holds ${result.length} (count ${info.count}), expected ${expectCount}`, sent);
    if (info.total_pages !== Math.max(1, Math.ceil(want.length / pp)) || info.page !== pg || info.per_page !== pp)
      fail('result_info page fields', sent);
    const wantIds = new Set(want.map((r) => r.id));
    const stored = byId(all);
    for (const r of result) {
      if (!wantIds.has(r.id)) fail(`list returned ${r.id}, which the filter does not match`, sent);
      if (canon(r) !== canon(stored.get(r.id))) fail(`listed record ${r.id} differs from the stored one`, sent);
    }
    const o = orderProblem(result, f);
    if (o) fail(o, sent);
  }

  /** Walks every page; the union must be the matching records, each exactly once, in order. */
  async function listAllOp() {
    const z = pickZone();
    const f = genFilter(z);
    const all = records(z);
    const want = naiveFilter(all, f);
    const perPage = rng.int(6) + 1;
    const seen: Rec[] = [];
    for (let page = 1; ; page++) {
      const q = filterQuery(f);
      q.set('per_page', String(perPage));
      q.set('page', String(page));
      const sent = await send('GET', dnsPath(z, `?${q}`));
      if (sent.status !== 200) fail('list failed', sent);
      const info = sent.body.result_info;
      if (info.total_count !== want.length)
        fail(`total_count ${info.total_count}, a plain scan finds ${want.length}`, sent);
      seen.push(...sent.body.result);
      if (sent.body.result.length === 0) {
        // An empty list counts one page (envelope.ts): its first page is empty and the last.
        if (want.length > 0 && page <= info.total_pages) fail('empty page before the last', sent);
        break;
      }
      if (page > 1000) fail('pages never end', sent);
    }
    const ids = seen.map((r) => r.id);
    if (new Set(ids).size !== ids.length) fail(`pages repeat records (per_page ${perPage}, ${JSON.stringify(f)})`);
    if (canon([...ids].sort()) !== canon(want.map((r) => r.id).sort()))
      fail(`pages cover ${ids.length} records, a plain scan finds ${want.length} (${JSON.stringify(f)})`);
    const o = orderProblem(seen, f);
    if (o) fail(`across pages (per_page ${perPage}): ${o}`);
  }

  async function exportOp() {
    const z = pickZone();
    const who = caller();
    const before = snapshot();
    const sent = await send('GET', dnsPath(z, '/export'), { who });
    refusedIfNotAllowed(who, z, sent);
    unchangedOnFailure(before, sent);
    if (sent.status === 200 && snapshot().some((s, i) => s !== before[i])) fail('export changed state', sent);
  }

  const SNIPPETS = [
    '$ORIGIN example.com.\nwww 300 IN A 198.51.100.7',
    'www\t3600\tIN\tTXT\t"v=DKIM1; p=(x)"',
    'mail IN MX 10 mx.example.net.',
    '@ IN NS ada.ns.cloudflare.com.',
    '$TTL 600\nsrv._tcp IN SRV 1 2 443 target.example.net.',
    '$GENERATE 1-3 host$ A 198.51.100.$',
    '$INCLUDE other.zone',
    'broken line without type 300',
    'cname IN CNAME target.example.net. ; hello cf_tags=cf-proxied:true,env:prod',
    'multi IN TXT ( "part one"\n "part two" )',
    'bad IN A 999.1.1.1',
    '@ IN SOA ns. host. 1 2 3 4 5',
    'caa IN CAA 0 issue "letsencrypt.org"',
    'x'.repeat(300),
    'www IN AAAA 2001:db8::9 ; cf_tags=cf-proxied:false',
  ];

  async function importOp() {
    const z = pickZone();
    const who = caller();
    let text: string;
    if (rng.chance(0.5)) {
      const src = rng.pick(zones);
      const e = await send('GET', dnsPath(src, '/export'));
      text = e.text;
    } else {
      text = Array.from({ length: rng.int(4) + 1 }, () => rng.pick(SNIPPETS)).join('\n');
    }
    const form = new FormData();
    const shape = rng.weighted<string>([
      [8, 'file'],
      [2, 'string'],
      [1, 'none'],
      [1, 'json'],
    ]);
    if (shape === 'file') form.set('file', new Blob([text]), 'zone.txt');
    if (shape === 'string') form.set('file', text);
    if (rng.chance(0.3)) form.set('proxied', rng.pick(['true', 'false', 'TRUE', 'yes']));
    const before = snapshot();
    const beforeZ = byId(records(z));
    const sent =
      shape === 'json'
        ? await send('POST', dnsPath(z, '/import'), { body: JSON.stringify({ file: text }), headers: jsonHeaders, who })
        : await send('POST', dnsPath(z, '/import'), { body: form, who });
    refusedIfNotAllowed(who, z, sent);
    unchangedOnFailure(before, sent);
    if (sent.status === 200) {
      const after = records(z);
      const added = after.filter((r) => !beforeZ.has(r.id));
      for (const r of added) beforeZ.set(r.id, r);
      expectZone(z, before, beforeZ, sent);
      const res = sent.body.result;
      if (res.recs_added !== added.length) fail(`recs_added ${res.recs_added}, ${added.length} records appeared`, sent);
      if (sent.body.messages.length !== res.total_records_parsed - res.recs_added)
        fail('each skipped record should have one message', sent);
    }
  }

  /** Property 5: export, then import into a fresh zone of the same name, gives the same records. */
  async function roundTripOp(z: ZoneInfo) {
    const e = await send('GET', dnsPath(z, '/export'));
    if (e.status !== 200) fail('export failed', e);
    const init = options.zones!.find((o) => o.name.toLowerCase().replace(/\.$/, '') === z.name)!;
    const fresh = new DnsApi({ ...options, zones: [{ ...init, id: undefined }] });
    const freshId = fresh.zones[0]!.id;
    const form = new FormData();
    form.set('file', new Blob([e.text]), 'zone.txt');
    const res = await fresh.fetch(`${BASE_URL}/zones/${freshId}/dns_records/import`, {
      method: 'POST',
      headers: good.headers,
      body: form,
    });
    const body = await res.json();
    // Known limits are left out with everything of their name and type (what import made of them is unknowable here).
    // A DS whose NS went since is not taken anew by the import either (DNS choice 27).
    const orphanDs = (r: Rec) =>
      r.type === 'DS' && r.name !== z.name && !records(z).some((o) => o.type === 'NS' && o.name === r.name);
    const limited = new Set(
      records(z)
        .filter((r) => roundTripLimit(r) || orphanDs(r))
        .map((r) => `${r.type} ${r.name}`),
    );
    // Today's mode keeps `a` and `"a"` apart (docs/sources/dns-api.md#txt); the file writes both as
    // "a".
    const txt = new Map<string, number>();
    for (const r of records(z))
      if (r.type === 'TXT')
        txt.set(`${r.name} ${portable(r).content}`, (txt.get(`${r.name} ${portable(r).content}`) ?? 0) + 1);
    for (const [k, n] of txt) if (n > 1) limited.add(`TXT ${k.split(' ')[0]}`);
    const kept = (r: Rec) => !limited.has(`${r.type} ${r.name}`);
    const original = records(z).filter(
      (r) => !(r.type === 'NS' && r.name === z.name && r.content.endsWith('.ns.cloudflare.com')) && kept(r),
    );
    const got = (fresh.records(freshId) as unknown as Rec[]).filter(kept);
    const key = (r: Rec) => canon(portable(r));
    // Records that differ only in what the file cannot say (quotes of today's TXT) become one.
    const a = [...new Set(original.map(key))].sort();
    const b = [...new Set(got.map(key))].sort();
    if (res.status !== 200 || canon(a) !== canon(b)) {
      const missing = a.filter((x) => !b.includes(x));
      const extra = b.filter((x) => !a.includes(x));
      fail(
        `round trip of ${z.name} differs (import ${res.status} ${JSON.stringify(body.messages ?? body.errors).slice(0, 800)}):\nlost ${missing.join('\n     ')}\ngained ${extra.join('\n       ')}\nexport:\n${e.text.slice(0, 3000)}`,
      );
    }
  }

  async function zonesOp() {
    const who = caller();
    const z = pickZone();
    const pick = rng.int(5);
    let sent: Sent;
    if (pick === 0) {
      const q = rng.pick([
        '',
        '?name=example.com',
        '?name=EXAMPLE.COM.',
        '?name=sub.example.net',
        '?per_page=51',
        '?page=0',
        '?page=2&per_page=1',
        '?per_page=4',
        '?per_page=5',
      ]);
      sent = await send('GET', `/zones${q}`, { who });
      // per_page for zones, for a caller the API answers: the documented minimum 5 applies below it;
      // over 50 is answered as asked.
      const callerRefused = [6003, 9103, 9106, 9109, 10000].includes(sent.body?.errors?.[0]?.code);
      if (!callerRefused && /per_page=51$/.test(q) && (sent.status !== 200 || sent.body.result_info.per_page !== 51))
        fail('zones per_page over 50 was not answered as asked', sent);
      if (!callerRefused && /per_page=[1-4]$/.test(q) && (sent.status !== 200 || sent.body.result_info.per_page !== 5))
        fail('zones per_page under 5 did not take 5', sent);
      if (sent.status === 200) {
        const visible = zones.filter(
          (o) =>
            mayUse(who, o) &&
            (!q.includes('name=') || o.name === new URLSearchParams(q).get('name')!.toLowerCase().replace(/\.$/, '')),
        );
        const info = sent.body.result_info;
        if (info.total_count !== visible.length || info.count !== sent.body.result.length)
          fail(`zones result_info ${canon(info)} for ${visible.length} visible zones`, sent);
        for (const r of sent.body.result)
          if (!zones.some((o) => o.id === r.id && mayUse(who, o)))
            fail(`zones list shows ${r.name} to ${who.label}`, sent);
      }
    } else if (pick === 1) {
      sent = await send('GET', `/zones/${z.id}`, { who });
      refusedIfNotAllowed(who, z, sent);
    } else if (pick === 2) {
      // Any well-formed answer will do: send() itself fails the run on a malformed envelope.
      await send('GET', '/user/tokens/verify', { who });
    } else if (pick === 3) {
      // Zone-sync tools read page rules around records (octodns-cloudflare): none here, ever.
      sent = await send('GET', `/zones/${z.id}/pagerules${rng.pick(['', '?status=active'])}`, { who });
      refusedIfNotAllowed(who, z, sent);
      if (sent.status === 200 && canon(sent.body.result) !== '[]')
        fail('page rules listed where the double has none', sent);
    } else {
      sent = await send('POST', dnsPath(z, rng.pick(['/scan', '/scan/trigger', '/scan/review'])), {
        who,
        body: rng.chance(0.5) ? '{}' : JSON.stringify({ rejects: [], accepts: [] }),
        headers: jsonHeaders,
      });
      refusedIfNotAllowed(who, z, sent);
    }
  }

  async function oddOp() {
    const z = pickZone();
    const before = snapshot();
    const [method, path] = rng.pick<[string, string]>([
      ['DELETE', dnsPath(z)],
      ['PUT', dnsPath(z)],
      ['POST', dnsPath(z, `/${randomHex32(rng)}`)],
      ['GET', dnsPath(z, '/batch')],
      ['PATCH', dnsPath(z, '/export')],
      ['GET', `/zones/${z.id.toUpperCase()}/dns_records`],
      ['GET', `/zones/${z.id}/dns_records/${z.id}/x`],
      ['GET', '/zones/not-an-id/dns_records'],
      ['GET', '/nothing'],
      ['GET', `/zones/${randomHex32(rng)}/dns_records`],
      ['GET', `/zones/${z.id}/dns_records/`],
      ['GET', `/zones/${z.id}//dns_records`],
      ['OPTIONS', dnsPath(z)],
      ['HEAD', dnsPath(z)],
      ['GET', `/zones/${z.id}/dns_records/%ZZ`],
      ['GET', `/zones/${z.id}/dns_records/${'%61'.repeat(32)}`],
    ]);
    const sent = await send(method, path, { who: caller() });
    if (method === 'HEAD') return;
    unchangedOnFailure(before, sent);
    if (snapshot().some((s, i) => s !== before[i])) fail('an odd request changed state', sent);
  }

  const nameKey = (n: string) => n.replace(/[^a-z0-9]/g, '');
  const order = (a: Rec, b: Rec) => {
    const ka = [a.type, nameKey(a.name), a.name, a.id];
    const kb = [b.type, nameKey(b.name), b.name, b.id];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  };

  function internalProblems() {
    for (const z of zones) {
      const list = records(z);
      // The kept default order (updated in place on every write) must equal a fresh sort.
      const fresh = [...list].sort(order);
      if (canon(fresh.map((r) => r.id)) !== canon(list.map((r) => r.id)))
        fail(`zone ${z.name}: default order is stale`);
      const p = zoneProblems(list, z.name);
      if (p.length) fail(`zone ${z.name}: ${p.join('; ')}`);
      // The zone's own indexes must agree with its records.
      const zone = (api as any).zonesById.get(z.id);
      const ids = [...zone.records.keys()].sort();
      if (canon(ids) !== canon(list.map((r) => r.id).sort()))
        fail(`zone ${z.name}: sorted listing and record map disagree`);
      for (const r of list) {
        if (!zone.atName(r.name).some((x: any) => x.id === r.id))
          fail(`zone ${z.name}: ${r.id} missing from the name index`);
        if (![...zone.ofType(r.type)].some((x: any) => x.id === r.id))
          fail(`zone ${z.name}: ${r.id} missing from the type index`);
      }
    }
  }

  const OPS: [number, () => Promise<void>][] = [
    [22, createOp],
    [8, () => updateOp('PUT')],
    [8, () => updateOp('PATCH')],
    [6, deleteOp],
    [6, getOp],
    [8, batchOp],
    [8, listOp],
    [3, listAllOp],
    [3, exportOp],
    [5, importOp],
    [4, zonesOp],
    [3, oddOp],
    [2, () => roundTripOp(pickZone())],
    [5, echoOp],
    [2, shadowOp],
  ];
  for (step = 1; step <= steps; step++) {
    const op = rng.weighted(OPS);
    await op();
    internalProblems();
  }
  step = steps + 1;
  for (const z of zones) await roundTripOp(z);
  return { requests };
}
