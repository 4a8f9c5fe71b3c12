/**
 * How every suite registers one case: skipped with its reason in the name, expected to fail where
 * the target declares the case's difference (differences are data: each suite's differences.ts),
 * or run.
 */
import { afterEach, describe, it, skip, fails } from './runner.js';

export interface CaseOptions {
  /** Why the case cannot run on this target; it is then skipped, saying so. */
  skip?: string;
  /** The declared difference this case shows, where a target declares it. */
  difference?: string;
}

export function registerCase(
  name: string,
  run: () => Promise<void>,
  options: CaseOptions,
  declared: ReadonlySet<string>,
  timeout?: number,
): void {
  if (options.skip) skip(`${name} (skipped: ${options.skip})`, run);
  else if (options.difference && declared.has(options.difference))
    fails(`${name} — known difference: ${options.difference}`, run, timeout);
  else it(name, run, timeout);
}

/** A case that runs with a fresh client of its suite, cleaned up after the case whatever happened. */
export type ClientTest<C> = (name: string, fn: (client: C) => Promise<void>, options?: CaseOptions) => void;

/**
 * The API suites' way to run their groups (conformance/dns, dns-resolve, r2-api): each case gets a
 * new client, and after each case every client made is cleaned up, so a failing case on a real
 * account leaves nothing behind. `only` names the groups to run (all when absent).
 */
export function runClientGroups<C extends { cleanup(): Promise<void> }, Ctx>(
  title: string,
  groups: readonly { name: string; define(ctx: Ctx): void }[],
  setup: {
    differences?: readonly string[];
    timeout?: number;
    only?: readonly string[];
    client: () => C;
    context: (test: ClientTest<C>) => Ctx;
  },
): void {
  const declared = new Set<string>(setup.differences ?? []);
  const clients: C[] = [];
  const ctx = setup.context((name, fn, options = {}) => {
    const run = async () => {
      const c = setup.client();
      clients.push(c);
      await fn(c);
    };
    registerCase(name, run, options, declared, setup.timeout);
  });
  describe(title, () => {
    afterEach(async () => {
      while (clients.length) await clients.pop()!.cleanup();
    }, setup.timeout);
    for (const g of groups) {
      if (setup.only && !setup.only.includes(g.name)) continue;
      describe(g.name, () => g.define(ctx));
    }
  });
}
