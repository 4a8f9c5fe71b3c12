/**
 * The Node suites of `npm run bench -- suites` (bench/suites.ts runs `vitest run --config` this file
 * in a child process): the files of bench/suites/ in Vitest's default pool, with the package as
 * built. EDGE_DOUBLES_BENCH_TARGET picks the env (env.ts).
 */
import { defineConfig } from 'vitest/config';
import { builtPackageAlias, repoRoot } from './package.js';

export default defineConfig({
  root: repoRoot,
  resolve: { alias: builtPackageAlias() },
  test: {
    include: ['bench/suites/*.test.ts'],
    // Miniflare starts workerd in beforeAll: seconds on a loaded machine.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
