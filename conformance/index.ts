/**
 * edge-doubles/conformance: the conformance suites, written against the public interfaces only.
 * Call one inside a Vitest test file with a target; it registers the tests.
 */
export * from './bucket/index.js';
export * from './dns/index.js';
export * from './dns-resolve/index.js';
export * from './s3/index.js';
export * from './r2-api/index.js';
export * from './queue/index.js';
