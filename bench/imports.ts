/**
 * `npm run bench -- imports` (also part of `suites`). The cold import of each package entry as
 * built (`import('edge-doubles/bucket')` from a consumer that installed it, bench/suites/build.ts),
 * each in a fresh `node` process, against importing `miniflare` itself in the same run: median of
 * seven rounds, the entries taking turns within each round (the order rotating), so a change of
 * load touches them alike. The time is the child's own, around the `import()`; the process's wall
 * time from spawn to exit is printed beside it. Issue 37's targets: the root ≥ 20× faster than
 * importing miniflare, every entry ≥ 10×.
 *
 * Then what each entry loads as it is imported: its source entry bundled by esbuild with a metafile
 * (as tsup builds the ESM: code splitting on, packages external but those it bundles), the modules of
 * the entry's output and of the chunks it imports statically, grouped by folder and package; a
 * dynamic import is listed apart, as loaded only when used. Beside it, the cold import of each
 * dependency alone. An entry that imports Vitest (`/vitest`, `/conformance`) is also timed with
 * Vitest already loaded, as it is in a Vitest run: its cold import is mostly Vitest's own.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { entries } from '../scripts/entries.mjs';
import { bundledDependencies } from '../tsup.config.js';
import { buildPackage } from './suites/build.js';
import { consumer, repoRoot } from './suites/package.js';
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
  /** Module or package → bytes it puts in the output, for what loads at import. */
  eager: Map<string, number>;
  /** Packages and lib folders only a dynamic import reaches. */
  lazy: Set<string>;
}

/** `node_modules/@noble/hashes/sha2.js` (wherever node_modules is), or `@noble/hashes/sha2.js`, → `@noble/hashes`. */
function packageOf(path: string): string {
  const at = path.lastIndexOf('node_modules/');
  const parts = (at < 0 ? path : path.slice(at + 'node_modules/'.length)).split('/');
  return parts[0]!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** `lib/s3/xml.ts` → `lib/s3`; `lib/hash.ts` stays; a bundled package's module is the package. */
const group = (path: string) =>
  path.includes('node_modules/')
    ? packageOf(path)
    : path.startsWith('lib/')
      ? path.split('/').slice(0, 2).join('/')
      : path;

/** What the source entry loads at import, by esbuild's metafile (see the header). */
async function loadedBy(source: string): Promise<Loaded> {
  const result = await build({
    entryPoints: [`${repoRoot}${source}`],
    absWorkingDir: repoRoot,
    bundle: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    mainFields: ['module', 'main'],
    plugins: [
      {
        // Packages stay external, as tsup leaves them, but those the ESM build bundles (tsup.config.ts).
        name: 'external-as-built',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            bundledDependencies.some((re) => re.test(args.path)) ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    outdir: `${consumer}metafile-out`,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs: Metafile['outputs'] = result.metafile.outputs;
  const entry = Object.keys(outputs).find((p) => outputs[p]!.entryPoint)!;
  const eagerOutputs = new Set<string>();
  const visit = (p: string) => {
    if (eagerOutputs.has(p)) return;
    eagerOutputs.add(p);
    for (const i of outputs[p]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  const eager = new Map<string, number>();
  const lazy = new Set<string>();
  for (const [p, output] of Object.entries(outputs)) {
    const isEager = eagerOutputs.has(p);
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      // A bundled package's modules count as the package.
      const input = path.includes('node_modules/') ? packageOf(path) : path;
      if (isEager) eager.set(input, (eager.get(input) ?? 0) + bytesInOutput);
      else lazy.add(group(input));
    }
    for (const i of output.imports) {
      if (!i.external || i.path.startsWith('node:')) continue;
      if (isEager && i.kind === 'import-statement') eager.set(packageOf(i.path), 0);
      else lazy.add(packageOf(i.path));
    }
  }
  for (const m of eager.keys()) lazy.delete(group(m));
  for (const m of eager.keys()) lazy.delete(m);
  return { eager, lazy };
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;

export async function benchImports(results: TargetResult[]): Promise<void> {
  await buildPackage();
  const list = entries();
  const loaded = await Promise.all(list.map((e) => loadedBy(e.source)));
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
    'What each entry loads at import (esbuild metafile of its source; lazy: only through a dynamic import)',
    ['entry', 'lib/ code', ...HEAVY.map(([label]) => label), 'other packages at import', 'lazy'],
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
      'kB: source bytes in the output (esbuild, unminified), bundled packages included; "yes": a package imported as is',
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
