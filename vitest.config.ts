import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { builtPackageAlias, chromiumPath, hasChromium } from './conformance/browser/paths.js';
import { entries } from './scripts/entries.mjs';

// Every conformance target is a Vitest project named `conformance:<target>`, so the summary
// reporter can print group × target, and `npm run conformance` selects them all by that prefix.
// The workerd projects run inside the real runtime through @cloudflare/vitest-plugin.

/** The runtime every workerd project runs in: R2 binding BUCKET, nodejs_compat and `flags`, at this date. */
const inWorkerd = (compatibilityDate: string, flags: string[], bindings?: Record<string, string>) =>
  cloudflareTest({
    miniflare: {
      compatibilityDate,
      compatibilityFlags: ['nodejs_compat', ...flags],
      r2Buckets: ['BUCKET'],
      ...(bindings ? { bindings } : {}),
    },
  });

const workerd = (name: string, include: string[], compatibilityDate = '2025-01-01', flags: string[] = []) => ({
  plugins: [inWorkerd(compatibilityDate, flags)],
  test: { name, include },
});

/** A differential fuzzer project: workerd and the double both at this compatibility date and flags. */
const differential = (name: string, compatibilityDate: string, flags: string[] = []) => ({
  plugins: [
    inWorkerd(compatibilityDate, flags, {
      FUZZ_PROJECT: name,
      FUZZ_DATE: compatibilityDate,
      FUZZ_FLAGS: ['nodejs_compat', ...flags].join(','),
      FUZZ_SEEDS: process.env.FUZZ_SEEDS ?? '',
      FUZZ_FIRST: process.env.FUZZ_FIRST ?? '',
      FUZZ_OPS: process.env.FUZZ_OPS ?? '',
      FUZZ_MIXES: process.env.FUZZ_MIXES ?? '',
    }),
  ],
  test: { name, include: ['conformance/differential/*.test.ts'] },
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

/**
 * The tests of spec/ that start a server, a process (a real client, workerd, another runtime) or a
 * browser, or keep state on disk: the integration layer. Every other spec file is a unit test.
 */
const INTEGRATION = [
  'spec/node/**/*.test.ts',
  'spec/dns/wire/**/*.test.ts',
  'spec/dns/clients/**/*.test.ts',
  'spec/s3/clients/**/*.test.ts',
  'spec/r2-api/wrangler-*.test.ts',
  'spec/jest/**/*.test.ts',
  'spec/runtimes/**/*.test.ts',
  'spec/architecture/assemblies.test.ts',
  'spec/bucket/cursor-workerd.test.ts',
  'spec/dns/base-path.test.ts',
  'spec/dns/bind-roundtrip.test.ts',
  'spec/dns/server.test.ts',
  'spec/dns/workerd.test.ts',
  'spec/dns/zone-admin.test.ts',
  'spec/env/wrangler-parity.test.ts',
  'spec/queue/http-pull.test.ts',
  'spec/queue/wrangler-consumers.test.ts',
  'spec/r2-api/s3-view.test.ts',
  'spec/r2-api/sippy.test.ts',
  'spec/r2-public/server.test.ts',
  'spec/s3/server.test.ts',
  'spec/s3/workerd.test.ts',
  'spec/support/call-log.test.ts',
  'spec/support/node-test.test.ts',
];

/** The unit tests that replace a module with `vi.mock`, found by reading them. */
const MOCKING = (function mocking(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return mocking(path);
    return e.name.endsWith('.test.ts') && readFileSync(path, 'utf8').includes('vi.mock(') ? [path] : [];
  });
})('spec');

// Examples import the package by its published name, as users do; here that name is the source.
const packageAlias = Object.fromEntries(
  // Longest first: a bare 'edge-doubles' also prefixes the subpaths, and the first match wins.
  entries()
    .sort((a, b) => b.specifier.length - a.specifier.length)
    .map((e) => [e.specifier, new URL(`./${e.source}`, import.meta.url).pathname]),
);

// examples/worker-in-workerd runs its tests inside workerd, with the plugin reading its wrangler.toml.
// The setup-file variant is a project of its own: a setup file applies to every file of a project.
const workerdExample = (
  name: string,
  include: string,
  setupFiles: string[] = [],
  configPath = './examples/worker-in-workerd/wrangler.toml',
) => ({
  resolve: { alias: packageAlias },
  plugins: [cloudflareTest({ wrangler: { configPath } })],
  test: { name, include: [include], setupFiles },
});

// The doubles in real Chromium (Debian's package), loaded from the package as built: the global
// setup builds it once per run, and the package's names point at that build. Without the browser
// the project is one skipped test that says what to install.
function browserProject() {
  if (!hasChromium) {
    return { test: { name: 'conformance:browser', include: ['conformance/targets/browser-skipped.test.ts'] } };
  }
  return {
    resolve: { alias: builtPackageAlias() },
    // Imported only where a runtime lacks byte streams (lib/streams.ts): named here, Vite would
    // otherwise find it mid-run and reload the page.
    optimizeDeps: { include: ['web-streams-polyfill'] },
    test: {
      name: 'conformance:browser',
      include: ['conformance/targets/browser.test.ts'],
      globalSetup: ['./conformance/browser/build-package.ts'],
      browser: {
        enabled: true,
        headless: true,
        provider: playwright({
          launchOptions: {
            executablePath: chromiumPath,
            args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
          },
        }),
        instances: [{ browser: 'chromium' as const }],
        // The suites' expected failures (known differences) would each leave a screenshot behind.
        screenshotFailures: false,
      },
    },
  };
}

/**
 * Every project loads Vitest as the conformance suites' runner (conformance/vitest-runner.ts): the
 * test files import the suites from source, not through edge-doubles/conformance, which does that.
 */
const withSuiteRunner = <P extends { test: object }>(project: P): P => {
  const own = (project.test as { setupFiles?: string[] }).setupFiles ?? [];
  return { ...project, test: { ...project.test, setupFiles: ['./conformance/vitest-runner.ts', ...own] } };
};

export default defineConfig({
  test: {
    projects: [
      // The doubles' own tests in two layers (CONTRIBUTING.md, "Test layers"): `unit` starts no
      // server, process or browser (its setup file refuses them) and runs in seconds; `integration`
      // holds the tests that do.
      {
        resolve: { alias: packageAlias },
        test: {
          name: 'unit',
          include: ['spec/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...INTEGRATION, ...MOCKING],
          setupFiles: ['./spec/helpers/unit-guard.ts'],
          // One module graph per worker, not per file: lib/ is transformed and loaded once, which is
          // most of the layer's time. The files share nothing else (each makes its own doubles).
          isolate: false,
        },
      },
      // A file that replaces a module (vi.mock) needs lib/ loaded afresh around the mock.
      {
        resolve: { alias: packageAlias },
        test: {
          name: 'unit:isolated',
          include: MOCKING,
          exclude: [...configDefaults.exclude, ...INTEGRATION],
          setupFiles: ['./spec/helpers/unit-guard.ts'],
        },
      },
      {
        resolve: { alias: packageAlias },
        test: { name: 'integration', include: INTEGRATION },
      },
      // The examples register the matchers in a setup file, as a user's project does: a project of
      // their own, so spec files keep running without them. (worker-in-workerd has its projects below.)
      {
        resolve: { alias: packageAlias },
        test: {
          name: 'examples',
          include: ['examples/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'examples/worker-in-workerd/**'],
          setupFiles: ['./examples/worker/setup.ts'],
        },
      },
      workerdExample('examples:workerd', 'examples/worker-in-workerd/*.test.ts'),
      workerdExample('examples:workerd-setup-file', 'examples/worker-in-workerd/setup-file/*.test.ts', [
        './examples/worker-in-workerd/setup-file/setup.ts',
      ]),
      // A Worker that sends to a queue while serving a request, its own project for its own wrangler.toml.
      workerdExample(
        'examples:workerd-queue',
        'examples/worker-in-workerd/queue/*.test.ts',
        [],
        './examples/worker-in-workerd/queue/wrangler.toml',
      ),
      { test: { name: 'conformance:double', include: ['conformance/targets/double.test.ts'] } },
      // The double on IndexedDbStorage, with fake-indexeddb (a fresh database per test).
      { test: { name: 'conformance:double-indexeddb', include: ['conformance/targets/double-indexeddb.test.ts'] } },
      // The double on StoreStorage (what `--persist` keeps buckets in) over the in-memory Store, and
      // over SQLite where the Node has node:sqlite (22.13 and later).
      { test: { name: 'conformance:double-store', include: ['conformance/targets/double-store.test.ts'] } },
      { test: { name: 'conformance:double-sqlite', include: ['conformance/targets/double-sqlite.test.ts'] } },
      workerd('conformance:workerd', ['conformance/targets/workerd.test.ts']),
      // Dates before 2022-10-31 need export_commonjs_default for the test runner's modules; it changes nothing R2 does.
      workerd('conformance:workerd-2022', ['conformance/targets/workerd-2022.test.ts'], '2022-01-01', [
        'export_commonjs_default',
      ]),
      workerd('conformance:double-in-workerd', ['conformance/targets/double-in-workerd.test.ts']),
      // The differential fuzzer (conformance/differential): the double against the real binding on
      // seeded random operation sequences, at today's date and at each compatibility boundary the double
      // models (2022-08-04 list include, 2022-10-31 async throws). FUZZ_SEEDS / FUZZ_FIRST / FUZZ_OPS /
      // FUZZ_MIXES reach the worker as bindings.
      differential('conformance:differential', '2025-01-01'),
      // Before 2022-11-30 JS code may not construct streams without streams_enable_constructors, and the
      // double is JS code running in the same worker: the flag lets it build its bodies (R2 ignores it).
      differential('conformance:differential-2022-08', '2022-08-04', [
        'export_commonjs_default',
        'streams_enable_constructors',
      ]),
      differential('conformance:differential-2022', '2022-01-01', [
        'export_commonjs_default',
        'streams_enable_constructors',
      ]),
      remote
        ? remoteR2Project()
        : { test: { name: 'conformance:r2-remote', include: ['conformance/targets/r2-remote-skipped.test.ts'] } },
      { test: { name: 'conformance:dns-double', include: ['conformance/targets/dns-double.test.ts'] } },
      { test: { name: 'conformance:s3-double', include: ['conformance/targets/s3-double.test.ts'] } },
      {
        test: { name: 'conformance:s3-double-indexeddb', include: ['conformance/targets/s3-double-indexeddb.test.ts'] },
      },
      { test: { name: 'conformance:s3-double-store', include: ['conformance/targets/s3-double-store.test.ts'] } },
      { test: { name: 'conformance:s3-r2', include: ['conformance/targets/s3-r2.test.ts'] } },
      {
        test: {
          name: 'conformance:s3-miniflare',
          include: ['conformance/targets/s3-miniflare.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'conformance:dns-api', include: ['conformance/targets/dns-api.test.ts'] } },
      { test: { name: 'conformance:dns-resolve-double', include: ['conformance/targets/dns-resolve-double.test.ts'] } },
      { test: { name: 'conformance:dns-resolve-api', include: ['conformance/targets/dns-resolve-api.test.ts'] } },
      { test: { name: 'conformance:r2-api-double', include: ['conformance/targets/r2-api-double.test.ts'] } },
      { test: { name: 'conformance:r2-api', include: ['conformance/targets/r2-api.test.ts'] } },
      { test: { name: 'conformance:dns-resolve-wire', include: ['conformance/targets/dns-resolve-wire.test.ts'] } },
      { test: { name: 'conformance:queue-double', include: ['conformance/targets/queue-double.test.ts'] } },
      {
        test: {
          name: 'conformance:queue-miniflare',
          include: ['conformance/targets/queue-miniflare.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      browserProject(),
      // The doubles under Vitest's other environments; each file names its own (a docblock), as a
      // user's test file would. Node's is conformance:double; workerd's is conformance:double-in-workerd.
      // Their multipart tests hash 10 MiB in a sandboxed realm (edge-runtime: no node:crypto, so
      // @noble/hashes): 1.5–7.5 s each on 2 shared cores, past the default 5 s under load.
      {
        test: { name: 'conformance:environments', include: ['conformance/targets/env-*.test.ts'], testTimeout: 30_000 },
      },
    ].map(withSuiteRunner),
  },
});
