/**
 * Divergences the fuzzer meets that the double keeps on purpose (each a declared difference). The
 * five issue 9 fixed (constructor names, foreign cursors, zero-part ranges, old-date put values) are
 * gone from here: the fuzzer fails on them again if they come back.
 *
 * Data, not code paths: when an op diverges and an entry here matches it, the run counts it under the
 * entry's id instead of failing, and the seed goes on if both buckets still agree (a read, an op both
 * refused, or a put that stored on one side only, undone by deleting its key on both), else stops.
 */
import type { Op, Spec } from './generate.js';
import type { Outcome } from './run.js';

interface PendingContext {
  /** The compatibility date both implementations run at. */
  readonly date: string;
  /** Every op of the seed (generated ones: plain data), and the index of the one that diverged. */
  readonly ops: readonly Op[];
  readonly index: number;
  /** Both outcomes, as compared (normalised). */
  readonly workerd: Outcome;
  readonly double: Outcome;
}

export interface Pending {
  readonly id: string;
  /** Why it is tolerated: a difference declared in conformance/bucket/differences.ts. */
  readonly status: string;
  /** What it is (the point of issue 9). */
  readonly what: string;
  readonly matches: (op: Op, ctx: PendingContext) => boolean;
}

/** A special value of run.ts (`{ $$: kind, ... }`) of this kind, or undefined. */
const special = (s: Spec | undefined, kind: string): Record<string, Spec> | undefined =>
  typeof s === 'object' && s !== null && !Array.isArray(s) && '$$' in s && s.$$ === kind
    ? (s as unknown as Record<string, Spec>)
    : undefined;

/** The value argument of a put or an uploadPart. */
const valueOf = (op: Op): Spec | undefined =>
  op.method === 'put' ? op.args[1] : op.method === 'uploadPart' ? op.args[1] : undefined;

/** Not generated: stands for "compare the bucket's constructor.name" (checked once per seed). */
export const CONSTRUCTOR_PROBE: Op = { target: 'bucket', method: 'constructor.name', args: [] };

export const PENDING: readonly Pending[] = [
  {
    id: 'js-stream-unknown-length',
    status: 'declared: double-js-byte-stream-length',
    what: 'issue 9, bucket 5: a JS-built byte stream (new ReadableStream({ type: "bytes" })) has no known length; workerd refuses it, the double reads it',
    matches: (op) => special(valueOf(op), 'stream')?.kind === 'bytes',
  },
];
