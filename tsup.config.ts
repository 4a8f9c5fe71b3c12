import { defineConfig } from 'tsup';

// One entry per public subpath of package.json "exports"; the CLI is the package's bin.
export default defineConfig({
  entry: {
    index: 'lib/index.ts',
    bucket: 'lib/bucket/index.ts',
    dns: 'lib/dns/index.ts',
    conformance: 'conformance/index.ts',
    node: 'lib/node/index.ts',
    cli: 'lib/node/cli.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  external: ['vitest'],
});
