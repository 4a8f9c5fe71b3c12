/**
 * The package's public subpaths as "exports" declares them, for the tools that treat the package as
 * its users do (the browser run's aliases, the bundle check, the size bench). Kept apart from
 * browser-bundle.ts so vitest.config.ts can read it without loading tsup and esbuild.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const packageJson = new URL('../package.json', import.meta.url);

/** Subpaths that are Node-only by design (the CLI's server and config loading). */
const NODE_ONLY = new Set(['./node', './package.json']);

/** The package's browser-facing subpaths and their built ESM file, read from "exports". */
export function browserEntries(): { subpath: string; file: string }[] {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    exports: Record<string, { import?: { default?: string } }>;
  };
  return Object.entries(pkg.exports)
    .filter(([subpath, target]) => !NODE_ONLY.has(subpath) && target.import?.default)
    .map(([subpath, target]) => ({
      subpath: subpath === '.' ? 'edge-doubles' : `edge-doubles/${subpath.slice(2)}`,
      file: basename(target.import!.default!),
    }));
}
