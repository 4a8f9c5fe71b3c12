/**
 * `npm run bench -- suites` (issue 37): the figure users feel, a whole `vitest run` of a suite, each
 * run as users run it, `vitest run` in a child process, from spawn to exit:
 *
 * - In Node, bench/suites/*.test.ts (ten put/get/list tests, the README's first test, examples/worker's
 *   files Worker on R2, examples/worker-in-workerd/queue's jobs Worker on Queues and R2) with the
 *   doubles (createEnv) against the same files on Miniflare 4's bindings in Node (bench/suites/env.ts).
 *   Target: the doubles' suite ≥ 2× faster.
 * - In workerd under @cloudflare/vitest-plugin, bench/suites/workerd/*.test.ts with the doubles
 *   injected by a setup file (examples/worker-in-workerd/swap-at-import.ts, which imports the package
 *   root), with a Bucket from `edge-doubles/bucket` alone, and on the pool's own binding (Miniflare's
 *   R2 in workerd). Target: the doubles never slower than the pool's binding (≥ 1.0×).
 *
 * The package is imported as built (bench/suites/build.ts), as from node_modules. Each variant runs
 * RUNS times (EDGE_DOUBLES_BENCH_RUNS, default 3), the variants taking turns within each round with the
 * first rotating, and medians are compared. Where the time goes comes from Vitest itself (the
 * reporter bench/suites/reporter.ts): start-up is spawn to the first test file queued; setup, import,
 * tests and environment are Vitest's per-file figures summed over the files (its summary's), transform
 * its summary's transform time. Files run one after another here (Vitest's workers on 2 cores), so the
 * sums add up to most of the wall time; on more cores they overlap. The cold imports
 * (bench/imports.ts) run first.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchImports } from './imports.js';
import { buildPackage, jobsScript } from './suites/build.js';
import { JOBS_SCRIPT_VARIABLE } from './suites/env.js';
import { repoRoot } from './suites/package.js';
import type { RunReport } from './suites/reporter.js';
import { median } from './stats.js';
import { fmtRatio, judge, printTable, type TargetResult } from './table.js';

const RUNS = Number(process.env.EDGE_DOUBLES_BENCH_RUNS ?? 3);

interface Run {
  wallMs: number;
  report: RunReport;
  spawnedAt: number;
}

/** One `vitest run --config <config>` in a child process with EDGE_DOUBLES_BENCH_TARGET=target. */
function runSuite(config: string, target: string, reportDir: string): Promise<Run> {
  const reportPath = join(reportDir, `${target}.json`);
  rmSync(reportPath, { force: true });
  const args = ['node_modules/vitest/vitest.mjs', 'run', '--config', config];
  args.push('--reporter=default', '--reporter=./bench/suites/reporter.ts');
  return new Promise((resolve, reject) => {
    const spawnedAt = performance.timeOrigin + performance.now();
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: {
        ...process.env,
        NO_COLOR: '1',
        EDGE_DOUBLES_BENCH_TARGET: target,
        EDGE_DOUBLES_BENCH_REPORT: reportPath,
        [JOBS_SCRIPT_VARIABLE]: jobsScript,
      },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      const wallMs = performance.now() - started;
      if (status !== 0) {
        reject(new Error(`vitest run --config ${config} (${target}) exited ${status}:\n${output.slice(-4000)}`));
        return;
      }
      resolve({ wallMs, spawnedAt, report: JSON.parse(readFileSync(reportPath, 'utf8')) as RunReport });
    });
  });
}

/** The figures of one run, in ms, by column. */
function phases({ wallMs, spawnedAt, report }: Run) {
  const sum = (pick: (f: RunReport['files'][number]) => number) => report.files.reduce((s, f) => s + pick(f), 0);
  return {
    wall: wallMs,
    vitest: report.runEnd - report.runStart,
    startUp: report.firstFileStart - spawnedAt,
    environment: sum((f) => f.environmentMs + f.prepareMs),
    setup: sum((f) => f.setupMs),
    import: sum((f) => f.importMs),
    tests: sum((f) => f.testsMs),
    transform: report.transformMs,
    exit: spawnedAt + wallMs - report.runEnd,
  };
}
type Phases = ReturnType<typeof phases>;
const COLUMNS: [keyof Phases, string][] = [
  ['wall', 'wall (spawn→exit)'],
  ['vitest', "Vitest's Duration"],
  ['startUp', 'start-up'],
  ['environment', 'env+prepare'],
  ['setup', 'setup files'],
  ['import', 'import'],
  ['tests', 'tests'],
  ['transform', 'transform'],
  ['exit', 'end→exit'],
];

/** RUNS rounds of every target, the first rotating; the median of each column per target. */
async function compare(config: string, targets: readonly string[], reportDir: string) {
  const loadBefore = load();
  const runs = new Map(targets.map((t) => [t, [] as Phases[]]));
  const perFile = new Map(targets.map((t) => [t, new Map<string, number[]>()]));
  for (let round = 0; round < RUNS; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + round) % targets.length]!;
      const run = await runSuite(config, target, reportDir);
      runs.get(target)!.push(phases(run));
      for (const f of run.report.files) {
        const files = perFile.get(target)!;
        const total = f.environmentMs + f.prepareMs + f.setupMs + f.importMs + f.testsMs;
        files.set(f.file, [...(files.get(f.file) ?? []), total]);
      }
      process.stdout.write('.');
    }
  }
  process.stdout.write('\n');
  const medians = new Map(
    targets.map((t) => {
      const xs = runs.get(t)!;
      return [t, Object.fromEntries(COLUMNS.map(([k]) => [k, median(xs.map((x) => x[k]))])) as Phases];
    }),
  );
  return {
    medians,
    walls: new Map(targets.map((t) => [t, runs.get(t)!.map((x) => x.wall)])),
    perFile,
    load: `${loadBefore} before, ${load()} after`,
  };
}

const load = () => loadavg()[0]!.toFixed(2);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function printRuns(
  title: string,
  labels: Record<string, string>,
  { medians, walls, perFile, load: loads }: Awaited<ReturnType<typeof compare>>,
) {
  const targets = [...medians.keys()];
  printTable(
    title,
    ['', ...COLUMNS.map(([, label]) => label), 'every wall'],
    targets.map((t) => [
      labels[t]!,
      ...COLUMNS.map(([k]) => s(medians.get(t)![k])),
      walls
        .get(t)!
        .map((w) => (w / 1000).toFixed(1))
        .join(' '),
    ]),
    [
      `medians of ${RUNS} runs each, alternated; start-up: spawn to the first test file queued (Vitest and its`,
      'config loaded, its worker started); env+prepare, setup files, import, tests: summed over the files;',
      "end→exit: the run's end to the process's exit",
      `load average ${loads}`,
    ],
  );
  const files = [...new Set(targets.flatMap((t) => [...perFile.get(t)!.keys()]))].sort();
  printTable(
    `${title}: each file (prepare + setup + import + tests, median)`,
    ['file', ...targets.map((t) => labels[t]!)],
    files.map((f) => [f, ...targets.map((t) => s(median(perFile.get(t)!.get(f) ?? [NaN])))]),
  );
}

/** `withImports`: each entry's cold import first (bench/imports.ts), unless the run times it apart. */
export async function benchSuites(results: TargetResult[], withImports = true): Promise<void> {
  await buildPackage();
  if (withImports) await benchImports(results);
  const reportDir = mkdtempSync(join(tmpdir(), 'edge-doubles-suites-'));
  try {
    const node = await compare('bench/suites/vitest.config.ts', ['doubles', 'miniflare'], reportDir);
    printRuns(
      'A suite in Node: `vitest run bench/suites` (19 tests, 4 files)',
      {
        doubles: 'the doubles',
        miniflare: "Miniflare's bindings",
      },
      node,
    );
    const nodeRatio = node.medians.get('miniflare')!.wall / node.medians.get('doubles')!.wall;
    console.log(`   suite wall time, Miniflare / the doubles: ${fmtRatio(nodeRatio)}`);
    judge(results, 'suite in Node, wall time', "≥ 2× faster than on Miniflare's bindings", nodeRatio, 2);

    const pool = await compare(
      'bench/suites/workerd.config.ts',
      ['pool-doubles', 'pool-bucket', 'pool-binding'],
      reportDir,
    );
    printRuns(
      'A suite in workerd (@cloudflare/vitest-plugin): bench/suites/workerd (16 tests, 2 files)',
      {
        'pool-doubles': 'doubles, setup file (package root)',
        'pool-bucket': 'Bucket, setup file (edge-doubles/bucket)',
        'pool-binding': "the pool's own R2 binding",
      },
      pool,
    );
    const binding = pool.medians.get('pool-binding')!.wall;
    const poolRatio = binding / pool.medians.get('pool-doubles')!.wall;
    const bucketRatio = binding / pool.medians.get('pool-bucket')!.wall;
    console.log(
      `   suite wall time, the pool's binding / the doubles: ${fmtRatio(poolRatio)} (package root), ${fmtRatio(bucketRatio)} (edge-doubles/bucket alone)`,
    );
    judge(results, 'suite in the pool, wall time', "≥ 1× the pool's own binding (never slower)", poolRatio, 1);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}
