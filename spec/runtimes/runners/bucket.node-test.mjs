// The bucket conformance suite against the double under `node:test` (Node's runner, and Deno's
// `deno test`, which runs node:test suites), with `expect` from the `expect` package (copied next to
// the built package and run by ../runners.test.ts). RUNTIME names the runtime in the results table.
// README: node-test-runner
import { after, afterEach, before, describe, it } from 'node:test';
import { expect } from 'expect';
import { Bucket, ManualClock } from 'edge-doubles';
import { bucketConformance, doubleDifferences, runtimeDifferences, useRunner } from 'edge-doubles/conformance/portable';

useRunner({ describe, it, expect, beforeAll: before, afterAll: after, afterEach });
// README: end

const deno = typeof globalThis.Deno !== 'undefined';
let clock;
bucketConformance({
  name: `double under node:test (${deno ? 'Deno' : 'Node'})`,
  create: () => new Bucket({ clock: (clock = new ManualClock(Date.now())) }),
  // Bun's and Deno's bodies are default streams: the double accepts every stream there (declared).
  differences: [...doubleDifferences, ...runtimeDifferences()],
  advanceClock: (ms) => clock.advance(ms),
});
