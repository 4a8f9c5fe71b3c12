/**
 * Vitest as the suites' runner: what `edge-doubles/conformance` installs by default, and what this
 * repository's Vitest projects load as a setup file (their test files import the suites from source).
 * Under Vitest the summary reporter prints the results table; under `bun test`, which maps `vitest`
 * onto `bun:test` (no `it.fails`), the cases record their outcomes and print it themselves.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setDefaultRunner, type TestRunner } from './runner.js';

const fails = (it as { fails?: TestRunner['fails'] }).fails;

export const vitestRunner: TestRunner = {
  describe,
  it,
  expect,
  beforeAll,
  afterAll,
  afterEach,
  skip: it.skip,
  fails,
  expectTakesMessage: true,
  printsResults: typeof fails !== 'function',
};

setDefaultRunner(vitestRunner);
