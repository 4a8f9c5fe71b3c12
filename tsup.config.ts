import { rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { chunking } from './scripts/chunking.js';
import { buildEntries } from './scripts/entries.mjs';

const outDir = 'dist';

// One entry per public subpath of package.json "exports", and the bin (scripts/entries.mjs reads them).
const shared = {
  entry: Object.fromEntries(buildEntries().map((e) => [e.dist, e.source])),
  outDir,
  // No source maps: they were two thirds of the published package, and stack traces name the
  // library's own functions and classes without them.
  sourcemap: false,
  // Whitespace, comments and syntax minified: Node compiles every byte of a file it imports, and
  // compiling was the largest part of importing the root (docs/benchmarks.md, "What importing an
  // entry costs"). Identifiers are kept: class names are behaviour here (`constructor.name`, error
  // names) and stack traces stay readable. The output is ASCII (esbuild escapes the rest), so V8
  // keeps its source as one-byte strings.
  minifyWhitespace: true,
  minifySyntax: true,
  target: 'es2022',
  // The S3 conformance suite loads its clients at run time; they are the user's (optional peers), never bundled.
  external: [
    'vitest',
    '@aws-sdk/client-s3',
    '@aws-sdk/s3-request-presigner',
    '@smithy/fetch-http-handler',
    '@smithy/types',
    'aws4fetch',
  ],
} satisfies Options;

/**
 * Dependencies published as ES modules only. The CommonJS build bundles them: a CommonJS `require`
 * of an ES module fails in Jest's default module system ("Must use import to load ES Module") and
 * in Node before 20.19, where require(esm) is not on. Checked for every dependency with
 * `node --no-experimental-require-module -e "require(...)"`: only @noble/hashes fails; the others
 * (fast-xml-parser, smol-toml, jsonc-parser, sorted-btree, web-streams-polyfill, selfsigned and its
 * @peculiar/x509) ship CommonJS. The ESM build bundles them too, with others (below).
 */
export const esmOnlyDependencies = [/^@noble\/hashes(\/|$)/];

/**
 * Dependencies the ESM build bundles, though they stay dependencies: the small ones a double needs
 * synchronously from its first call (the persistent map's B+ tree, the TOML and JSONC parsers behind
 * `parseWranglerConfig`, hashing where the platform has none). Imported as packages, they cost an
 * import of an entry more than all of the package's own code (a file read, resolved and compiled
 * each, a CommonJS one scanned for its exports first: docs/benchmarks.md, "A suite's wall time").
 * jsonc-parser's ESM build is its `module` field (its `main` is UMD, which does not bundle).
 * fast-xml-parser, dns-packet and selfsigned stay external: they are imported on first use.
 */
export const bundledDependencies = [...esmOnlyDependencies, /^sorted-btree(\/|$)/, /^smol-toml$/, /^jsonc-parser$/];

/**
 * The conformance suites share no code or class with the doubles (a suite is given the double it
 * tests): their ESM is built apart, so that the few modules they have in common (md5, esbuild's
 * helpers) cut none of the doubles' chunks in two (scripts/chunking.ts).
 */
const apart = (e: { source: string }) => e.source.startsWith('conformance/');
const entriesWhere = (keep: (e: { source: string }) => boolean) =>
  Object.fromEntries(
    buildEntries()
      .filter(keep)
      .map((e) => [e.dist, e.source]),
  );

const esmShared = {
  ...shared,
  format: ['esm'],
  noExternal: bundledDependencies,
  esbuildOptions(options) {
    options.mainFields = ['module', 'main'];
  },
} satisfies Options;

/** The JavaScript of each format, without declarations: what the test builds of the package reuse. */
export const esm: Options = {
  ...esmShared,
  entry: entriesWhere((e) => !apart(e)),
  // Which code shares a file, so that an entry loads few (scripts/chunking.ts).
  esbuildPlugins: [chunking()],
};
export const esmConformance: Options = { ...esmShared, entry: entriesWhere(apart) };
/** The ESM as published: every tool that builds the package's ESM builds both. */
export const esmBuilds = [esm, esmConformance];
export const cjs: Options = {
  ...shared,
  format: ['cjs'],
  noExternal: esmOnlyDependencies,
  // A dependency imported on first use is `require`d there: a real import() fails in Jest's
  // default (CommonJS) mode, which has no dynamic import without --experimental-vm-modules.
  esbuildOptions(options) {
    options.supported = { ...options.supported, 'dynamic-import': false };
  },
};

// tsup builds the items of an array at once, and each item's `clean` would race the others'
// output, so the folder is emptied once here, before any of them starts. Declarations are built
// once for both formats (.d.ts and .d.cts) by an item of their own (`declarations`, which the API
// report builds too).
export const declarations: Options = { ...shared, format: ['esm', 'cjs'], dts: { only: true } };
export default defineConfig(() => {
  rmSync(outDir, { recursive: true, force: true });
  return [...esmBuilds, cjs, declarations];
});
