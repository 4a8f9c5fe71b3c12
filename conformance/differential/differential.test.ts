import { env } from 'cloudflare:workers';
import { afterAll, describe, it } from 'vitest';
import { Bucket } from '../../lib/bucket.js';
import type { R2BucketLike } from '../../lib/bucket/types.js';
import { clearBucket } from '../targets/clear.js';
import { differences, normalise, show } from './compare.js';
import { describeOp, generate, MIX_NAMES, type MixName, type Op } from './generate.js';
import { CONSTRUCTOR_PROBE, PENDING } from './pending.js';
import { abortAll, newSide, run, type Outcome, type Side } from './run.js';

// The differential fuzzer: each test is one seed of one operation mix, a random sequence of
// operations applied to workerd's real R2 binding (over the local simulator) and to the double, at
// the compatibility date of this Vitest project, outcome by outcome. vitest.config.ts passes the
// project's date and flags, and FUZZ_SEEDS / FUZZ_FIRST / FUZZ_OPS / FUZZ_MIXES, as bindings.
const vars = env as unknown as {
  BUCKET: R2BucketLike;
  FUZZ_PROJECT: string;
  FUZZ_DATE: string;
  FUZZ_FLAGS: string;
  FUZZ_SEEDS?: string;
  FUZZ_FIRST?: string;
  FUZZ_OPS?: string;
  FUZZ_MIXES?: string;
};
const count = (v: string | undefined, fallback: number) => (v ? Number(v) : fallback);
/** Seeds per mix in `npm test` (all three dates' projects together stay well under a minute). */
const DEFAULT_SEEDS: Record<MixName, number> = { default: 10, multipart: 8, bad: 8 };
const FIRST = count(vars.FUZZ_FIRST, 1);
const OPS = count(vars.FUZZ_OPS, 60);
const MIXES = vars.FUZZ_MIXES ? (vars.FUZZ_MIXES.split(',') as MixName[]) : MIX_NAMES;
for (const m of MIXES)
  if (!MIX_NAMES.includes(m)) throw new Error(`FUZZ_MIXES: unknown mix ${m} (mixes: ${MIX_NAMES.join(', ')})`);
const DATE = vars.FUZZ_DATE;
const FLAGS = vars.FUZZ_FLAGS ? vars.FUZZ_FLAGS.split(',') : [];

/** What ran, for the summary line: ops per mix, and the pending divergences met. */
const ran = new Map<MixName, { seeds: number; ops: number }>();
const pendingHits = new Map<string, number>();

const PROBE_OUTCOME: Outcome = { how: 'returned' };
const failed = (o: Outcome) => o.how === 'threw' || o.how === 'rejected';
const READ_ONLY = ['get', 'head', 'list'];

/**
 * After a pending divergence: whether the seed can go on with both buckets still alike. A read, or
 * an op that failed on both sides, changed nothing (a list's cursors are forgotten: later lists that
 * would resume from them get none on either side); a put that stored on one side only is undone by
 * deleting its key on both. Anything else stops the seed.
 */
async function resync(op: Op, index: number, a: Outcome, b: Outcome, sides: Side[]): Promise<boolean> {
  // A list's cursor carries its page: a later list resuming from it would echo this divergence.
  if (op.method === 'list') for (const side of sides) side.cursors.delete(index);
  if (READ_ONLY.includes(op.method) || (failed(a) && failed(b))) return true;
  if (op.method !== 'put' || failed(a) === failed(b)) return false;
  const stored = (failed(a) ? b : a).value as { key?: unknown } | undefined;
  if (typeof stored?.key !== 'string') return false;
  for (const side of sides) await side.bucket.delete(stored.key);
  return true;
}

async function runSeed(mix: MixName, seed: number): Promise<void> {
  const workerd = newSide('workerd', await clearBucket(vars.BUCKET));
  const double = newSide('double', new Bucket({ compatibilityDate: DATE, compatibilityFlags: FLAGS }));
  const ops = generate(seed, OPS, mix);
  // The binding's own class name (public code finds R2 bindings by it); not an op: it changes nothing.
  const names = [workerd, double].map((side) => side.bucket.constructor.name);
  if (names[0] !== names[1]) {
    const pending = PENDING.find((p) =>
      p.matches(CONSTRUCTOR_PROBE, {
        date: DATE,
        ops: [CONSTRUCTOR_PROBE],
        index: 0,
        workerd: PROBE_OUTCOME,
        double: PROBE_OUTCOME,
      }),
    );
    if (!pending)
      throw new Error(`divergence: the bucket's constructor.name is ${names[0]} on workerd, ${names[1]} on the double`);
    pendingHits.set(pending.id, (pendingHits.get(pending.id) ?? 0) + 1);
  }
  const tally = ran.get(mix) ?? { seeds: 0, ops: 0 };
  ran.set(mix, tally);
  tally.seeds++;
  try {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const a = normalise(await run(op, i, workerd), { side: workerd, op });
      const b = normalise(await run(op, i, double), { side: double, op });
      tally.ops++;
      if (show(a) === show(b)) continue;
      const pending = PENDING.find((p) => p.matches(op, { date: DATE, ops, index: i, workerd: a, double: b }));
      if (pending) {
        pendingHits.set(pending.id, (pendingHits.get(pending.id) ?? 0) + 1);
        if (await resync(op, i, a, b, [workerd, double])) continue;
        return; // the two buckets may no longer agree: the rest of the seed would only echo this one
      }
      throw new Error(
        [
          `divergence: ${mix} seed ${seed}, op ${i} (compatibility date ${DATE}): ${describeOp(op)}`,
          ...differences(a, b).map((d) => `  ${d}`),
          `workerd: ${show(a)}`,
          `double:  ${show(b)}`,
          `reproduce: FUZZ_MIXES=${mix} FUZZ_FIRST=${seed} FUZZ_SEEDS=1 FUZZ_OPS=${OPS} npx vitest run --project ${vars.FUZZ_PROJECT}`,
          'ops so far:',
          ...ops.slice(0, i + 1).map((o, j) => `  ${j}: ${describeOp(o)}`),
        ].join('\n'),
      );
    }
  } finally {
    await abortAll(workerd);
  }
}

describe(`differential conformance on double vs workerd (compatibility date ${DATE})`, () => {
  for (const mix of MIXES) {
    describe(`${mix} mix`, () => {
      const seeds = count(vars.FUZZ_SEEDS, DEFAULT_SEEDS[mix]);
      for (let seed = FIRST; seed < FIRST + seeds; seed++) it(`seed ${seed}`, () => runSeed(mix, seed), 120_000);
    });
  }
  afterAll(() => {
    const mixes = [...ran].map(([m, t]) => `${m} ${t.ops} ops / ${t.seeds} seeds`).join(', ');
    const pending = [...pendingHits].map(([id, n]) => `${id} ×${n}`).join(', ') || 'none';
    console.log(`differential ${vars.FUZZ_PROJECT} (${DATE}): ${mixes}; pending divergences met: ${pending}`);
  });
});
