/**
 * The workerd suites of `npm run bench -- suites` (bench/suites.ts runs `vitest run --config` this
 * file in a child process): bench/suites/workerd/ under @cloudflare/vitest-plugin with
 * examples/worker-in-workerd's wrangler.toml, the package as built. EDGE_DOUBLES_BENCH_TARGET picks
 * what `env.FILES` is:
 * - `pool-doubles`: the doubles injected by a setup file, examples/worker-in-workerd/swap-at-import.ts
 *   (createEnv and useDoubles from the package root), as docs/create-env.md shows it;
 * - `pool-bucket`: a Bucket from `edge-doubles/bucket` alone, by workerd/swap-bucket.ts;
 * - `pool-binding`: the pool's own binding (Miniflare's R2 in workerd), no setup file.
 */
import { defineConfig } from 'vitest/config';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { builtPackageAlias, repoRoot } from './package.js';

const SETUP: Record<string, string[]> = {
  'pool-doubles': ['./examples/worker-in-workerd/swap-at-import.ts'],
  'pool-bucket': ['./bench/suites/workerd/swap-bucket.ts'],
  'pool-binding': [],
};
const target = process.env.EDGE_DOUBLES_BENCH_TARGET ?? 'pool-doubles';
const setupFiles = SETUP[target];
if (!setupFiles) throw new Error(`EDGE_DOUBLES_BENCH_TARGET: one of ${Object.keys(SETUP).join(', ')}, not ${target}`);

export default defineConfig({
  root: repoRoot,
  resolve: { alias: builtPackageAlias() },
  plugins: [cloudflareTest({ wrangler: { configPath: './examples/worker-in-workerd/wrangler.toml' } })],
  // Generous: the first request loads the Worker (and the cloudflare SDK it imports) through Vite.
  test: { include: ['bench/suites/workerd/*.test.ts'], setupFiles, testTimeout: 60_000, hookTimeout: 60_000 },
});
