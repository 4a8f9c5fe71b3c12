/**
 * The one registry of doubles: each double registers its `TestDouble` (double.ts) once, when built,
 * and the test-support functions (matchers, plain assertions, `testFault`, `logOnFailure`) and the
 * S3 view (a second surface over a bucket, through its layer: lib/bucket/internal.ts) find it here,
 * without the double showing its insides as members. Weakly held.
 */
import type { TestDouble } from './double.js';

const doubles = new WeakMap<object, TestDouble>();

/** Registers `double` as what the test support reaches behind `owner` (once per owner). */
export function registerDouble(owner: object, double: TestDouble): void {
  if (doubles.has(owner)) throw new Error(`registerDouble: this ${double.name} is already registered`);
  doubles.set(owner, double);
}

/** The double registered behind `v`; undefined for anything this library did not build. */
export function doubleOf(v: unknown): TestDouble | undefined {
  return v !== null && (typeof v === 'object' || typeof v === 'function') ? doubles.get(v as object) : undefined;
}

/** How a message names a value that is no double: its class, or its type. */
export const describeValue = (v: unknown): string =>
  v === null ? 'null' : typeof v === 'object' ? ((v as object).constructor?.name ?? 'object') : typeof v;
