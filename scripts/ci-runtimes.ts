/**
 * CI's runs on the other runtimes (issue 25), after `npm test` on the Node CI runs (20): the bucket,
 * S3, DNS and Queues conformance suites on the doubles and the worked examples' tests, by Vitest
 * itself running on Node 22, 24 and 26, Bun and Deno (each from the npm registry: dev dependencies,
 * found by scripts/runtimes.ts; Vitest's workers are forks of the runtime that runs it, so the
 * tests run there), and on Node 22 the wrangler tests again with the newest wrangler
 * (`wrangler-latest`, which needs Node 22) as a client of `api serve`. Prints each run's wall time
 * and exits non-zero if any run failed or a runtime is missing.
 *
 *   npx tsx scripts/ci-runtimes.ts [name ...]   (names: node22 node24 node26 bun deno wrangler-latest)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runtimeBinary } from './runtimes.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const vitest = `${root}node_modules/vitest/vitest.mjs`;

/** The suites and examples every runtime runs (Vitest projects of vitest.config.ts). */
const projects = [
  'conformance:double',
  'conformance:s3-double',
  'conformance:dns-double',
  'conformance:queue-double',
  // The bucket on SQLite, as `--persist` keeps it: node:sqlite is Node 22.13's and later, so on
  // npm test's Node 20 this target only says it is skipped.
  'conformance:double-sqlite',
  'examples',
  'examples:workerd',
  'examples:workerd-setup-file',
  'examples:workerd-queue',
].flatMap((p) => ['--project', p]);

interface Run {
  name: string;
  runtime: Parameters<typeof runtimeBinary>[0];
  /** Arguments before Vitest's script (Deno's `run -A`). */
  prefix?: string[];
  args: string[];
  env?: Record<string, string>;
}

const runs: Run[] = [
  { name: 'node22', runtime: 'node22', args: projects },
  { name: 'node24', runtime: 'node24', args: projects },
  { name: 'node26', runtime: 'node26', args: projects },
  { name: 'bun', runtime: 'bun', args: projects },
  { name: 'deno', runtime: 'deno', prefix: ['run', '-A'], args: projects },
  {
    name: 'wrangler-latest',
    runtime: 'node22',
    args: ['--project', 'integration', 'spec/r2-api/wrangler-'],
    env: { EDGE_DOUBLES_WRANGLER: 'wrangler-latest' },
  },
];

function exec(bin: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '', ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const only = process.argv.slice(2);
const results: { name: string; version: string; seconds: string; outcome: string }[] = [];
for (const r of runs.filter((r) => !only.length || only.includes(r.name))) {
  const { path, missing } = runtimeBinary(r.runtime);
  if (!path) {
    results.push({ name: r.name, version: '-', seconds: '-', outcome: `missing: ${missing}` });
    continue;
  }
  const version = await new Promise<string>((resolve) => {
    const c = spawn(path, ['--version']);
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d));
    c.on('exit', () => resolve(out.split('\n')[0]!.trim()));
  });
  console.log(`\n=== ${r.name} (${version}): vitest ${r.args.join(' ')}`);
  const started = performance.now();
  const code = await exec(
    path,
    [...(r.prefix ?? []), vitest, 'run', '--reporter=dot', '--reporter=./conformance/summary-reporter.ts', ...r.args],
    r.env ?? {},
  );
  results.push({
    name: r.name,
    version,
    seconds: ((performance.now() - started) / 1000).toFixed(0),
    outcome: code === 0 ? 'passed' : `failed (exit ${code})`,
  });
}

console.log('\nOther runtimes (wall time on this machine):');
for (const r of results)
  console.log(`- ${r.name.padEnd(16)} ${r.version.padEnd(12)} ${r.seconds.padStart(4)} s  ${r.outcome}`);
process.exitCode = results.every((r) => r.outcome === 'passed') ? 0 : 1;
