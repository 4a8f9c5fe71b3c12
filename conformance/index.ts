/**
 * edge-doubles/conformance: the conformance suites, written against the public interfaces only.
 * Call one inside a Vitest test file with a target; it registers the tests. For another runner
 * (Jest, `bun test`, `node:test`, Deno), see edge-doubles/conformance/portable.
 */
// Vitest is the runner unless useRunner names another (its module sets that as it loads).
export { vitestRunner } from './vitest-runner.js';

export * from './portable.js';
