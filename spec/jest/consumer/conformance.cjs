// The bucket conformance suite against the double under Jest's default (CommonJS) mode, registered
// with Jest's own describe/it/expect (run by ../jest.test.ts with --testMatch; not one of *.jest.js).
const { Bucket, ManualClock } = require('edge-doubles');
const { bucketConformance, doubleDifferences, useRunner } = require('edge-doubles/conformance/portable');

useRunner({ describe, it, expect, beforeAll, afterAll, afterEach });

let clock;
bucketConformance({
  name: 'double under Jest (CommonJS)',
  create: () => new Bucket({ clock: (clock = new ManualClock(Date.now())) }),
  differences: doubleDifferences,
  advanceClock: (ms) => clock.advance(ms),
});
