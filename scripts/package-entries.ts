/**
 * The package's browser-facing entries, for the tools that treat the package as its users do (the
 * browser run's aliases, the bundle check, the size bench): scripts/entries.mjs, less the Node-only
 * subpath. Kept apart from browser-bundle.ts so vitest.config.ts can read it without loading tsup
 * and esbuild.
 */
import { entries } from './entries.mjs';

/** Subpaths that are Node-only by design (the CLI's server and config loading). */
const NODE_ONLY = new Set(['./node']);

/** The package's browser-facing specifiers and their built ESM file's name in dist/. */
export function browserEntries(): { subpath: string; file: string }[] {
  return entries()
    .filter((e) => !NODE_ONLY.has(e.subpath))
    .map((e) => ({ subpath: e.specifier, file: `${e.dist}.js` }));
}
