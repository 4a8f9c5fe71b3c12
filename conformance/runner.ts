/**
 * The test runner the conformance suites register their cases with. The suites are written
 * against `describe`, `it`, `expect` and three hooks, and call them through this module, so any
 * runner with those can run them: Vitest (the default, set by `edge-doubles/conformance`), Jest,
 * `bun test`, `node:test` with the `expect` package, Deno's `node:test` (see `useRunner`).
 *
 * Under a runner other than Vitest the cases record their own outcomes (Vitest's are read by
 * conformance/summary-reporter.ts), and each suite prints the same results table when it ends.
 */
import type { ExpectStatic } from 'vitest';
import { formatResults, type ResultCell, type SuiteResults } from './results-table.js';

type Hook = (fn: () => unknown, timeout?: number) => void;
type Case = (name: string, fn: () => unknown, timeout?: number) => void;

/** What a runner lends the suites. */
export interface TestRunner {
  /** Groups the tests `fn` registers under `name`. */
  describe(name: string, fn: () => void): void;
  it: Case;
  /** The runner's `expect` (Vitest's, Jest's, bun:test's, or the `expect` package's). */
  expect: unknown;
  beforeAll: Hook;
  afterAll: Hook;
  afterEach: Hook;
  /** Registers a skipped case; where absent, `it.skip`. */
  skip?: Case;
  /**
   * Registers a case expected to fail (a declared difference); where absent, the case runs and
   * passes only when it throws.
   */
  fails?: Case;
  /** Whether `expect` takes a message as its second argument, as Vitest's does (default false: it is dropped). */
  expectTakesMessage?: boolean;
  /** Whether the cases record their outcomes and each suite prints the results table (default true). */
  printsResults?: boolean;
}

let chosen: TestRunner | undefined;
let fallback: TestRunner | undefined;

/**
 * Registers the suites with this runner from now on. For example, under `node:test`:
 * `useRunner({ describe, it, expect, beforeAll: before, afterAll: after, afterEach })`, with
 * `expect` from the `expect` package; under Jest or `bun test`, their own globals of those names.
 */
export function useRunner(runner: TestRunner): void {
  chosen = runner;
}

/** The runner `edge-doubles/conformance` installs: Vitest's, unless `useRunner` named another. */
export function setDefaultRunner(runner: TestRunner): void {
  fallback = runner;
}

function current(): TestRunner {
  const r = chosen ?? fallback;
  if (!r) {
    throw new Error(
      'edge-doubles conformance: no test runner. Import the suites from edge-doubles/conformance under Vitest, ' +
        'or call useRunner({ describe, it, expect, beforeAll, afterAll, afterEach }) from edge-doubles/conformance/portable first.',
    );
  }
  return r;
}

/** The runner's expect, looked up when a case runs. */
export const expect: ExpectStatic = new Proxy(function () {} as unknown as ExpectStatic, {
  apply: (_target, _this, args: unknown[]) => {
    const r = current();
    return (r.expect as (...a: unknown[]) => unknown)(...(r.expectTakesMessage ? args : args.slice(0, 1)));
  },
  get: (_target, property) => (current().expect as Record<PropertyKey, unknown>)[property],
});

// Under a recording runner, the describe names open now, outermost first, while a suite registers.
// Some runners (bun test) call a describe's callback later, not inside the call: each callback
// restores the path its describe was called at.
let path: readonly string[] = [];
const TOP = /^(\S+) conformance on (.+)$/;
const tables = new Map<string, SuiteResults>();

function recording(): boolean {
  return current().printsResults !== false;
}

export function describe(name: string, fn: () => void): void {
  const r = current();
  if (!recording()) return r.describe(name, fn);
  const here = [...path, name];
  const top = here.length === 1 ? TOP.exec(name) : null;
  r.describe(name, () => {
    const outer = path;
    path = here;
    try {
      if (top) r.afterAll(() => printTable(top[1]!));
      fn();
    } finally {
      path = outer;
    }
  });
}

export const beforeAll: Hook = (fn, timeout) => current().beforeAll(fn, timeout);
export const afterAll: Hook = (fn, timeout) => current().afterAll(fn, timeout);
export const afterEach: Hook = (fn, timeout) => current().afterEach(fn, timeout);

type Outcome = keyof ResultCell;

/** The table cell of the case being registered (suite, target, group from the open describes). */
function cellHere(): ResultCell | undefined {
  const top = path[0] === undefined ? null : TOP.exec(path[0]);
  if (!top) return undefined;
  const [, suite, target] = top;
  let results = tables.get(suite!);
  if (!results) tables.set(suite!, (results = { groups: new Map(), targets: new Set() }));
  results.targets.add(target!);
  const group = path[1] ?? '(top level)';
  let cells = results.groups.get(group);
  if (!cells) results.groups.set(group, (cells = new Map()));
  let cell = cells.get(target!);
  if (!cell) cells.set(target!, (cell = { passed: 0, failed: 0, known: 0, skipped: 0 }));
  return cell;
}

function printTable(suite: string): void {
  const results = tables.get(suite);
  if (results) console.log(formatResults(new Map([[suite, results]])).join('\n'));
}

/** A case that runs (and records its outcome under a recording runner). */
export function it(name: string, fn: () => unknown, timeout?: number): void {
  const r = current();
  if (!recording()) return r.it(name, fn, timeout);
  const cell = cellHere();
  r.it(
    name,
    async () => {
      let outcome: Outcome = 'failed';
      try {
        await fn();
        outcome = 'passed';
      } finally {
        if (cell) cell[outcome]++;
      }
    },
    timeout,
  );
}

/** A skipped case; its name says why. */
export function skip(name: string, fn: () => unknown = () => {}): void {
  const r = current();
  if (recording()) {
    const cell = cellHere();
    if (cell) cell.skipped++;
  }
  if (r.skip) return r.skip(name, fn);
  const itSkip = (r.it as Case & { skip?: Case }).skip;
  if (itSkip) return itSkip(name, fn);
  // A runner without a skip: the case is registered and does nothing.
  r.it(name, () => {});
}

/** A case expected to fail: it meets a difference the target declares. */
export function fails(name: string, fn: () => unknown, timeout?: number): void {
  const r = current();
  if (!recording()) return r.fails ? r.fails(name, fn, timeout) : r.it(name, expectFailure(fn), timeout);
  const cell = cellHere();
  const run = async () => {
    let outcome: Outcome = 'failed';
    try {
      await expectFailure(fn)();
      outcome = 'known';
    } finally {
      if (cell) cell[outcome]++;
    }
  };
  r.it(name, run, timeout);
}

function expectFailure(fn: () => unknown): () => Promise<void> {
  return async () => {
    try {
      await fn();
    } catch {
      return;
    }
    throw new Error(
      'expected to fail (a declared difference) but passed: the difference is gone, remove it from the target',
    );
  };
}
