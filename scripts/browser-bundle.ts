/**
 * The package as a browser user's bundler sees it: the ESM the package's own tsup config builds,
 * and each public subpath bundled from it by esbuild for `platform: 'browser'`. Used by the browser
 * conformance run (the build), the bundle-hygiene test (no Node built-in module may be pulled in)
 * and `bench/bundle-size.ts` (minified and gzipped sizes).
 */
import { rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as esbuild, type Metafile, type Plugin } from 'esbuild';
import { build as tsup } from 'tsup';
import { esmBuilds } from '../tsup.config.js';
import { withGraph } from './import-graph.js';

export { browserEntries } from './package-entries.js';

const root = new URL('..', import.meta.url).pathname;

/**
 * Builds what a browser loads: ESM only, no declarations and no maps (the full `npm run build`
 * with declarations takes some 30 s here; the JavaScript is the same). `graph`: with what
 * scripts/import-graph.ts reads beside it.
 */
export async function buildEsm(outDir: string, { graph = false } = {}): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  for (const options of esmBuilds)
    await tsup({ ...(graph ? withGraph(options) : options), config: false, outDir, silent: true });
}

const builtins = new Set(builtinModules);
/** `node:x`, or a bare name Node resolves to a built-in (tsup drops the `node:` prefix). */
const isNodeBuiltin = (path: string) => path.startsWith('node:') || builtins.has(path);

export interface BrowserBundle {
  /** Node built-in modules the bundle imports, each with the file that imports it. */
  nodeImports: string[];
  /** What loads with the entry (its static imports), minified if asked. */
  bytes: number;
  gzipBytes: number;
  /** What loads only on demand (dynamic imports: the streams ponyfill, where a runtime needs it). */
  lazyBytes: number;
  lazyGzipBytes: number;
}

/**
 * Bundles one built file for the browser with its dependencies, as a user's bundler would (code
 * splitting on, so a dynamic import stays a chunk of its own). Node built-ins are not resolved but
 * recorded; `vitest` stays external (the browser test runner provides it).
 */
export async function bundleForBrowser(file: string, { minify = false } = {}): Promise<BrowserBundle> {
  const nodeImports: string[] = [];
  const recordNode: Plugin = {
    name: 'record-node-builtins',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (!isNodeBuiltin(args.path)) return undefined;
        nodeImports.push(`${args.path} (from ${args.importer.replace(root, '')})`);
        return { path: args.path, external: true };
      });
    },
  };
  const result = await esbuild({
    entryPoints: [file],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    splitting: true,
    // Output paths in the metafile are relative to the working directory: '/' makes them the
    // outputFiles' absolute paths without the leading slash.
    absWorkingDir: '/',
    outdir: '/bundle',
    write: false,
    minify,
    metafile: true,
    logLevel: 'silent',
    external: ['vitest'],
    nodePaths: [join(root, 'node_modules')],
    plugins: [recordNode],
  });
  const text = new Map(result.outputFiles.map((f) => [f.path.replace(/^\//, ''), f.contents]));
  const { eager, lazy } = splitOutputs(result.metafile);
  const size = (paths: string[]) => {
    const all = Buffer.concat(paths.map((p) => text.get(p)!));
    return { bytes: all.byteLength, gzip: all.byteLength ? gzipSync(all, { level: 9 }).byteLength : 0 };
  };
  const e = size(eager);
  const l = size(lazy);
  return { nodeImports, bytes: e.bytes, gzipBytes: e.gzip, lazyBytes: l.bytes, lazyGzipBytes: l.gzip };
}

/** The entry's output and the chunks it imports statically, apart from those only imported dynamically. */
function splitOutputs(meta: Metafile): { eager: string[]; lazy: string[] } {
  const outputs = meta.outputs;
  const entry = Object.keys(outputs).find((p) => outputs[p]!.entryPoint)!;
  const eager = new Set<string>();
  const visit = (p: string) => {
    if (eager.has(p)) return;
    eager.add(p);
    for (const i of outputs[p]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  return { eager: [...eager], lazy: Object.keys(outputs).filter((p) => !eager.has(p) && p.endsWith('.js')) };
}
