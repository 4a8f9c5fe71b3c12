#!/usr/bin/env node
/**
 * Cuts the operations of the products `CloudflareApi` models out of Cloudflare's published OpenAPI
 * document (github.com/cloudflare/api-schemas) into spec/api-schema/fixtures/, with every component
 * they reach, so the schema tests (spec/api-schema/) run offline on a few hundred kilobytes rather
 * than the whole 17 MB document. The tests find which of these operations the double serves by
 * asking its routes, so an operation served later is checked without re-running this.
 *
 * Re-run it on a clone of cloudflare/api-schemas (a full clone: GitHub's archives hold the document):
 *
 *   node scripts/extract-openapi.mjs <git-dir of the clone> <commit>
 *
 * It reads `openapi.yaml` at that commit (`openapi.json` where the commit has no YAML), and parses
 * YAML with `yaml`, which is in node_modules as a dependency of the dev tools (Vite, knip, TypeDoc),
 * not of this package: this script is only run by hand.
 *
 * The 2026-08-14 fixture was made without a clone, from the parts of the document read by character
 * offset through a code index (the document is larger than the snapshots it serves), each saved as
 * a fragment with its top-level key (`paths:` or `components:`); the fragments deep-merge into the
 * part of the document the cut needs, and the offsets read are recorded in `info['x-extracted']`:
 *
 *   node scripts/extract-openapi.mjs --fragments <dir of <offset>-<what>.yaml> <commit> <ISO date>
 *
 * Either way the cut is the same: the operations below, each with its parameters (those in the
 * path only where they take reserved characters: the router checks path identifiers), request body
 * and responses, and every component they `$ref`, recursively; only keywords that validate are kept
 * (descriptions, summaries, examples, titles, defaults, tags, security and `x-` extensions go).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * The operations kept: every method of a path at or under a prefix (the products the double
 * models), and the listed methods of the other paths it serves.
 */
const PREFIXES = [
  '/accounts/{account_id}/r2/buckets',
  '/accounts/{account_id}/r2/metrics',
  '/accounts/{account_id}/r2/temp-access-credentials',
  '/accounts/{account_id}/event_notifications/r2',
  '/accounts/{account_id}/queues',
  '/accounts/{account_id}/dns_settings',
  '/zones/{zone_id}/dns_records',
  '/zones/{zone_id}/dns_settings',
];
const METHODS = {
  '/accounts': ['get'],
  '/accounts/{account_id}': ['get'],
  '/user': ['get'],
  '/user/tokens/verify': ['get'],
  '/zones': ['get', 'post'],
  '/zones/{zone_id}': ['get', 'patch', 'delete'],
  '/zones/{zone_id}/dnssec': ['get', 'patch', 'delete'],
};
const HTTP = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const usage = () => {
  console.error(
    'usage: node scripts/extract-openapi.mjs <git-dir> <commit>\n' +
      '       node scripts/extract-openapi.mjs --fragments <dir> <commit> <ISO date>',
  );
  process.exit(2);
};

let doc;
let source;
if (process.argv[2] === '--fragments') {
  const [, , , dir, commit, date] = process.argv;
  if (!dir || !commit || !date) usage();
  doc = {};
  const read = [];
  for (const name of readdirSync(dir)
    .filter((n) => /^\d+-.*\.ya?ml$/.test(n))
    .sort()) {
    merge(doc, parse(readFileSync(join(dir, name), 'utf8')));
    read.push(Number(name.split('-')[0]));
  }
  source = {
    path: 'openapi.yaml',
    commit,
    date,
    offsets: ranges(
      read.sort((a, b) => a - b),
      16_000,
    ),
  };
} else {
  const [, , gitDir, commit] = process.argv;
  if (!gitDir || !commit) usage();
  const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 30 }).toString();
  const files = git('ls-tree', '--name-only', commit).split('\n');
  const path = files.includes('openapi.yaml') ? 'openapi.yaml' : 'openapi.json';
  const text = git('show', `${commit}:${path}`);
  doc = path.endsWith('.json') ? JSON.parse(text) : parse(text);
  source = { path, commit, date: git('log', '-1', '--format=%cI', commit).trim() };
}

/** Deep merge of fragments: objects key by key, anything else from the later fragment. */
function merge(into, from) {
  for (const [k, v] of Object.entries(from)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && into[k] && typeof into[k] === 'object') merge(into[k], v);
    else into[k] = v;
  }
  return into;
}

/** Sorted read offsets as [start, end) ranges, overlapping reads joined. */
function ranges(offsets, size) {
  const out = [];
  for (const o of offsets) {
    const last = out[out.length - 1];
    if (last && o <= last[1]) last[1] = Math.max(last[1], o + size);
    else out.push([o, o + size]);
  }
  return out;
}

// ---- pruning: only what validates --------------------------------------------------------------

const dropped = (k) =>
  k.startsWith('x-') ||
  [
    'description',
    'summary',
    'example',
    'examples',
    'title',
    'default',
    'deprecated',
    'externalDocs',
    'discriminator',
    'xml',
  ].includes(k);

/** A schema object: keywords pruned, sub-schemas pruned, property names kept as they are. */
function schema(s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return s;
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (dropped(k)) continue;
    if (k === 'properties' || k === 'patternProperties')
      out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, schema(p)]));
    else if (k === 'allOf' || k === 'oneOf' || k === 'anyOf') out[k] = v.map(schema);
    else if (k === 'items' || k === 'not' || (k === 'additionalProperties' && typeof v === 'object'))
      out[k] = schema(v);
    else out[k] = v;
  }
  return out;
}

const content = (c) =>
  c &&
  Object.fromEntries(
    Object.entries(c).map(([type, media]) => [type, media?.schema ? { schema: schema(media.schema) } : {}]),
  );

function parameter(p) {
  if (p.$ref) return { $ref: p.$ref };
  const out = {};
  for (const [k, v] of Object.entries(p)) {
    if (dropped(k)) continue;
    out[k] = k === 'schema' ? schema(v) : k === 'content' ? content(v) : v;
  }
  return out;
}
const keptParameter = (p) => p.$ref !== undefined || p.in !== 'path' || p.allowReserved === true;

function operation(op) {
  const out = {};
  if (op.operationId) out.operationId = op.operationId;
  const params = (op.parameters ?? []).filter(keptParameter).map(parameter);
  if (params.length) out.parameters = params;
  if (op.requestBody) {
    out.requestBody = op.requestBody.$ref
      ? { $ref: op.requestBody.$ref }
      : {
          ...(op.requestBody.required !== undefined ? { required: op.requestBody.required } : {}),
          content: content(op.requestBody.content),
        };
  }
  out.responses = Object.fromEntries(
    Object.entries(op.responses ?? {}).map(([status, r]) => {
      if (r.$ref) return [status, { $ref: r.$ref }];
      const kept = {};
      if (r.headers)
        kept.headers = Object.fromEntries(
          Object.entries(r.headers).map(([h, v]) => [h, v.$ref ? { $ref: v.$ref } : { schema: schema(v.schema) }]),
        );
      if (r.content) kept.content = content(r.content);
      return [status, kept];
    }),
  );
  return out;
}

// ---- the cut -----------------------------------------------------------------------------------

const kept = (path, method) =>
  METHODS[path]?.includes(method) ??
  PREFIXES.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`));

const out = {
  openapi: doc.openapi ?? '3.0.3',
  info: {
    title: 'Cloudflare API',
    'x-extracted': {
      repository: 'https://github.com/cloudflare/api-schemas',
      ...source,
      by: 'scripts/extract-openapi.mjs',
    },
  },
  paths: {},
  components: {},
};
for (const [path, item] of Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b))) {
  const methods = HTTP.filter((m) => item[m] && kept(path, m));
  if (!methods.length) continue;
  const cut = {};
  const shared = (item.parameters ?? []).filter(keptParameter).map(parameter);
  if (shared.length) cut.parameters = shared;
  for (const m of methods) cut[m] = operation(item[m]);
  out.paths[path] = cut;
}
for (const [path, methods] of Object.entries(METHODS))
  for (const m of methods) if (!out.paths[path]?.[m]) console.error(`not in the document: ${m.toUpperCase()} ${path}`);

// Follow every $ref to the component it names, pruning and copying each once.
const pending = [out.paths];
const seen = new Set();
const missing = [];
while (pending.length) {
  const node = pending.pop();
  if (Array.isArray(node)) {
    pending.push(...node);
    continue;
  }
  if (!node || typeof node !== 'object') continue;
  for (const [k, v] of Object.entries(node)) {
    if (k !== '$ref' || typeof v !== 'string') {
      pending.push(v);
      continue;
    }
    if (!v.startsWith('#/components/') || seen.has(v)) continue;
    seen.add(v);
    const [, , kind, name] = v.split('/');
    const target = doc.components?.[kind]?.[name];
    if (target === undefined) {
      missing.push(v);
      continue;
    }
    const pruned =
      kind === 'schemas' ? schema(target) : kind === 'parameters' ? parameter(target) : structuredClone(target);
    (out.components[kind] ??= {})[name] = pruned;
    pending.push(pruned);
  }
}
if (missing.length) {
  console.error(`dangling $refs (not in the document or the fragments read):\n  ${missing.sort().join('\n  ')}`);
  process.exit(1);
}
for (const kind of Object.keys(out.components))
  out.components[kind] = Object.fromEntries(
    Object.entries(out.components[kind]).sort(([a], [b]) => a.localeCompare(b)),
  );

const here = dirname(fileURLToPath(import.meta.url));
const file = join(
  here,
  '..',
  'spec',
  'api-schema',
  'fixtures',
  `cloudflare-openapi-served-${source.date.slice(0, 10)}.json`,
);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
const operations = Object.values(out.paths).reduce((n, item) => n + HTTP.filter((m) => item[m]).length, 0);
console.log(`${file}: ${Object.keys(out.paths).length} paths, ${operations} operations, ${seen.size} components`);
