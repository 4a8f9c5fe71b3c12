// The bucket conformance suite against the double under `bun test`, registered with bun:test's own
// describe/it/expect (copied next to the built package and run by ../runners.test.ts).
// README: bun-test-runner
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { Bucket, ManualClock } from 'edge-doubles';
import { bucketConformance, doubleDifferences, runtimeDifferences, useRunner } from 'edge-doubles/conformance/portable';

useRunner({ describe, it, expect, beforeAll, afterAll, afterEach });
// README: end

let clock;
bucketConformance({
  name: 'double under bun test',
  create: () => new Bucket({ clock: (clock = new ManualClock(Date.now())) }),
  // Bun's and Deno's bodies are default streams: the double accepts every stream there (declared).
  differences: [...doubleDifferences, ...runtimeDifferences()],
  advanceClock: (ms) => clock.advance(ms),
});
