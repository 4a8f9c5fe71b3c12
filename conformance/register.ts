/**
 * How every suite registers one case: skipped with its reason in the name, expected to fail where
 * the target declares the case's difference (differences are data: each suite's differences.ts),
 * or run.
 */
import { it } from 'vitest';

export interface CaseOptions {
  /** Why the case cannot run on this target; it is then skipped, saying so. */
  skip?: string;
  /** The declared difference this case shows, where a target declares it. */
  difference?: string;
}

export function registerCase(name: string, run: () => Promise<void>, options: CaseOptions, declared: ReadonlySet<string>, timeout?: number): void {
  if (options.skip) it.skip(`${name} (skipped: ${options.skip})`, run);
  else if (options.difference && declared.has(options.difference)) it.fails(`${name} — known difference: ${options.difference}`, run, timeout);
  else it(name, run, timeout);
}
