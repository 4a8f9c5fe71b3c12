// The bucket conformance suite against the double under Jest's ESM mode, registered with
// @jest/globals (run by ../jest.test.ts with --testMatch; not one of *.jest.mjs).
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Bucket, ManualClock } from 'edge-doubles';
import { bucketConformance, doubleDifferences, useRunner } from 'edge-doubles/conformance/portable';

useRunner({ describe, it, expect, beforeAll, afterAll, afterEach });

let clock;
bucketConformance({
  name: 'double under Jest (ESM)',
  create: () => new Bucket({ clock: (clock = new ManualClock(Date.now())) }),
  differences: doubleDifferences,
  advanceClock: (ms) => clock.advance(ms),
});
