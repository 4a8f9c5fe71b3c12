#!/usr/bin/env node
/**
 * Cuts the operations `CloudflareApi` serves out of Cloudflare's published OpenAPI document
 * (github.com/cloudflare/api-schemas, openapi.json) into spec/api-schema/fixtures/, with every
 * component they reach and the commit they came from, so the response validation
 * (spec/api-schema/responses.test.ts) runs offline on a few hundred kilobytes rather than the whole
 * document.
 *
 *   node scripts/extract-openapi.mjs <git-dir of a clone of cloudflare/api-schemas> <commit>
 *
 * Only methods the double answers are kept; each operation keeps its responses, request body and
 * parameters. `$ref`s are followed through every kind of component (schemas, responses,
 * parameters, requestBodies, examples).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The served operations, by path template: the methods CloudflareApi routes for it. */
export const SERVED = {
  '/accounts': ['get'],
  '/accounts/{account_id}': ['get'],
  '/user': ['get'],
  '/user/tokens/verify': ['get'],
  '/zones': ['get', 'post'],
  '/zones/{zone_id}': ['get', 'patch', 'delete'],
  '/zones/{zone_id}/dns_settings': ['get', 'patch'],
  '/zones/{zone_id}/dnssec': ['get', 'patch', 'delete'],
  '/zones/{zone_id}/pagerules': ['get'],
  '/zones/{zone_id}/dns_records': ['get', 'post'],
  '/zones/{zone_id}/dns_records/{dns_record_id}': ['get', 'put', 'patch', 'delete'],
  '/zones/{zone_id}/dns_records/import': ['post'],
  '/zones/{zone_id}/dns_records/scan': ['post'],
  '/accounts/{account_id}/r2/buckets': ['get', 'post'],
  '/accounts/{account_id}/r2/buckets/{bucket_name}': ['get', 'delete'],
  '/accounts/{account_id}/event_notifications/r2/{bucket_name}/configuration': ['get'],
  '/accounts/{account_id}/event_notifications/r2/{bucket_name}/configuration/queues/{queue_id}': ['put', 'delete'],
  '/accounts/{account_id}/queues': ['get', 'post'],
  '/accounts/{account_id}/queues/{queue_id}': ['get', 'put', 'delete'],
  '/accounts/{account_id}/queues/{queue_id}/consumers': ['get', 'post'],
  '/accounts/{account_id}/queues/{queue_id}/consumers/{consumer_id}': ['put', 'delete'],
  '/accounts/{account_id}/queues/{queue_id}/messages/pull': ['post'],
  '/accounts/{account_id}/queues/{queue_id}/messages/ack': ['post'],
};

const [gitDir, commit] = process.argv.slice(2);
if (!gitDir || !commit) {
  console.error('usage: node scripts/extract-openapi.mjs <git-dir> <commit>');
  process.exit(2);
}
const doc = JSON.parse(
  execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:openapi.json`], { maxBuffer: 1 << 30 }).toString(),
);
const date = execFileSync('git', ['--git-dir', gitDir, 'log', '-1', '--format=%cI', commit]).toString().trim();

const out = {
  openapi: doc.openapi,
  info: {
    ...doc.info,
    'x-extracted': {
      repository: 'https://github.com/cloudflare/api-schemas',
      path: 'openapi.json',
      commit,
      date,
      by: 'scripts/extract-openapi.mjs',
    },
  },
  paths: {},
  components: {},
};
const pending = [];
for (const [path, methods] of Object.entries(SERVED)) {
  const item = doc.paths[path];
  if (!item) {
    console.error(`not in the document: ${path}`);
    continue;
  }
  const kept = {};
  if (item.parameters) kept.parameters = item.parameters;
  for (const m of methods) {
    if (item[m]) kept[m] = item[m];
    else console.error(`not in the document: ${m.toUpperCase()} ${path}`);
  }
  out.paths[path] = kept;
  pending.push(kept);
}

// Follow every $ref to the components it names, copying each once.
const seen = new Set();
while (pending.length) {
  const node = pending.pop();
  if (Array.isArray(node)) {
    pending.push(...node);
    continue;
  }
  if (!node || typeof node !== 'object') continue;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/')) {
      if (seen.has(v)) continue;
      seen.add(v);
      const [, , kind, name] = v.split('/');
      const target = doc.components[kind]?.[name];
      if (!target) throw new Error(`dangling $ref ${v}`);
      (out.components[kind] ??= {})[name] = target;
      pending.push(target);
    } else pending.push(v);
  }
}
for (const kind of Object.keys(out.components))
  out.components[kind] = Object.fromEntries(
    Object.entries(out.components[kind]).sort(([a], [b]) => a.localeCompare(b)),
  );

const here = dirname(fileURLToPath(import.meta.url));
const file = join(here, '..', 'spec', 'api-schema', 'fixtures', `cloudflare-openapi-served-${date.slice(0, 10)}.json`);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
console.log(`${file}: ${Object.keys(out.paths).length} paths, ${seen.size} components`);
