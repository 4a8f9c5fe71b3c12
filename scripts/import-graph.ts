/**
 * What an entry of the built ESM loads: the entry's file and every file it imports statically are
 * loaded at import; a file reached through `import()` only when that code runs. The output is
 * minified, so it names neither its sources nor its chunks' parts: a build asked for it (`withGraph`)
 * writes esbuild's metafile beside its files, as `graph-<entry>.json`, and this reads it. Used by
 * spec/runtimes/import-graph.test.ts and bench/imports.ts.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Metafile, Plugin } from 'esbuild';
import type { Options } from 'tsup';

export interface Loaded {
  /** The files loaded (paths relative to the build's folder), the entry's first. */
  files: string[];
  /** Packages imported by name (externals). */
  packages: Set<string>;
  /** Each source module in those files, as `lib/s3/api.ts` or `node_modules/<package>/…`, and its bytes there. */
  sources: Map<string, number>;
}

/** One built file as the graph keeps it. */
interface Output {
  /** Files of the build (relative to its folder) and packages, with how they are imported. */
  imports: { path: string; dynamic: boolean; file: boolean }[];
  /** Source module → bytes it puts in the file. */
  sources: Record<string, number>;
}

/** `lib/x.ts`, `conformance/x.ts`, or a bundled package's `node_modules/p/x.js`, wherever node_modules is. */
const SOURCE = /^(?:.*?\/)?((?:lib|conformance|node_modules)\/.+)$/;

/** esbuild's metafile, its paths made relative to the build's folder and its sources named as above. */
function graphOf(meta: Metafile, workingDir: string, outDir: string): Record<string, Output> {
  const inFolder = (path: string) => relative(outDir, resolve(workingDir, path));
  const graph: Record<string, Output> = {};
  for (const [path, output] of Object.entries(meta.outputs)) {
    if (!path.endsWith('.js')) continue;
    const file = inFolder(path);
    const sources: Record<string, number> = {};
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const source = SOURCE.exec(input.replace(/^[^:]*:/, ''))?.[1];
      if (source && bytesInOutput > 0) sources[source] = (sources[source] ?? 0) + bytesInOutput;
    }
    const imports = output.imports
      .filter((i) => i.kind === 'import-statement' || i.kind === 'dynamic-import')
      .map((i) => {
        const dynamic = i.kind === 'dynamic-import';
        // A file of the build, or one an entry names as external (`/dns` and `/s3` import the root's
        // file, scripts/chunking.ts): relative to the importer then.
        if (!i.external) return { path: inFolder(i.path), dynamic, file: true };
        if (i.path.startsWith('.')) return { path: join(dirname(file), i.path), dynamic, file: true };
        return { path: i.path, dynamic, file: false };
      });
    graph[file] = { imports, sources };
  }
  return graph;
}

/** The esbuild plugin of `withGraph`: writes the build's graph into its output folder. */
function graphWriter(): Plugin {
  return {
    name: 'edge-doubles-import-graph',
    setup(b) {
      b.initialOptions.metafile = true;
      b.onEnd((result) => {
        const { outdir, absWorkingDir = process.cwd(), entryPoints } = b.initialOptions;
        if (!result.metafile || !outdir) return;
        const names = Array.isArray(entryPoints) ? entryPoints.map(String) : Object.keys(entryPoints ?? {});
        const outDir = resolve(absWorkingDir, outdir);
        mkdirSync(outDir, { recursive: true });
        writeFileSync(
          join(outDir, `graph-${[...names].sort()[0]}.json`),
          JSON.stringify(graphOf(result.metafile, absWorkingDir, outDir)),
        );
      });
    },
  };
}

/** A tsup build that also writes what scripts/import-graph.ts reads (the published build does not). */
export function withGraph(options: Options): Options {
  return { ...options, esbuildPlugins: [...(options.esbuildPlugins ?? []), graphWriter()] };
}

/** Every graph written into `dir`, merged (the doubles' ESM and the conformance suites' are built apart). */
function readGraph(dir: string): Record<string, Output> {
  const files = readdirSync(dir).filter((f) => /^graph-.*\.json$/.test(f));
  if (files.length === 0) throw new Error(`import-graph: no graph-*.json in ${dir} (build it withGraph)`);
  return Object.assign({}, ...files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as object));
}

/** The files `from` reaches by static imports (themselves included), and the files they name in `import()`. */
function walk(graph: Record<string, Output>, from: string[]): { loaded: Loaded; dynamic: string[] } {
  const loaded: Loaded = { files: [], packages: new Set(), sources: new Map() };
  const dynamic: string[] = [];
  const visit = (file: string) => {
    if (loaded.files.includes(file)) return;
    const output = graph[file];
    if (!output) throw new Error(`import-graph: ${file} is not in the build's graph`);
    loaded.files.push(file);
    for (const [s, n] of Object.entries(output.sources)) loaded.sources.set(s, (loaded.sources.get(s) ?? 0) + n);
    for (const i of output.imports) {
      if (i.dynamic) dynamic.push(i.path);
      else if (i.file) visit(i.path);
      else loaded.packages.add(i.path);
    }
  };
  for (const f of from) visit(f);
  return { loaded, dynamic };
}

/** What importing `file` (an entry's built file, relative to `dir`) loads. */
export function loadedAtImport(dir: string, file: string): Loaded {
  return walk(readGraph(dir), [file]).loaded;
}

/**
 * What `file`'s code may load later, through `import()`, leaving out what it loads at import: the
 * files (and the packages named in an `import()`, in `packages`).
 */
export function loadedOnFirstUse(dir: string, file: string): Loaded {
  const graph = readGraph(dir);
  const eager = walk(graph, [file]);
  const later: Loaded = { files: [], packages: new Set(), sources: new Map() };
  const known = new Set(eager.loaded.files);
  let pending = eager.dynamic;
  while (pending.length > 0) {
    const files = pending.filter((f) => f in graph && !known.has(f));
    for (const p of pending) if (!(p in graph) && !eager.loaded.packages.has(p)) later.packages.add(p);
    const { loaded, dynamic } = walk(graph, files);
    for (const f of loaded.files) {
      if (known.has(f)) continue;
      known.add(f);
      later.files.push(f);
    }
    for (const p of loaded.packages) if (!eager.loaded.packages.has(p)) later.packages.add(p);
    for (const [s, n] of loaded.sources) if (!eager.loaded.sources.has(s)) later.sources.set(s, n);
    pending = dynamic.filter((f) => !known.has(f));
  }
  return later;
}
