import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { cloudflareTest } from '@cloudflare/vitest-plugin';

// Every conformance target is a Vitest project named `conformance:<target>`, so the summary
// reporter can print group × target, and `npm run conformance` selects them all by that prefix.
// The workerd projects run inside the real runtime through @cloudflare/vitest-plugin.
const workerd = (name: string, include: string[], compatibilityDate = '2025-01-01', flags: string[] = []) => ({
  plugins: [
    cloudflareTest({
      miniflare: {
        compatibilityDate,
        compatibilityFlags: ['nodejs_compat', ...flags],
        r2Buckets: ['BUCKET'],
      },
    }),
  ],
  test: { name, include },
});

// The real provider: a remote R2 bucket through a remote binding, when credentials are set.
const remote = ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN', 'EDGE_DOUBLES_R2_BUCKET'].every((v) => process.env[v]);
function remoteR2Project() {
  const dir = join('node_modules', '.cache', 'edge-doubles');
  mkdirSync(dir, { recursive: true });
  const configPath = join(dir, 'wrangler.remote-r2.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      name: 'edge-doubles-conformance',
      compatibility_date: '2025-01-01',
      compatibility_flags: ['nodejs_compat'],
      account_id: process.env.CLOUDFLARE_ACCOUNT_ID,
      r2_buckets: [{ binding: 'BUCKET', bucket_name: process.env.EDGE_DOUBLES_R2_BUCKET, remote: true }],
    }),
  );
  return {
    plugins: [cloudflareTest({ remoteBindings: true, wrangler: { configPath } })],
    test: { name: 'conformance:r2-remote', include: ['conformance/targets/r2-remote.test.ts'] },
  };
}

// Examples import the package by its published name, as users do; here that name is the source.
const packageAlias = {
  'edge-doubles/bucket': new URL('./lib/bucket/index.ts', import.meta.url).pathname,
  'edge-doubles/dns': new URL('./lib/dns/index.ts', import.meta.url).pathname,
  'edge-doubles/node': new URL('./lib/node/index.ts', import.meta.url).pathname,
  'edge-doubles/conformance': new URL('./conformance/index.ts', import.meta.url).pathname,
};

export default defineConfig({
  test: {
    projects: [
      { resolve: { alias: packageAlias }, test: { name: 'spec', include: ['spec/**/*.test.ts', 'examples/**/*.test.ts'] } },
      { test: { name: 'conformance:double', include: ['conformance/targets/double.test.ts'] } },
      workerd('conformance:workerd', ['conformance/targets/workerd.test.ts']),
      // Dates before 2022-10-31 need export_commonjs_default for the test runner's modules; it changes nothing R2 does.
      workerd('conformance:workerd-2022', ['conformance/targets/workerd-2022.test.ts'], '2022-01-01', ['export_commonjs_default']),
      workerd('conformance:double-in-workerd', ['conformance/targets/double-in-workerd.test.ts']),
      // The differential fuzzer (conformance/differential): the double against the real binding on
      // seeded random operation sequences. FUZZ_SEEDS / FUZZ_FIRST / FUZZ_OPS reach the worker as bindings.
      {
        plugins: [
          cloudflareTest({
            miniflare: {
              compatibilityDate: '2025-01-01',
              compatibilityFlags: ['nodejs_compat'],
              r2Buckets: ['BUCKET'],
              bindings: {
                FUZZ_SEEDS: process.env.FUZZ_SEEDS ?? '',
                FUZZ_FIRST: process.env.FUZZ_FIRST ?? '',
                FUZZ_OPS: process.env.FUZZ_OPS ?? '',
              },
            },
          }),
        ],
        test: { name: 'conformance:differential', include: ['conformance/differential/*.test.ts'] },
      },
      remote
        ? remoteR2Project()
        : { test: { name: 'conformance:r2-remote', include: ['conformance/targets/r2-remote-skipped.test.ts'] } },
      { test: { name: 'conformance:dns-double', include: ['conformance/targets/dns-double.test.ts'] } },
      { test: { name: 'conformance:dns-api', include: ['conformance/targets/dns-api.test.ts'] } },
    ],
  },
});
