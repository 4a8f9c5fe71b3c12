/**
 * What an entry of the built ESM loads, read from the files in dist/: the entry's file and every
 * file it imports statically are loaded at import; a file reached through `import()` only when
 * that code runs. Sources are told apart by esbuild's `// lib/s3/api.ts` comments (the output is
 * not minified). Used by spec/runtimes/import-graph.test.ts and bench/imports.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Loaded {
  /** The files loaded (paths relative to the build's folder), the entry's first. */
  files: string[];
  /** Packages imported by name (externals). */
  packages: Set<string>;
  /** Each source module in those files, as `lib/s3/api.ts` or `node_modules/<package>/…`, and its bytes there. */
  sources: Map<string, number>;
}

/** A source comment: `// lib/x.ts`, `// conformance/x.ts`, or a bundled package's `// ../../node_modules/p/x.js`. */
const SOURCE = /^\/\/ (?:[^\n]*?\/)?((?:lib|conformance|node_modules)\/\S+)$/gm;
const STATIC = /^(?:import|export)\s[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gm;
const DYNAMIC = /\bimport\(\s*"([^"]+)"\s*\)/g;

function read(dir: string, file: string): { text: string; sources: Map<string, number> } {
  const text = readFileSync(join(dir, file), 'utf8');
  const sources = new Map<string, number>();
  const marks = [...text.matchAll(SOURCE)];
  marks.forEach((m, i) => {
    const end = marks[i + 1]?.index ?? text.length;
    sources.set(m[1]!, (sources.get(m[1]!) ?? 0) + end - m.index);
  });
  return { text, sources };
}

/** The files `from` reaches by static imports (themselves included), and what they name in `import()`. */
function walk(dir: string, from: string[]): { loaded: Loaded; dynamic: string[] } {
  const loaded: Loaded = { files: [], packages: new Set(), sources: new Map() };
  const dynamic: string[] = [];
  const visit = (file: string) => {
    if (loaded.files.includes(file)) return;
    loaded.files.push(file);
    const { text, sources } = read(dir, file);
    for (const [s, n] of sources) loaded.sources.set(s, (loaded.sources.get(s) ?? 0) + n);
    for (const m of text.matchAll(STATIC)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith('.')) visit(join(dirname(file), spec));
      else loaded.packages.add(spec);
    }
    for (const m of text.matchAll(DYNAMIC)) dynamic.push(m[1]!.startsWith('.') ? join(dirname(file), m[1]!) : m[1]!);
  };
  for (const f of from) visit(f);
  return { loaded, dynamic };
}

/** What importing `file` (an entry's built file, relative to `dir`) loads. */
export function loadedAtImport(dir: string, file: string): Loaded {
  return walk(dir, [file]).loaded;
}

/**
 * What `file`'s code may load later, through `import()`, leaving out what it loads at import: the
 * files (and the packages named in an `import()`, in `packages`).
 */
export function loadedOnFirstUse(dir: string, file: string): Loaded {
  const eager = walk(dir, [file]);
  const later: Loaded = { files: [], packages: new Set(), sources: new Map() };
  const known = new Set(eager.loaded.files);
  let pending = eager.dynamic;
  while (pending.length > 0) {
    const files = pending.filter((f) => f.endsWith('.js') && !known.has(f));
    for (const p of pending) if (!p.endsWith('.js') && !eager.loaded.packages.has(p)) later.packages.add(p);
    const { loaded, dynamic } = walk(dir, files);
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
