/**
 * Every binding kind wrangler knows is either bound by createEnv (buckets, vars) or reported in
 * `unfaked`, under the name the Worker reads it by. The kinds and where each keeps its name come
 * from wrangler's own config schema (`config-schema.json`, shipped in the wrangler package that
 * @cloudflare/vitest-plugin depends on): a wrangler that adds a binding field fails here until
 * lib/env/fields.ts knows it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bucket, Queue, createEnv } from '../../lib/index.js';
import { BINDING_TYPES, SECRETS_TYPE, type BindingNamePath } from '../../lib/env/fields.js';

interface Schema {
  $ref?: string;
  type?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  description?: string;
}

/** Wrangler as @cloudflare/vitest-plugin resolves it (nested or hoisted), and its schema. */
function wranglerSchema(): { version: string; schema: { definitions: Record<string, Schema> } } {
  const require = createRequire(import.meta.url);
  // The plugin's "exports" has neither a require entry nor ./package.json: find its folder on the search path.
  const pluginDir = require.resolve
    .paths('@cloudflare/vitest-plugin')!
    .map((dir) => join(dir, '@cloudflare/vitest-plugin'))
    .find((dir) => existsSync(join(dir, 'package.json')))!;
  const wranglerPackage = createRequire(join(pluginDir, 'package.json')).resolve('wrangler/package.json');
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
  return { version: read(wranglerPackage).version, schema: read(join(dirname(wranglerPackage), 'config-schema.json')) };
}

const { version, schema } = wranglerSchema();
const definitions = schema.definitions;
const deref = (node: Schema | undefined): Schema | undefined => {
  let n = node;
  while (n?.$ref) n = definitions[n.$ref.split('/').pop()!];
  return n;
};
/** The shapes a node may take (the members of an anyOf, each dereferenced). */
const shapes = (node: Schema | undefined): Schema[] => {
  const n = deref(node);
  if (!n) return [];
  return n.anyOf ? n.anyOf.flatMap(shapes) : [n];
};

/** Every field of a config and of an environment, with its schema. */
const fields = new Map<string, Schema>(
  ['RawConfig', 'RawEnvironment'].flatMap((name) => Object.entries(definitions[name]!.properties!)),
);

/**
 * Where a field's schema keeps binding names, in BindingNamePath's notation, found from the shape
 * alone: a `binding` property, or a `name` property whose description calls it the binding name,
 * on the value, its items, or the items of a list under one of its keys; `*` for a map.
 */
function derivedPath(node: Schema): string | undefined {
  const named = (entry: Schema): 'binding' | 'name' | undefined => {
    const props = Object.assign({}, ...shapes(entry).map((s) => s.properties ?? {})) as Record<string, Schema>;
    if (props.binding) return 'binding';
    if (props.name && /\bbinding name\b|name of the binding/i.test(props.name.description ?? '')) return 'name';
    return undefined;
  };
  for (const shape of shapes(node)) {
    if (shape.type === 'array' && shape.items) {
      const key = named(shape.items);
      if (key) return `[].${key}`;
    }
    if (shape.type === 'object') {
      if (named(shape) === 'binding') return 'binding';
      for (const [sub, value] of Object.entries(shape.properties ?? {})) {
        const list = shapes(value).find((s) => s.type === 'array' && s.items);
        const key = list && named(list.items!);
        if (key) return `${sub}[].${key}`;
      }
      if (typeof shape.additionalProperties === 'object') return '*';
    }
  }
  return undefined;
}

/** Whether the schema has a string where `path` looks for names. */
function holdsNames(node: Schema, path: BindingNamePath): boolean {
  let nodes = shapes(node);
  for (const step of path.split('.')) {
    if (step === '*') {
      nodes = nodes.flatMap((n) => (typeof n.additionalProperties === 'object' ? [n] : []));
      return nodes.length > 0;
    }
    const list = step.endsWith('[]');
    const key = list ? step.slice(0, -2) : step;
    if (key !== '') nodes = nodes.flatMap((n) => shapes(n.properties?.[key]));
    if (list) nodes = nodes.flatMap((n) => (n.type === 'array' ? shapes(n.items) : []));
  }
  return nodes.some((n) => n.type === 'string');
}

/** Fields whose shape looks like a binding's in the schema but that give the Worker's env nothing. */
const NOT_BINDINGS: Record<string, string> = {
  define: 'values substituted into the code when it is built',
  alias: 'module aliases for the bundler',
  env: 'the named environments themselves',
  exports: 'the classes the Worker exports, bound through durable_objects and workflows',
  previews: 'settings of preview deployments, not the env `wrangler dev` gives',
};

const known = [...BINDING_TYPES, SECRETS_TYPE];
// store_buckets is the interface documents' neutral name for r2_buckets: wrangler does not know it.
const inWrangler = known.filter(([field]) => field !== 'store_buckets');

describe(`binding kinds of wrangler ${version}'s config schema`, () => {
  it('finds the schema and its binding fields', () => {
    expect(fields.size).toBeGreaterThan(50);
    expect(derivedPath(fields.get('kv_namespaces')!)).toBe('[].binding');
  });

  it.each(inWrangler)('%s: names its bindings where the schema does', (field, _kind, path) => {
    const node = fields.get(field);
    expect(node, `${field} is not in the schema`).toBeDefined();
    expect(holdsNames(node!, path)).toBe(true);
    // secrets.required is a list of names: a shape too common (crons, flags) to derive.
    if (field !== 'secrets') expect(derivedPath(node!)).toBe(path);
  });

  it('knows every field of the schema that names bindings', () => {
    const knownFields = new Set(known.map(([field]) => field));
    const unknown = [...fields]
      .filter(([field, node]) => !knownFields.has(field) && !(field in NOT_BINDINGS) && derivedPath(node) !== undefined)
      .map(([field, node]) => `${field} (${derivedPath(node)})`);
    expect(unknown).toEqual([]);
  });
});

/** A config value declaring one binding `name` where `path` says names are kept. */
function declare(path: BindingNamePath, name: string): unknown {
  return path
    .split('.')
    .reverse()
    .reduce<unknown>((inner, step) => {
      if (step === '*') return { [name]: 'value' };
      const list = step.endsWith('[]');
      const key = list ? step.slice(0, -2) : step;
      const here = list ? [inner] : inner;
      return key === '' ? here : { [key]: here };
    }, name);
}

describe('createEnv binds or reports every binding kind', () => {
  const config = Object.fromEntries(
    known.map(([field, , path]) => [field, declare(path, `${field.toUpperCase()}_BINDING`)]),
  );
  // A queue producer is faked, so it must name its queue as wrangler requires.
  config.queues = { producers: [{ binding: 'QUEUES_BINDING', queue: 'queues-binding' }] };
  const quiet = { onWarning: () => {} };

  it('each declared binding is in env or in unfaked, under its name', () => {
    const { env, unfaked } = createEnv<Record<string, unknown>>(config, quiet);
    for (const [field, kind] of known) {
      const name = `${field.toUpperCase()}_BINDING`;
      if (field === 'r2_buckets' || field === 'store_buckets') expect(env[name]).toBeInstanceOf(Bucket);
      else if (field === 'vars') expect(env[name]).toBe('value');
      else if (field === 'queues') expect(env[name]).toBeInstanceOf(Queue);
      else expect(unfaked).toContainEqual({ binding: name, field, kind });
    }
    expect(unfaked).toHaveLength(known.length - 4);
  });

  it("unsupported: 'error' names each of them", () => {
    let message = '';
    try {
      createEnv(config, { ...quiet, unsupported: 'error' });
    } catch (e) {
      message = (e as Error).message;
    }
    for (const [field, kind] of known) {
      if (['r2_buckets', 'store_buckets', 'vars', 'queues'].includes(field)) continue;
      expect(message).toContain(`${field.toUpperCase()}_BINDING (${kind}, ${field})`);
    }
  });
});
