import { defineConfig } from 'tsup';

// One entry per public subpath of package.json "exports"; the CLI is the package's bin.
// No source maps: they were two thirds of the published package, and the output is readable,
// unminified ESM and CJS whose stack traces already name the library's own functions.
export default defineConfig({
  entry: {
    index: 'lib/index.ts',
    bucket: 'lib/bucket/index.ts',
    dns: 'lib/dns/index.ts',
    s3: 'lib/s3/index.ts',
    conformance: 'conformance/index.ts',
    node: 'lib/node/index.ts',
    vitest: 'lib/vitest.ts',
    cli: 'lib/node/cli.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'es2022',
  // The S3 conformance suite loads its clients at run time; they are the user's (optional peers), never bundled.
  external: ['vitest', '@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner', '@smithy/fetch-http-handler', '@smithy/types', 'aws4fetch'],
});
