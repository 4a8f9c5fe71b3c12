/**
 * What turns a matcher's check into a plain function, for node:test, Jest or any runner: `enforce`
 * throws an `AssertionError` (name, `code: 'ERR_ASSERTION'`, `actual`, `expected`, as node:assert's)
 * whose message ends with a line diff of what was expected and what was there. The assertions sit
 * beside their checks (`assertObject`: lib/bucket/object-matcher.ts; `assertDnsRecord`:
 * lib/dns/record-matcher.ts; `assertReceived`, whose query names every double's calls: lib/index.ts).
 */
import type { CheckResult } from './matchers.js';

export class AssertionError extends Error {
  readonly code = 'ERR_ASSERTION';
  readonly generatedMessage = false;
  constructor(
    message: string,
    readonly actual: unknown,
    readonly expected: unknown,
    readonly operator: string,
  ) {
    super(message);
    this.name = 'AssertionError';
  }
}

/** Pretty JSON, with bytes, Dates and RegExps shown as themselves. */
function pretty(v: unknown): string {
  return (
    JSON.stringify(
      v,
      function (k, x) {
        const raw = k === '' ? v : (this as Record<string, unknown>)[k];
        if (raw instanceof Uint8Array) return `Uint8Array [${[...raw].join(', ')}]`;
        if (raw instanceof Date) return `Date ${raw.toISOString()}`;
        if (raw instanceof RegExp) return String(raw);
        return x;
      },
      2,
    ) ?? String(v)
  );
}

/** A line diff (longest common subsequence): `-` expected, `+` actual. */
function lineDiff(expected: unknown, actual: unknown): string {
  const a = pretty(expected).split('\n');
  const b = pretty(actual).split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: string[] = ['- Expected', '+ Received', ''];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i++]}`);
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return out.join('\n');
}

/** Throws an `AssertionError` unless the check came out as asked (`negate`: it must not pass). */
export function enforce(result: CheckResult, negate: boolean, operator: string): void {
  if (result.pass !== negate) return;
  const diff =
    !negate && 'expected' in result && result.actual !== undefined
      ? `\n\n${lineDiff(result.expected, result.actual)}`
      : '';
  throw new AssertionError(result.message() + diff, result.actual, result.expected, operator);
}
