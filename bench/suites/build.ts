/**
 * Installs the package as built for the suite and import benches: the package's own tsup configs
 * (ESM and CJS, no declarations) into `.bench-package/node_modules/edge-doubles` (gitignored), with a
 * package.json of the consumer's own (without it, Node would resolve `edge-doubles` from there to
 * this repository's package by self-reference, whose dist/ may not exist), and the jobs Worker
 * built to JavaScript for Miniflare, as a Miniflare user points `scriptPath` at a built Worker.
 */
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { installBuiltPackage } from '../../spec/helpers/built-package.js';
import { consumer, repoRoot } from './package.js';

export const jobsScript = `${consumer}jobs-worker.js`;

let built: Promise<void> | undefined;

/** Once per bench run, however many cases ask. */
export function buildPackage(): Promise<void> {
  built ??= (async () => {
    const started = performance.now();
    await installBuiltPackage('.bench-package', { graph: true });
    writeFileSync(
      `${consumer}package.json`,
      JSON.stringify({ name: 'edge-doubles-bench-consumer', private: true, type: 'module' }),
    );
    await build({
      entryPoints: [`${repoRoot}examples/worker-in-workerd/queue/worker.ts`],
      bundle: true,
      format: 'esm',
      outfile: jobsScript,
      logLevel: 'warning',
    });
    console.log(`built the package into ${consumer} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  })();
  return built;
}
