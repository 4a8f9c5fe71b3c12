/**
 * Shared by the DNS spec files: the published schema (OAS 2024-08-06, copied into fixtures/ so a
 * fresh clone has it) compiled with Ajv, and a fetch wrapper that validates every response body
 * against the schema of its endpoint and status.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import schemaDoc from './fixtures/dns-records-openapi-2024-08-06.json' with { type: 'json' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an API answer's JSON, read field by field by the tests
type Json = any;

const doc: Json = structuredClone(schemaDoc);
// Known gap in the 2024-08-06 schema: it types `comment` as a string, but the API sends null
// when there is none (real 2025 captures, and the SDK types it `string | null`).
doc.components.schemas['dns-records_comment'].nullable = true;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, 'oas');

const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
function validatorFor(ref: string) {
  let v = compiled.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: `oas${ref}` });
    compiled.set(ref, v);
  }
  return v;
}

/** Validates one body against a component schema; returns Ajv's errors or []. */
export function schemaErrors(component: string, body: unknown): string[] {
  const v = validatorFor(`#/components/schemas/${component}`);
  return v(body) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const ROUTES: [RegExp, string][] = [
  [/^\/client\/v4\/zones\/[^/]+\/dns_records$/, '/zones/{zone_id}/dns_records'],
  [/^\/client\/v4\/zones\/[^/]+\/dns_records\/(export|import|scan)$/, '/zones/{zone_id}/dns_records/$1'],
  [/^\/client\/v4\/zones\/[^/]+\/dns_records\/[0-9a-f]{32}$/, '/zones/{zone_id}/dns_records/{dns_record_id}'],
];

/** The schema (as a JSON pointer) the published document gives for this response, or undefined. */
function schemaPointer(method: string, pathname: string, status: number): string | undefined {
  let template: string | undefined;
  for (const [re, t] of ROUTES) {
    const m = re.exec(pathname);
    if (m) template = t.replace('$1', m[1] ?? '');
  }
  if (!template) return undefined; // batch, zones: newer than the schema
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) return undefined;
  if (status >= 200 && status < 300) {
    const content = op.responses['200']?.content?.['application/json'];
    if (!content) return undefined; // export: text/plain
    const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
    return `#/paths/${esc(template)}/${method.toLowerCase()}/responses/200/content/application~1json/schema`;
  }
  // The schema's 4xx bodies are allOf(success-envelope, failure-envelope), which no body can satisfy
  // (success: enum [true] and enum [false]); the failure envelope is the part that describes errors.
  return '#/components/schemas/dns-records_api-response-common-failure';
}

/**
 * Validates one parsed response body against the schema the published document gives for its
 * endpoint and status; [] when valid or when the document has no schema for it (batch, zones, export).
 */
export function responseSchemaErrors(method: string, pathname: string, status: number, body: unknown): string[] {
  const pointer = schemaPointer(method, pathname, status);
  if (!pointer) return [];
  const v = validatorFor(pointer);
  return v(body) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

export interface SchemaLog {
  /** Responses checked so far. */
  checked: number;
  violations: string[];
}

/**
 * Wraps a fetch so every JSON response it returns is validated against the published schema.
 * Fields newer than the schema (settings, comment_modified_on, ...) pass: the schema allows
 * additional properties.
 */
export function schemaChecked(inner: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  const log: SchemaLog = { checked: 0, violations: [] };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const res = await inner(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const pointer = schemaPointer(method, url.pathname, res.status);
    if (pointer && (res.headers.get('content-type') ?? '').startsWith('application/json')) {
      const body = await res.clone().json();
      const v = validatorFor(pointer);
      log.checked++;
      if (!v(body)) {
        log.violations.push(
          `${method} ${url.pathname} ${res.status}: ${ajv.errorsText(v.errors)} in ${JSON.stringify(body).slice(0, 400)}`,
        );
      }
    }
    return res;
  };
  return { fetch, log };
}

/** Asserts that some responses were checked and none broke the schema. */
export function expectSchemaClean(log: SchemaLog): void {
  expect(log.violations).toEqual([]);
  expect(log.checked).toBeGreaterThan(0);
}

const ORIGIN = 'https://api.cloudflare.com';
export const BASE_URL = `${ORIGIN}/client/v4`;
