/**
 * Property-based fuzzing of the DNS double: each test is one seed, a random sequence of HTTP
 * requests (valid and invalid) through `api.fetch`, with envelope, schema, state, invariant and
 * round-trip properties checked after every request (spec/dns/fuzz/run.ts). `FUZZ_SEEDS=N` runs
 * N seeds, `FUZZ_FROM=S` starts at seed S, `FUZZ_STEPS=K` sets the requests per seed; a failure
 * prints its seed, step, request and response, and `FUZZ_FROM=<seed> FUZZ_SEEDS=1` replays it.
 */
import { afterAll, describe, it } from 'vitest';
import { fuzzSeed, fuzzStats } from './fuzz/run.js';

const seeds = Number(process.env.FUZZ_SEEDS ?? 30);
const from = Number(process.env.FUZZ_FROM ?? 1);
const steps = Number(process.env.FUZZ_STEPS ?? 80);

describe('fuzz: random request sequences keep every property', () => {
  afterAll(() => {
    if (!process.env.FUZZ_STATS) return;
    const rows = [...fuzzStats].sort(([a], [b]) => (a < b ? -1 : 1));
    console.log(rows.map(([k, n]) => `${String(n).padStart(8)}  ${k}`).join('\n'));
  });

  for (let seed = from; seed < from + seeds; seed++) {
    it(`seed ${seed}`, async () => {
      await fuzzSeed({ seed, steps });
    });
  }
});
