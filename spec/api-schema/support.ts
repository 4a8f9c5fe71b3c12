/**
 * Cloudflare's published OpenAPI document, cut to the products `CloudflareApi` models
 * (fixtures/, made by scripts/extract-openapi.mjs from cloudflare/api-schemas at the commit its
 * `info['x-extracted']` records), compiled with Ajv: which of its operations the double serves
 * (asked of the double's own routes), a validator for every JSON response and request body, and
 * the invalid requests the schema implies (a required field left out, a value of the wrong type, a
 * string outside what the schema allows).
 *
 * Where the document is wrong, the test declares it (`SchemaError`: why, evidence, the correction);
 * the fixture itself stays as published.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { CloudflareApi } from 'edge-doubles';
import served from './fixtures/cloudflare-openapi-served-2026-08-14.json' with { type: 'json' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schema documents and answers, walked field by field
export type Json = any;

const doc: Json = served;
export const SOURCE: { commit: string; date: string; offsets?: [number, number][] } = doc.info['x-extracted'];

const HTTP = ['get', 'put', 'post', 'delete', 'patch'];

/** An operation of the document: `METHOD /template`. */
export interface Operation {
  method: string;
  template: string;
  /** `METHOD /template`, as reports name it. */
  id: string;
}

/** Every operation the fixture holds (the products' whole surface, served or not). */
const DOCUMENT_OPERATIONS: Operation[] = Object.entries(doc.paths as Record<string, Json>).flatMap(([template, item]) =>
  HTTP.filter((m) => item[m]).map((m) => ({
    method: m.toUpperCase(),
    template,
    id: `${m.toUpperCase()} ${template}`,
  })),
);

/** A path parameter that takes reserved characters (an object key) matches slashes too. */
function templatePattern(template: string): RegExp {
  const item = doc.paths[template];
  const reserved = new Set(
    HTTP.flatMap((m) => (item[m]?.parameters ?? []) as Json[])
      .filter((p) => p.in === 'path' && p.allowReserved)
      .map((p) => p.name as string),
  );
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (!name) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      return reserved.has(name) ? '.+' : '[^/]+';
    })
    .join('');
  return new RegExp(`^${source}$`);
}

const TEMPLATES = Object.keys(doc.paths)
  .map((t) => ({ t, re: templatePattern(t), literal: t.replace(/\{[^}]+\}/g, '').length }))
  // A literal segment wins over a parameter (`dns_records/import` before `dns_records/{id}`).
  .sort((a, b) => b.literal - a.literal);

export function templateOf(path: string): string | undefined {
  return TEMPLATES.find(({ re }) => re.test(path))?.t;
}

/**
 * A declared error of the published document: what is wrong, the evidence, and the correction,
 * applied to a copy of the document before validating (a correction, not a filter, so a `oneOf`
 * over record types still picks its branch).
 */
export interface SchemaError {
  id: string;
  why: string;
  evidence: string;
  correct(doc: Json): void;
}

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The schema for a response: the one the document gives for the exact status, else its `4XX`/`4xx`
 * class, else `200` for any success.
 */
function responsePointer(d: Json, method: string, template: string, status: number): string | undefined {
  const op = d.paths[template]?.[method.toLowerCase()];
  if (!op) return undefined;
  const cls = `${String(status)[0]}XX`;
  const key = [String(status), cls, cls.toLowerCase(), ...(status < 300 ? ['200'] : [])].find((k) => op.responses[k]);
  if (!key || !op.responses[key].content?.['application/json']?.schema) return undefined;
  return `#/paths/${esc(template)}/${method.toLowerCase()}/responses/${key}/content/application~1json/schema`;
}

/** The JSON schema of an operation's request body, if the document gives one. */
function requestPointer(d: Json, method: string, template: string): string | undefined {
  const body = d.paths[template]?.[method.toLowerCase()]?.requestBody;
  if (!body?.content?.['application/json']?.schema) return undefined;
  return `#/paths/${esc(template)}/${method.toLowerCase()}/requestBody/content/application~1json/schema`;
}

interface Checked {
  operation: string;
  /** Ajv's errors as `instancePath message`; [] when the body is valid. */
  errors: string[];
}

export interface Validator {
  /** A response body against its operation's schema for that status; undefined where the document has none. */
  response(method: string, path: string, status: number, body: unknown): Checked | undefined;
  /** A request body against its operation's JSON request schema; undefined where the document has none. */
  request(method: string, path: string, body: unknown): Checked | undefined;
}

/** A validator over the document with these corrections applied (each compiled schema cached). */
export function validator(corrections: readonly SchemaError[]): Validator {
  const copy: Json = structuredClone(served);
  for (const c of corrections) c.correct(copy);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(copy, 'oas');
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const check = (pointer: string | undefined, operation: string, body: unknown): Checked | undefined => {
    if (!pointer) return undefined;
    let v = compiled.get(pointer);
    if (!v) compiled.set(pointer, (v = ajv.compile({ $ref: `oas${pointer}` })));
    const errors = v(body) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    return { operation, errors };
  };
  return {
    response(method, path, status, body) {
      const template = templateOf(path);
      if (!template) return undefined;
      const op = `${method.toUpperCase()} ${template}`;
      return check(responsePointer(copy, method, template, status), op, body);
    },
    request(method, path, body) {
      const template = templateOf(path);
      if (!template) return undefined;
      return check(requestPointer(copy, method, template), `${method.toUpperCase()} ${template}`, body);
    },
  };
}

/** Does the document give this operation a JSON request body? */
export const hasJsonBody = (op: Operation): boolean => requestPointer(doc, op.method, op.template) !== undefined;

/** A concrete path for a template, each parameter filled with a value its route accepts. */
export function concretePath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = values[name] ?? (name.endsWith('_id') ? 'f'.repeat(32) : `probe-${name.replace(/_/g, '-')}`);
    return v;
  });
}

/**
 * The operations of the document the double serves, asked of its own routes: a request without
 * credentials to each, where the router answers 7003 (no route) or 7001 (method not allowed) for
 * anything it has no handler for and checks credentials only after (lib/api/router.ts), so no
 * handler runs. Each answer is returned too: an error answer of the operation, to validate.
 */
export async function servedOperations(
  api: CloudflareApi,
  base: string,
  values: Record<string, string>,
): Promise<{ op: Operation; path: string; status: number; body: unknown }[]> {
  const out = [];
  for (const op of DOCUMENT_OPERATIONS) {
    const path = concretePath(op.template, values);
    const res = await api.fetch(`${base}${path}`, { method: op.method });
    const body: Json = await res.json();
    const code = body?.errors?.[0]?.code;
    if (code === 7003 || code === 7001) continue;
    out.push({ op, path, status: res.status, body });
  }
  return out;
}

// ---- invalid requests the schema implies ------------------------------------------------------

export interface Mutant {
  /** What was changed, as a JSON path and a kind: `missing`, `type` or `value`. */
  what: string;
  body: unknown;
}

/** A value of another JSON type than `v`, where one is meaningful. */
function wrongType(v: unknown): unknown {
  if (typeof v === 'string') return 12345;
  if (typeof v === 'number') return 'not-a-number';
  if (typeof v === 'boolean') return 'yes';
  if (Array.isArray(v)) return 'not-an-array';
  if (v && typeof v === 'object') return 'not-an-object';
  return undefined;
}

/**
 * Every single change to `body` that could make it invalid: each property left out, each value
 * replaced by one of another type, each string replaced by one outside any enum or pattern, the
 * body itself of another type. Only those the schema refuses are kept (`invalid`), so a change the
 * schema allows (an optional field left out, a free-form string) is never sent as a refusal.
 */
export function mutants(body: unknown, invalid: (candidate: unknown) => boolean): Mutant[] {
  const out: Mutant[] = [];
  const visit = (value: unknown, path: (string | number)[], replace: (v: unknown, drop?: boolean) => unknown) => {
    const at = path.length ? path.join('.') : '(body)';
    const candidates: [string, unknown][] = [];
    if (path.length && typeof path[path.length - 1] === 'string')
      candidates.push([`${at} missing`, replace(undefined, true)]);
    const other = wrongType(value);
    if (other !== undefined) candidates.push([`${at} type ${JSON.stringify(other)}`, replace(other)]);
    if (typeof value === 'string') candidates.push([`${at} value "~not-allowed~"`, replace('~not-allowed~')]);
    if (typeof value === 'number')
      for (const n of [-1, 0.5, 1e12]) if (n !== value) candidates.push([`${at} value ${n}`, replace(n)]);
    if (Array.isArray(value) && value.length > 0) candidates.push([`${at} value []`, replace([])]);
    for (const [what, candidate] of candidates) if (invalid(candidate)) out.push({ what, body: candidate });
    if (Array.isArray(value) && value.length > 0) {
      visit(value[0], [...path, 0], (v, drop) => replace(drop ? value.slice(1) : [v, ...value.slice(1)]));
    } else if (value && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        visit((value as Record<string, unknown>)[key], [...path, key], (v, drop) => {
          const copy = { ...(value as Record<string, unknown>) };
          if (drop) delete copy[key];
          else copy[key] = v;
          return replace(copy);
        });
      }
    }
  };
  visit(body, [], (v) => v);
  return out;
}
