/**
 * Cloudflare's published OpenAPI document, cut to the operations `CloudflareApi` serves
 * (fixtures/, made by scripts/extract-openapi.mjs from cloudflare/api-schemas at the commit its
 * `info['x-extracted']` records), compiled with Ajv; and a fetch wrapper that validates every JSON
 * response against the schema the document gives for its operation and status.
 *
 * Where the document is wrong, the test declares it (`SchemaError`: why, evidence, the correction);
 * the fixture itself stays as published.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import served from './fixtures/cloudflare-openapi-served-2024-08-06.json' with { type: 'json' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schema documents and answers, walked field by field
type Json = any;

const doc: Json = served;
export const SOURCE: { commit: string; date: string } = doc.info['x-extracted'];

/** Operations as `METHOD /template`, and a matcher from a concrete path to its template. */
export const OPERATIONS: string[] = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
  ([p, item]) =>
    Object.keys(item)
      .filter((m) => m !== 'parameters')
      .map((m) => `${m.toUpperCase()} ${p}`),
);
const TEMPLATES = Object.keys(doc.paths)
  .map((t) => ({
    t,
    re: new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literal: t.replace(/\{[^}]+\}/g, '').length,
  }))
  // A literal segment wins over a parameter (`dns_records/import` before `dns_records/{id}`).
  .sort((a, b) => b.literal - a.literal);

function templateOf(path: string): string | undefined {
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

/**
 * The schema for a response: the one the document gives for the exact status, else its `4XX`/`4xx`
 * class, else `200` for any success.
 */
function schemaPointer(doc: Json, method: string, template: string, status: number): string | undefined {
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) return undefined;
  const cls = `${String(status)[0]}XX`;
  const key = [String(status), cls, cls.toLowerCase(), ...(status < 300 ? ['200'] : [])].find((k) => op.responses[k]);
  if (!key || !op.responses[key].content?.['application/json']?.schema) return undefined;
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  return `#/paths/${esc(template)}/${method.toLowerCase()}/responses/${key}/content/application~1json/schema`;
}

interface Checked {
  operation: string;
  status: number;
  /** Ajv's errors as `instancePath message`; [] when the body is valid. */
  errors: string[];
}

export type Checker = (method: string, path: string, status: number, body: unknown) => Checked | undefined;

/** A validator over the document with these corrections applied (each compiled schema cached). */
export function checker(corrections: readonly SchemaError[]): Checker {
  const copy: Json = structuredClone(served);
  for (const c of corrections) c.correct(copy);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(copy, 'oas');
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (method, path, status, body) => {
    const template = templateOf(path);
    if (!template) return undefined;
    const pointer = schemaPointer(copy, method, template, status);
    if (!pointer) return undefined;
    let v = compiled.get(pointer);
    if (!v) compiled.set(pointer, (v = ajv.compile({ $ref: `oas${pointer}` })));
    const errors = v(body) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    return { operation: `${method.toUpperCase()} ${template}`, status, errors };
  };
}
