import { describe, it, skip, fails } from '../runner.js';
import type { R2BucketLike } from '../../lib/bucket/types.js';
import type { BucketDifferenceId } from './differences.js';

/** Something the bucket conformance suite can run against. */
export interface BucketTarget {
  /** Shown in test names and the summary table. */
  name: string;
  /**
   * Returns an empty bucket for one test. Called once per test; a real binding clears itself here.
   * The suite uses only the R2Bucket interface of what it gets.
   */
  create(): R2BucketLike | Promise<R2BucketLike>;
  /** The known differences this target shows (see differences.ts). */
  differences?: readonly BucketDifferenceId[];
  /** The bucket's compatibility date; the `include` rules depend on it. Default '2025-01-01'. */
  compatibilityDate?: string;
  compatibilityFlags?: readonly string[];
  /** Run only these groups (by name); default all. */
  groups?: readonly string[];
  /**
   * Moves the target's clock forward. Only doubles can; tests that need it (multipart expiry) are
   * skipped elsewhere, and say why in their name.
   */
  advanceClock?(ms: number): void | Promise<void>;
}

/** Options of one bucket conformance test: what it needs of a target, and the differences it may show. */
export interface TestOptions {
  /** This test meets a declared difference (differences.ts), or one of several (each shown by other targets). */
  difference?: BucketDifferenceId | readonly BucketDifferenceId[];
  /** Vitest timeout for this test, for the large-object cases. */
  timeout?: number;
  /** Needs target.advanceClock; skipped (with the reason in its name) where absent. */
  needsClock?: boolean;
}

/** What a group's tests see. */
export interface GroupContext {
  target: BucketTarget;
  /** A fresh empty bucket from the target. */
  bucket(): Promise<R2BucketLike>;
  /** `include` is honoured (compatibility date ≥ 2022-08-04 or the flag). */
  honorsInclude: boolean;
  /** Registers one test, applying the target's declared differences. */
  test(name: string, fn: () => Promise<void> | void, options?: TestOptions): void;
}

/** A named group of bucket conformance tests (select groups with the target's `groups`). */
export interface Group {
  name: string;
  /** Registers the group's tests. */
  define(t: GroupContext): void;
}

export const defineGroup = (name: string, define: (t: GroupContext) => void): Group => ({ name, define });

const INCLUDE_DATE = '2022-08-04';
const INCLUDE_FLAGS = ['r2_list_honor_include', 'store_list_honor_include'];

export function runGroups(groups: readonly Group[], target: BucketTarget): void {
  const date = target.compatibilityDate ?? '2025-01-01';
  const honorsInclude =
    date >= INCLUDE_DATE || (target.compatibilityFlags ?? []).some((f) => INCLUDE_FLAGS.includes(f));
  const shown = new Set(target.differences ?? []);
  const met = (d: TestOptions['difference']) => [d ?? []].flat().find((id) => shown.has(id));
  const ctx: GroupContext = {
    target,
    honorsInclude,
    bucket: async () => target.create(),
    test(name, fn, options = {}) {
      const timeout = options.timeout;
      if (options.needsClock && !target.advanceClock) {
        skip(`${name} (skipped: needs a clock the test can move; only the doubles have one)`, fn);
      } else if (met(options.difference)) {
        fails(`${name} — known difference: ${met(options.difference)}`, fn, timeout);
      } else {
        it(name, fn, timeout);
      }
    },
  };
  describe(`bucket conformance on ${target.name}`, () => {
    for (const g of groups) {
      if (target.groups && !target.groups.includes(g.name)) continue;
      describe(g.name, () => g.define(ctx));
    }
  });
}
