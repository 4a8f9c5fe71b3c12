/**
 * Where `npm run bench -- suites` installs the package as built (bench/suites.ts builds it there),
 * and the names a user imports it by, pointed at that build: the bench's Vitest configs resolve
 * `edge-doubles` and its subpaths to dist/ as a user's project resolves them from node_modules.
 */
import { entries } from '../../scripts/entries.mjs';

export const repoRoot = new URL('../../', import.meta.url).pathname;
/** Gitignored; `<consumer>/node_modules/edge-doubles` is the package, as npm would install it. */
export const consumer = `${repoRoot}.bench-package/`;
const installed = `${consumer}node_modules/edge-doubles/`;

/** Anchored, so the bare 'edge-doubles' does not also catch its subpaths. */
export function builtPackageAlias(): { find: RegExp; replacement: string }[] {
  return entries().map(({ specifier, dist }) => ({
    find: new RegExp(`^${specifier.replace(/[/-]/g, '\\$&')}$`),
    replacement: `${installed}dist/${dist}.js`,
  }));
}
