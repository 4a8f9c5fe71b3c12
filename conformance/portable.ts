/**
 * edge-doubles/conformance/portable: the conformance suites without Vitest. Name your runner first,
 * then register a suite as under Vitest:
 *
 *   useRunner({ describe, it, expect, beforeAll, afterAll, afterEach }); // Jest, bun test
 *   bucketConformance({ name: 'my bucket', create: () => new MyBucket() });
 *
 * Under `node:test` (Node, Deno): `beforeAll: before, afterAll: after`, and `expect` from the
 * `expect` package. Each suite prints its results table when it ends.
 */
export * from './bucket/index.js';
export * from './dns/index.js';
export * from './dns-resolve/index.js';
export * from './s3/index.js';
export * from './r2-api/index.js';
export * from './queue/index.js';
export { useRunner, type TestRunner } from './runner.js';
