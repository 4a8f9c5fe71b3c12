/**
 * Where the browser project finds the built package and the browser, shared by vitest.config.ts and
 * the global setup that builds it.
 */
import { existsSync } from 'node:fs';
import { browserEntries } from '../../scripts/package-entries.js';

/** The package as built for the browser run (gitignored; see build-package.ts). */
export const browserDist = new URL('../../.browser-dist/', import.meta.url).pathname;

/** Debian's chromium package (Playwright's own browsers are not installed here). */
export const chromiumPath = process.env.EDGE_DOUBLES_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

/**
 * The package's browser-facing subpaths as a bundler resolves them ("exports" → import), pointed at
 * the built files. Anchored, so the bare 'edge-doubles' does not also catch its subpaths.
 */
export function builtPackageAlias(): { find: RegExp; replacement: string }[] {
  return browserEntries().map(({ subpath, file }) => ({
    find: new RegExp(`^${subpath.replace(/[/-]/g, '\\$&')}$`),
    replacement: `${browserDist}${file}`,
  }));
}
