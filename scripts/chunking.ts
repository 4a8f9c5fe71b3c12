/**
 * How the ESM build cuts the package into files: an esbuild plugin for tsup.config.ts.
 *
 * esbuild puts each piece of shared code in a chunk by the exact set of entry points that reach it,
 * and a module loaded through `import()` is an entry point too. With nine entries and the modules
 * loaded on first use, the root entry's code came out in 35 files and edge-doubles/bucket's in 16,
 * and in Node each file costs an import more than its bytes (docs/benchmarks.md, "A suite's wall
 * time": the same code imported about twice as fast in 3 files as in 35). So:
 *
 * - `/node`, the CLI and every module loaded on first use reach the whole of the root's code (one
 *   under lib/node/, `/node`'s), so none of them cuts a chunk of the root's in two: each imports
 *   every name of that entry and passes them to a call esbuild cannot prove never runs (through a
 *   property no one sets; its arguments are not evaluated). Names, not `import * as`: a namespace
 *   object would be built at import, in the root's own files, and keep every export of the root
 *   from a bundler's tree shaking. `/node` then loads all of the root's code, more than its `createEnv`
 *   needs, in few files: faster than the part of it in many. A module loaded on first use is loaded
 *   by the root's code (or `/node`'s), so the rest is already there.
 * - `/dns` and `/s3` take the names the root also exports from the root's built file: they load the
 *   root's files, and a bundler still keeps only what their names use. Their own names
 *   (`dnsTypeCode`) are built from their modules, and they too reach the whole of the root's code,
 *   so that those modules share the root's file rather than make one of their own.
 * - `/bucket`, `/queue` and `/vitest` are the small entries, and the root's code would defeat them;
 *   but each set of them that reaches a module makes a file of the root's, and the root loads them
 *   all. So an entry also reaches the few modules (`ALSO`) that would otherwise make a file for
 *   one more set: the root loaded 10 files, and loads 6.
 *
 * spec/runtimes/import-graph.test.ts holds the counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { entries } from './entries.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
const lib = join(root, 'lib');
const at = (path: string) => join(root, path);

/** The entries that import the root's names from its built file. */
const VIA_ROOT = ['./dns', './s3'];
/**
 * A small entry (its subpath) that also reaches the modules every one of `reachedBy` reaches and it
 * does not, found by bundling each entry's source (so the list follows the code):
 * - `/vitest` loads what `/bucket` and `/queue` share (the clock, ids, workerd's compatibility flags,
 *   fault rules: about 25 kB), which then shares the file all three load;
 * - `/bucket` loads what `/vitest` shares with the root alone (the DNS record matcher, 2 kB), which
 *   then shares the file of `/bucket` and `/vitest`.
 */
const ALSO = [
  { entry: './vitest', reachedBy: ['./bucket', './queue'] },
  { entry: './bucket', reachedBy: ['./vitest', '.'] },
];
/** The entries (their sources) that load the whole of the root's code, or of `/node`'s under lib/node/. */
const WHOLE = ['lib/node/index.ts', 'lib/node/cli.ts'].map(at);

/** Every module lib/ imports with `import('./…')`, as absolute paths of their sources. */
function importedOnFirstUse(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts'))
        for (const m of readFileSync(path, 'utf8').matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)\.js'\s*\)/g))
          found.add(resolve(dirname(path), `${m[1]}.ts`));
    }
  };
  walk(lib);
  return [...found].sort();
}

/** What esbuild makes of one module bundled alone, its packages left out. */
async function bundled(source: string) {
  const { metafile } = await build({
    entryPoints: [source],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    packages: 'external',
    outdir: 'out',
    absWorkingDir: root,
    logLevel: 'silent',
  });
  return metafile;
}

/** The names a module exports at run time (types are gone), as esbuild bundles it. */
async function runtimeExports(source: string): Promise<string[]> {
  return Object.values((await bundled(source)).outputs).find((o) => o.entryPoint)!.exports;
}

/** The modules of lib/ a source reaches through static imports (not `import()`), as absolute paths. */
async function reachedFrom(source: string): Promise<Set<string>> {
  const { inputs } = await bundled(source);
  const reached = new Set<string>();
  const visit = (input: string) => {
    if (reached.has(input) || !inputs[input]) return;
    reached.add(input);
    for (const i of inputs[input].imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(relative(root, source));
  return new Set([...reached].map(at).filter((m) => m.startsWith(`${lib}/`)));
}

/**
 * Where an entry's names come from, for each `export { … } from '…'` in its source (a barrel, as
 * every entry is): importing a name from its module rather than through the barrel keeps the
 * barrel's other modules out of the entry's reach.
 */
function exportedFrom(source: string): Map<string, { module: string; local: string }> {
  const from = new Map<string, { module: string; local: string }>();
  for (const m of readFileSync(source, 'utf8').matchAll(/^export\s*\{([^}]*)\}\s*from\s*'([^']+)'/gm)) {
    const module = resolve(dirname(source), m[2]!.replace(/\.js$/, '.ts'));
    for (const item of m[1]!.split(',')) {
      const [local, exported = local] = item.trim().split(/\s+as\s+/);
      if (local && !local.startsWith('type ')) from.set(exported!, { module, local });
    }
  }
  return from;
}

const NAMESPACE = 'edge-doubles-via-root';

/**
 * Source lines that make the module they end reach `names` of `target`: imported, and passed to a
 * call that never runs (see the header).
 */
function reach(target: string, names: readonly string[], prefix: string): string[] {
  const as = names.map((name, i) => [name, `${prefix}${i}`] as const);
  return [
    `import { ${as.map(([name, local]) => `${name} as ${local}`).join(', ')} } from ${JSON.stringify(target)};`,
    `(globalThis as any)[Symbol.for('edge-doubles: never set')]?.(${as.map(([, local]) => local).join(', ')});`,
  ];
}

/** The plugin (see the header): for the ESM build of the doubles' entries. */
export function chunking(): Plugin {
  const rootEntry = entries().find((e) => e.subpath === '.')!;
  const rootSource = at(rootEntry.source);
  const nodeSource = at('lib/node/index.ts');
  const rootFile = `./${rootEntry.dist}.js`;
  const whole = new Set([...WHOLE, ...importedOnFirstUse()]);
  const viaRoot = new Set(
    entries()
      .filter((e) => VIA_ROOT.includes(e.subpath))
      .map((e) => at(e.source)),
  );
  return {
    name: 'edge-doubles-chunking',
    async setup(b) {
      const rootNames = new Set(await runtimeExports(rootSource));
      const namesOf = new Map([
        [rootSource, [...rootNames]],
        [nodeSource, await runtimeExports(nodeSource)],
      ]);
      // The lines each entry of ALSO ends with, reaching the modules its `reachedBy` all reach.
      const also = new Map<string, string[]>();
      const sourceOf = (subpath: string) => at(entries().find((e) => e.subpath === subpath)!.source);
      for (const { entry, reachedBy } of ALSO) {
        const [own, ...others] = await Promise.all([entry, ...reachedBy].map((s) => reachedFrom(sourceOf(s))));
        const shared = [...others[0]!].filter((m) => !own!.has(m) && others.every((o) => o.has(m))).sort();
        const lines: string[] = [];
        for (const [i, module] of shared.entries()) {
          const names = await runtimeExports(module);
          if (names.length > 0) lines.push(...reach(module, names, `edgeDoublesAlso${i}_`));
        }
        also.set(sourceOf(entry), lines);
      }
      const split = new Map<string, { fromRoot: string[]; own: string[] }>();
      for (const source of viaRoot) {
        const names = await runtimeExports(source);
        split.set(source, {
          fromRoot: names.filter((n) => rootNames.has(n)),
          own: names.filter((n) => !rootNames.has(n)),
        });
      }

      // The entry itself only: the same module imported by another (lib/index.ts re-exports
      // lib/dns.ts) is built as it is.
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') {
          const path = resolve(args.resolveDir, args.path);
          return split.has(path) ? { path, namespace: NAMESPACE } : undefined;
        }
        if (args.namespace === NAMESPACE && args.path === rootFile) return { path: rootFile, external: true };
        return undefined;
      });
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const { fromRoot, own } = split.get(args.path)!;
        const lines = [`export { ${fromRoot.join(', ')} } from ${JSON.stringify(rootFile)};`];
        const from = exportedFrom(args.path);
        for (const name of own) {
          const { module, local } = from.get(name) ?? { module: args.path, local: name };
          lines.push(`export { ${local} as ${name} } from ${JSON.stringify(module)};`);
        }
        lines.push(...reach(rootSource, [...rootNames], 'edgeDoublesWhole'));
        return { contents: lines.join('\n'), loader: 'ts', resolveDir: dirname(args.path) };
      });

      b.onLoad({ filter: /\.ts$/ }, (args) => {
        let lines = also.get(args.path);
        if (!lines && whole.has(args.path)) {
          const target =
            relative(lib, args.path).startsWith('node/') && args.path !== nodeSource ? nodeSource : rootSource;
          lines = reach(target, namesOf.get(target)!, 'edgeDoublesWhole');
        }
        if (!lines) return undefined;
        return {
          contents: [readFileSync(args.path, 'utf8'), ...lines].join('\n'),
          loader: 'ts',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}
