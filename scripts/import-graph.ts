/**
 * The run-time import graph of `lib/`, folder by folder, for the layering rule of ARCHITECTURE.md
 * ("What may import what"): imports run one way, from shared parts up to models, the
 * account, surfaces, assemblies and `node/`; no folder imports a folder above it at run time, while
 * a type (`import type`) may be shared in any direction. spec/architecture/import-graph.test.ts
 * holds `lib/` to it; docs can print the graph with `npx tsx scripts/import-graph.ts`.
 *
 * Parsed with the TypeScript compiler (no type checking: one file at a time), so `import type`,
 * `export type … from` and the `type` keyword on specifiers are told apart from run-time imports.
 * Under `verbatimModuleSyntax` (tsconfig.json) `import { type A } from 'x'` still loads `x` (it is
 * emitted as `import {} from 'x'`), so only a fully type-only statement is left out of the graph.
 * `import('x')` calls are run-time edges too; `import('x').T` in a type is not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The folder node of files directly in `lib/` (clock, bytes, hashing, ...): the shared parts. */
export const SHARED = 'lib';

/**
 * The package's entry files (tsup.config.ts `entry`, by its names): each is a node of its own,
 * `entry:<name>`, above every folder. An entry gathers a subpath's public names from wherever they
 * live (edge-doubles/dns exports the DnsApi assembly and the Account beside the zone model), so it
 * belongs to no layer; nothing in `lib/` may import one.
 */
export const ENTRIES: Readonly<Record<string, string>> = {
  index: 'lib/index.ts',
  bucket: 'lib/bucket/index.ts',
  dns: 'lib/dns/index.ts',
  s3: 'lib/s3/index.ts',
  queue: 'lib/queue/index.ts',
  node: 'lib/node/index.ts',
  vitest: 'lib/vitest.ts',
  cli: 'lib/node/cli.ts',
};
const ENTRY_NODES = new Map(Object.entries(ENTRIES).map(([name, file]) => [file, `entry:${name}`]));

export interface ImportEdge {
  /** The importing file, relative to the repository root. */
  from: string;
  /** The imported file (resolved, `.js` read as `.ts`), relative to the repository root. */
  to: string;
}

/** Every module specifier `source` loads at run time (with `types`, also those it takes only types from). */
export function runtimeSpecifiers(fileName: string, source: string, types = false): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      if ((types || !isTypeOnlyImport(node)) && ts.isStringLiteral(node.moduleSpecifier))
        found.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isExportDeclaration(node)) {
      if ((types || !node.isTypeOnly) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
        found.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isImportEqualsDeclaration(node)) {
      const ref = node.moduleReference;
      if ((types || !node.isTypeOnly) && ts.isExternalModuleReference(ref) && ts.isStringLiteral(ref.expression))
        found.push(ref.expression.text);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) found.push(arg.text);
    }
    if (
      types &&
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** `import type …`; `import { type A, type B }` is not (it still loads the module, see above). */
function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  return node.importClause?.isTypeOnly === true;
}

const isSource = (name: string) => name.endsWith('.ts') && !name.endsWith('.d.ts');

/** The TypeScript sources under `dir`, as absolute paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return isSource(e.name) ? [path] : [];
  });
}

/** Every run-time import (with `types`, every import) between files of `libDir` (package imports are left out). */
export function runtimeImports(root: string, libDir = join(root, 'lib'), types = false): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(libDir)) {
    for (const spec of runtimeSpecifiers(file, readFileSync(file, 'utf8'), types)) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      edges.push({ from: relative(root, file).split(sep).join('/'), to: relative(root, target).split(sep).join('/') });
    }
  }
  return edges;
}

/**
 * The node a file of `lib/` belongs to: its first folder under `lib/`, SHARED for `lib/x.ts`, or
 * `entry:<name>` for an entry file (ENTRIES).
 */
export function folderOf(path: string): string {
  const entry = ENTRY_NODES.get(path);
  if (entry) return entry;
  const parts = path.split('/');
  const at = parts.indexOf('lib');
  const rest = parts.slice(at + 1);
  return rest.length > 1 ? rest[0]! : SHARED;
}

/** Folder → the folders it imports at run time, and for each pair the file edges that make it. */
export interface FolderGraph {
  edges: Map<string, Set<string>>;
  because: Map<string, ImportEdge[]>;
}

export function folderGraph(imports: readonly ImportEdge[]): FolderGraph {
  const edges = new Map<string, Set<string>>();
  const because = new Map<string, ImportEdge[]>();
  for (const e of imports) {
    const a = folderOf(e.from);
    const b = folderOf(e.to);
    if (!edges.has(a)) edges.set(a, new Set());
    if (!edges.has(b)) edges.set(b, new Set());
    if (a === b) continue;
    edges.get(a)!.add(b);
    const key = `${a} -> ${b}`;
    because.set(key, [...(because.get(key) ?? []), e]);
  }
  return { edges, because };
}

/**
 * The cycles of a directed graph, one per strongly connected component of more than one node (or a
 * node that imports itself), each as a closed path `[a, b, ..., a]` through that component.
 */
export function findCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  // Tarjan's strongly connected components.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strong = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of [...edges.keys()].sort()) if (!indexOf.has(v)) strong(v);
  const cycles: string[][] = [];
  for (const component of components) {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    if (component.length === 1 && !edges.get(start)?.has(start)) continue;
    cycles.push(pathBack(edges, members, start));
  }
  return cycles;
}

/** A shortest closed path from `start` back to itself inside `members` (breadth first). */
function pathBack(
  edges: ReadonlyMap<string, ReadonlySet<string>>,
  members: ReadonlySet<string>,
  start: string,
): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of [...(edges.get(v) ?? [])].sort()) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = previous.get(at)!) path.unshift(at);
        path.unshift(start);
        return path;
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** The graph as lines `folder -> a, b, c`, folders in name order. */
export function describe(graph: FolderGraph): string {
  return [...graph.edges.keys()]
    .sort()
    .map((a) => `${a} -> ${[...graph.edges.get(a)!].sort().join(', ') || '(nothing)'}`)
    .join('\n');
}

// `npx tsx scripts/import-graph.ts`: print the folder graph and any cycle.
if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
  const graph = folderGraph(runtimeImports(root));
  console.log(describe(graph));
  for (const cycle of findCycles(graph.edges)) {
    console.log(`\ncycle: ${cycle.join(' -> ')}`);
    for (let i = 0; i + 1 < cycle.length; i++) {
      for (const e of graph.because.get(`${cycle[i]} -> ${cycle[i + 1]}`) ?? []) console.log(`  ${e.from} -> ${e.to}`);
    }
  }
}
