/**
 * `npm run bench -- imports` (also part of `suites`). The cold import of each package entry as
 * built (`import('edge-doubles/bucket')` from a consumer that installed it, bench/suites/build.ts),
 * each in a fresh `node` process, against importing `miniflare` itself in the same run: median of
 * seven rounds, the entries taking turns within each round (the order rotating), so a change of
 * load touches them alike. The time is the child's own, around the `import()`; the process's wall
 * time from spawn to exit is printed beside it. Issue 37's targets: the root ≥ 20× faster than
 * importing miniflare, every entry ≥ 10×.
 *
 * Then what each entry loads as it is imported, read from the built files (scripts/import-graph.ts):
 * how many files, and the modules in the entry's file and the chunks it imports statically, grouped
 * by folder and package; what only an `import()` reaches is listed apart, as loaded on first use.
 * Beside it, the cold import of each dependency alone. An entry that imports Vitest (`/vitest`, `/conformance`) is also timed with
 * Vitest already loaded, as it is in a Vitest run: its cold import is mostly Vitest's own.
 */
import { spawn } from 'node:child_process';
import { builtinModules } from 'node:module';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { entries } from '../scripts/entries.mjs';
import { buildPackage } from './suites/build.js';
import { loadedAtImport, loadedOnFirstUse } from '../scripts/import-graph.js';
import { consumer } from './suites/package.js';
import { median } from './stats.js';
import { fmtRatio, judge, printSummary, printTable, type TargetResult } from './table.js';

const ROUNDS = 7;
/** The folders and packages issue 37 names as heavy, in the order printed. */
const HEAVY: [label: string, test: (module: string) => boolean][] = [
  ['lib/s3', (m) => m.startsWith('lib/s3/')],
  ['lib/dns', (m) => m.startsWith('lib/dns/')],
  ['fast-xml-parser', (m) => m === 'fast-xml-parser'],
  ['smol-toml', (m) => m === 'smol-toml'],
  ['jsonc-parser', (m) => m === 'jsonc-parser'],
  ['dns-packet', (m) => m === 'dns-packet'],
  ['conformance suites', (m) => m.startsWith('conformance/')],
];
/** An import that loads nothing: what any import() costs at least. */
const EMPTY = 'data:text/javascript,export default 1';
/** The package's dependencies, timed alone (the ones an entry can load at import). */
const DEPENDENCIES = [
  EMPTY,
  'fast-xml-parser',
  'smol-toml',
  'jsonc-parser',
  'dns-packet',
  'selfsigned',
  '@noble/hashes/sha2.js',
  '@noble/hashes/legacy.js',
  'sorted-btree',
  'vitest',
];

interface Sample {
  importMs: number;
  wallMs: number;
}

/**
 * One fresh `node` that imports `specifier` from the consumer's folder and says how long it took;
 * `preload` first, untimed (Vitest, which a Vitest run has loaded before any test file).
 */
function importOnce(specifier: string, preload?: string): Promise<Sample> {
  const before = preload ? `await import(${JSON.stringify(preload)}); ` : '';
  const code = `${before}const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: consumer });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      const wallMs = performance.now() - started;
      const importMs = Number(out.trim().split('\n').pop());
      if (status !== 0 || !Number.isFinite(importMs)) reject(new Error(`import('${specifier}') failed:\n${err}`));
      else resolve({ importMs, wallMs });
    });
  });
}

/** Rounds of one import of each specifier, the order rotating; medians per specifier. */
async function timeImports(
  specifiers: readonly string[],
  preload?: string,
): Promise<Map<string, { importMs: number; wallMs: number }>> {
  const samples = new Map(specifiers.map((s) => [s, [] as Sample[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < specifiers.length; i++) {
      const specifier = specifiers[(i + round) % specifiers.length]!;
      samples.get(specifier)!.push(await importOnce(specifier, preload));
    }
  }
  return new Map(
    [...samples].map(([s, xs]) => [
      s,
      { importMs: median(xs.map((x) => x.importMs)), wallMs: median(xs.map((x) => x.wallMs)) },
    ]),
  );
}

interface Loaded {
  /** The files loaded at import. */
  files: number;
  /** Module or package → bytes it puts in the files loaded at import (0: a package imported as is). */
  eager: Map<string, number>;
  /** The lib/ folders and packages of what loads only on first use, through an `import()`. */
  lazy: Set<string>;
}

/** `node_modules/@noble/hashes/sha2.js`, or `@noble/hashes/sha2.js`, → `@noble/hashes`. */
function packageOf(path: string): string {
  const parts = path.replace(/^node_modules\//, '').split('/');
  return parts[0]!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** `lib/s3/xml.ts` → `lib/s3`; `lib/hash.ts` stays; a bundled package's module is the package. */
const group = (path: string) =>
  path.startsWith('node_modules/')
    ? packageOf(path)
    : path.startsWith('lib/')
      ? path.split('/').slice(0, 2).join('/')
      : path;

/** A built-in module as the build names it (tsup drops the `node:` prefix). */
const isBuiltin = (name: string) => name.startsWith('node:') || builtinModules.includes(name);

/** What the built entry loads at import and on first use, read from its files (scripts/import-graph.ts). */
function loadedBy(file: string): Loaded {
  const dist = `${consumer}node_modules/edge-doubles/dist`;
  const now = loadedAtImport(dist, file);
  const eager = new Map<string, number>();
  for (const [source, bytes] of now.sources) {
    const key = source.startsWith('node_modules/') ? packageOf(source) : source;
    eager.set(key, (eager.get(key) ?? 0) + bytes);
  }
  for (const p of now.packages) if (!isBuiltin(p)) eager.set(packageOf(p), 0);
  const later = loadedOnFirstUse(dist, file);
  const lazy = new Set([...later.sources.keys()].map(group));
  for (const p of later.packages) if (!isBuiltin(p)) lazy.add(packageOf(p));
  for (const m of eager.keys()) if (!m.startsWith('lib/') && !m.startsWith('conformance/')) lazy.delete(m);
  return { files: now.files.length, eager, lazy };
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;

export async function benchImports(results: TargetResult[]): Promise<void> {
  await buildPackage();
  const list = entries();
  const loaded = list.map((e) => loadedBy(`${e.dist}.js`));
  const withVitest = list.filter((_, i) => loaded[i]!.eager.has('vitest')).map((e) => e.specifier);
  const loadBefore = loadavg()[0]!.toFixed(2);
  const specifiers = [...list.map((e) => e.specifier), 'miniflare'];
  const times = await timeImports(specifiers);
  const afterVitest = await timeImports(withVitest, 'vitest');
  const miniflare = times.get('miniflare')!;
  const rows = list.map((e) => {
    const t = times.get(e.specifier)!;
    const ratio = miniflare.importMs / t.importMs;
    const min = e.subpath === '.' ? 20 : 10;
    const warm = afterVitest.get(e.specifier);
    return [
      e.specifier,
      `${t.importMs.toFixed(0)} ms`,
      `${t.wallMs.toFixed(0)} ms`,
      fmtRatio(ratio),
      judge(results, `import ${e.specifier}`, `≥ ${min}× faster than importing miniflare`, ratio, min),
      warm ? `${warm.importMs.toFixed(0)} ms (${fmtRatio(miniflare.importMs / warm.importMs)})` : '',
    ];
  });
  rows.push(['miniflare', `${miniflare.importMs.toFixed(0)} ms`, `${miniflare.wallMs.toFixed(0)} ms`, '1×', '', '']);
  printTable(
    'Cold import of each entry, as built, in a fresh node',
    ['entry', 'import', 'process wall', 'vs miniflare', 'target', 'with Vitest loaded'],
    rows,
    [
      `median of ${ROUNDS} fresh processes each, alternated; "import" is the child's own time around import(),`,
      '"process wall" is spawn to exit (node starting and ending included); the ratio is of the import times;',
      '"with Vitest loaded": the same import after an untimed import of vitest, as in a Vitest run',
      `load average ${loadBefore} before, ${loadavg()[0]!.toFixed(2)} after`,
    ],
  );

  printTable(
    'What each entry loads at import, as built (lazy: only through an import(), on first use)',
    ['entry', 'files', 'lib/ code', ...HEAVY.map(([label]) => label), 'other packages at import', 'lazy'],
    list.map((e, i) => {
      const { eager, lazy } = loaded[i]!;
      const modules = [...eager.keys()];
      const bytesUnder = (test: (m: string) => boolean) =>
        modules.filter(test).reduce((sum, m) => sum + eager.get(m)!, 0);
      const packages = modules
        .filter((m) => !m.startsWith('lib/') && !m.startsWith('conformance/'))
        .map((m) => (eager.get(m) ? `${m} (bundled)` : m));
      const heavyPackage = (m: string) => HEAVY.some(([, test]) => test(m));
      return [
        e.specifier,
        String(loaded[i]!.files),
        kB(bytesUnder((m) => m.startsWith('lib/'))),
        ...HEAVY.map(([, test]) => {
          if (!modules.some(test)) return '-';
          const bytes = bytesUnder(test);
          return bytes ? kB(bytes) : 'yes';
        }),
        packages.filter((m) => !heavyPackage(m.replace(' (bundled)', ''))).join(' ') || '-',
        [...lazy].join(' ') || '-',
      ];
    }),
    [
      'kB: bytes of each source in the built files (as published, minified), bundled packages included; "yes": a package imported as is',
    ],
  );

  const deps = await timeImports(DEPENDENCIES);
  printTable(
    'Cold import of each dependency alone, in a fresh node',
    ['package', 'import'],
    DEPENDENCIES.map((d) => [
      d === EMPTY ? '(an empty module: the floor)' : d,
      `${deps.get(d)!.importMs.toFixed(1)} ms`,
    ]),
    [`median of ${ROUNDS}, alternated`],
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results: TargetResult[] = [];
  await benchImports(results);
  printSummary(results);
}
