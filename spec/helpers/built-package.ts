/**
 * The package built as its users install it, for the tests that run it outside Vitest (Jest, other
 * runtimes, other runners): JavaScript only (ESM and CJS), with the package's own tsup configs, into
 * `<root>/<folder>/node_modules/edge-doubles` (gitignored), where a consumer finds it by name and its
 * dependencies resolve from this repository's node_modules.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { withGraph } from '../../scripts/import-graph.js';
import { cjs, esmBuilds } from '../../tsup.config.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Builds the package into `<root>/<folder>/node_modules/edge-doubles/`; resolves with that node_modules.
 * `graph`: the ESM with what scripts/import-graph.ts reads beside it.
 */
export async function installBuiltPackage(folder: string, { graph = false } = {}): Promise<string> {
  const nodeModules = `${repoRoot}${folder}/node_modules/`;
  const installed = `${nodeModules}edge-doubles/`;
  rmSync(installed, { recursive: true, force: true });
  mkdirSync(installed, { recursive: true });
  copyFileSync(`${repoRoot}package.json`, `${installed}package.json`);
  const outDir = `${installed}dist`;
  const builds = [...(graph ? esmBuilds.map(withGraph) : esmBuilds), cjs];
  await Promise.all(builds.map((options) => build({ ...options, config: false, outDir, silent: true })));
  return nodeModules;
}
