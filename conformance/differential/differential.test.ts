import { env } from 'cloudflare:workers';
import { describe, it } from 'vitest';
import { Bucket } from '../../lib/bucket/index.js';
import type { R2BucketLike } from '../../lib/bucket/types.js';
import { clearBucket } from '../targets/clear.js';
import { differences, normalise, show } from './compare.js';
import { describeOp, generate } from './generate.js';
import { abortAll, newSide, run } from './run.js';

// The differential fuzzer: each test is one seed, a random sequence of operations applied to
// workerd's real R2 binding (over the local simulator) and to the double, outcome by outcome.
// FUZZ_SEEDS, FUZZ_FIRST and FUZZ_OPS (passed in as bindings by vitest.config.ts) run more.
const vars = env as unknown as { BUCKET: R2BucketLike; FUZZ_SEEDS?: string; FUZZ_FIRST?: string; FUZZ_OPS?: string };
const count = (v: string | undefined, fallback: number) => (v ? Number(v) : fallback);
const SEEDS = count(vars.FUZZ_SEEDS, 40);
const FIRST = count(vars.FUZZ_FIRST, 1);
const OPS = count(vars.FUZZ_OPS, 60);

async function runSeed(seed: number): Promise<void> {
  const workerd = newSide('workerd', await clearBucket(vars.BUCKET));
  const double = newSide('double', new Bucket());
  const ops = generate(seed, OPS);
  try {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const a = normalise(await run(op, i, workerd), { side: workerd, op });
      const b = normalise(await run(op, i, double), { side: double, op });
      if (show(a) === show(b)) continue;
      throw new Error(
        [
          `divergence: seed ${seed}, op ${i}: ${describeOp(op)}`,
          ...differences(a, b).map((d) => `  ${d}`),
          `workerd: ${show(a)}`,
          `double:  ${show(b)}`,
          `reproduce: FUZZ_FIRST=${seed} FUZZ_SEEDS=1 FUZZ_OPS=${OPS} npx vitest run --project conformance:differential`,
          'ops so far:',
          ...ops.slice(0, i + 1).map((o, j) => `  ${j}: ${describeOp(o)}`),
        ].join('\n'),
      );
    }
  } finally {
    await abortAll(workerd);
  }
}

describe('differential conformance on double vs workerd', () => {
  describe('random operation sequences', () => {
    for (let seed = FIRST; seed < FIRST + SEEDS; seed++) it(`seed ${seed}`, () => runSeed(seed), 60_000);
  });
});
