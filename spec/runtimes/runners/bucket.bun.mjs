// The bucket conformance suite against the double under `bun test`, registered with bun:test's own
// describe/it/expect (copied next to the built package and run by ../runners.test.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { Bucket, ManualClock } from 'edge-doubles';
import { bucketConformance, bunDifferences, useRunner } from 'edge-doubles/conformance/portable';

useRunner({ describe, it, expect, beforeAll, afterAll, afterEach });

let clock;
bucketConformance({
  name: 'double under bun test',
  create: () => new Bucket({ clock: (clock = new ManualClock(Date.now())) }),
  differences: bunDifferences,
  advanceClock: (ms) => clock.advance(ms),
});
