/**
 * The layering rule of ARCHITECTURE.md ("What may import what"), held on `lib/` itself:
 * imports run one way at run time, from the shared parts up through the models, the account, the
 * surfaces and the assemblies to `node/`, so no two folders import each other, even through others;
 * a type (`import type`) may be shared in any direction. And the `/client/v4` front door (`lib/api/`)
 * knows no product: it imports nothing of `lib/dns/`, not even a type (a contract both read, such as
 * the DNS answer's shape, lives below both: lib/dns-answer.ts). scripts/import-graph.ts
 * builds the graph (`npx tsx scripts/import-graph.ts` prints it).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ENTRIES,
  findCycles,
  folderGraph,
  folderOf,
  runtimeImports,
  runtimeSpecifiers,
  type FolderGraph,
} from '../../scripts/import-graph.js';

const root = new URL('../..', import.meta.url).pathname;

const RULE =
  'lib/ imports run one way at run time (ARCHITECTURE.md, "What may import what"): shared parts (lib/*.ts, ' +
  "support/) -> models (bucket/, dns/, queue/) -> account/ -> surfaces (s3/, r2-public/, each product's /client/v4 " +
  'routes, the binding) -> assemblies (dns-api/, cloudflare-api/, env/) -> node/; a folder never imports one above it ' +
  '(use `import type` for a type, or move the shared part down)';

/** Each cycle as `a -> b -> a`, with the file imports that make each step. */
function explain(graph: FolderGraph, cycles: string[][]): string {
  return cycles
    .map((cycle) => {
      const steps = cycle.slice(1).map((to, i) => {
        const from = cycle[i]!;
        const files = (graph.because.get(`${from} -> ${to}`) ?? []).map((e) => `      ${e.from} -> ${e.to}`);
        return [`    ${from} -> ${to}:`, ...files].join('\n');
      });
      return `  cycle ${cycle.join(' -> ')}\n${steps.join('\n')}`;
    })
    .join('\n');
}

describe('the import graph of lib/', () => {
  const graph = folderGraph(runtimeImports(root));

  it('has no cycle between folders', () => {
    const cycles = findCycles(graph.edges);
    expect(cycles, `${RULE}.\n${explain(graph, cycles)}`).toEqual([]);
  });

  it('keeps the front door (lib/api/) free of the DNS product: no import of lib/dns/, not even `import type`', () => {
    // Types included: the cycle rule above is about run time, this one about what the front door knows.
    const offending = runtimeImports(root, `${root}/lib/api`, true)
      .filter((e) => e.to.startsWith('lib/dns/'))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(
      offending,
      'lib/api/ is the /client/v4 front door for every product: it imports nothing from lib/dns/, types included (a product keeps its routes beside its model; a contract both sides read lives below both, like lib/dns-answer.ts)',
    ).toEqual([]);
  });

  it('names its entry files as tsup builds them', () => {
    const config = readFileSync(`${root}/tsup.config.ts`, 'utf8');
    const built = Object.fromEntries(
      [...config.matchAll(/^\s*(\w+): '(lib\/[^']+\.ts)',$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    expect(built).toEqual(ENTRIES);
  });

  it('has the folders a reader expects, each a node of the graph', () => {
    for (const folder of [
      'lib',
      'support',
      'api',
      'bucket',
      'dns',
      'queue',
      'account',
      's3',
      'r2-public',
      'r2-api',
      'dns-api',
      'cloudflare-api',
      'env',
      'node',
    ]) {
      expect(graph.edges.has(folder), folder).toBe(true);
    }
  });
});

describe('the graph builder', () => {
  it('finds a cycle in a synthetic graph, and names it', () => {
    const edges = new Map([
      ['bucket', new Set(['lib', 'support'])],
      ['support', new Set(['lib', 'dns'])],
      ['dns', new Set(['account'])],
      ['account', new Set(['bucket'])],
      ['lib', new Set<string>()],
    ]);
    expect(findCycles(edges)).toEqual([['account', 'bucket', 'support', 'dns', 'account']]);
    edges.get('account')!.delete('bucket');
    expect(findCycles(edges)).toEqual([]);
  });

  it('finds a folder that imports itself through one step, and two separate cycles', () => {
    const edges = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['a'])],
      ['c', new Set(['d'])],
      ['d', new Set(['c'])],
    ]);
    expect(findCycles(edges)).toEqual(
      expect.arrayContaining([
        ['a', 'b', 'a'],
        ['c', 'd', 'c'],
      ]),
    );
  });

  it('counts only run-time imports: `import type` and `export type` are left out; `{ type A }` alone still loads the module', () => {
    const source = `
      import type { A } from './type-only.js';
      import { type B } from './still-loaded.js';
      import { C, type D } from './mixed.js';
      import './side-effect.js';
      export type { E } from './type-export.js';
      export { F } from './re-export.js';
      export * from './star.js';
      export * as ns from './namespace.js';
      type G = import('./type-position.js').G;
      const lazy = () => import('./dynamic.js');
    `;
    const loaded = [
      './dynamic.js',
      './mixed.js',
      './namespace.js',
      './re-export.js',
      './side-effect.js',
      './star.js',
      './still-loaded.js',
    ];
    expect(runtimeSpecifiers('x.ts', source).sort()).toEqual(loaded.sort());
    expect(runtimeSpecifiers('x.ts', source, true).sort()).toEqual(
      [...loaded, './type-only.js', './type-export.js', './type-position.js'].sort(),
    );
  });

  it('puts files directly in lib/ in the shared node, and entry files in their own', () => {
    expect(folderOf('lib/clock.ts')).toBe('lib');
    expect(folderOf('lib/dns/zone.ts')).toBe('dns');
    expect(folderOf('lib/dns/index.ts')).toBe('entry:dns');
    expect(folderOf('lib/index.ts')).toBe('entry:index');
  });
});
