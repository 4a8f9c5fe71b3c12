/**
 * Reading the results table a conformance suite prints under a runner other than Vitest
 * (conformance/runner.ts), for the tests that run it in a child process (Jest, bun test, node:test,
 * deno test).
 */
import { expect } from 'vitest';

/** The table's total row (passed, failed, known differences, skipped); node:test prefixes lines with '#'. */
function totals(out: string): number[] | undefined {
  return /^[#\s]*total\s+\|\s*(\d+) \/ (\d+) \/ (\d+) \/ (\d+)\s*$/m.exec(out)?.slice(1).map(Number);
}

/**
 * The suite ran whole (over 700 cases passed) and nothing failed beyond the declared differences,
 * of which at least `minimumKnown` failed as declared; the runner exited 0.
 */
export function expectSuitePassed({ code, out }: { code: number; out: string }, minimumKnown: number): void {
  const [passed, failed, known] = totals(out) ?? [];
  expect(failed, out.slice(-4000)).toBe(0);
  expect(known).toBeGreaterThanOrEqual(minimumKnown);
  expect(passed).toBeGreaterThan(700);
  expect(code, out.slice(-4000)).toBe(0);
}
