/**
 * The matchers' checks as plain functions, for node:test, Jest or any runner: each throws an
 * `AssertionError` (name, `code: 'ERR_ASSERTION'`, `actual`, `expected`, as node:assert's) whose
 * message ends with a line diff of what was expected and what was there.
 */
import {
  checkDnsRecord,
  checkObject,
  checkReceived,
  type CheckResult,
  type DnsRecordExpectation,
  type ObjectExpectation,
  type ReceivedQuery,
} from './matchers.js';

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

function enforce(result: CheckResult, negate: boolean, operator: string): void {
  if (result.pass !== negate) return;
  const diff =
    !negate && 'expected' in result && result.actual !== undefined
      ? `\n\n${lineDiff(result.expected, result.actual)}`
      : '';
  throw new AssertionError(result.message() + diff, result.actual, result.expected, operator);
}

/** Throws unless the bucket has an object at `key` (with the fields given); an S3Api takes `'<bucket>/<key>'`. */
export function assertObject(bucket: unknown, key: string, expected?: ObjectExpectation): void {
  enforce(checkObject(bucket, key, expected, arguments.length - 3 > 0 ? 1 : 0), false, 'assertObject');
}

/** Throws if the bucket has an object at `key` (an S3Api: `'<bucket>/<key>'`). */
export function assertNoObject(bucket: unknown, key: string): void {
  enforce(checkObject(bucket, key, undefined, arguments.length > 2 ? 1 : 0), true, 'assertNoObject');
}

/** Throws unless the Bucket, DnsApi or S3Api received a matching call (`times` times when given). */
export function assertReceived(double: unknown, query?: ReceivedQuery): void {
  enforce(checkReceived(double, query, arguments.length > 2 ? 1 : 0), false, 'assertReceived');
}

/** Throws if the Bucket, DnsApi or S3Api received a matching call (any call, without a query). */
export function assertNotReceived(double: unknown, query?: ReceivedQuery): void {
  enforce(checkReceived(double, query, arguments.length > 2 ? 1 : 0), true, 'assertNotReceived');
}

/** Throws unless the zone (id or name) has a record with the given fields. */
export function assertDnsRecord(api: unknown, zone: string, fields: DnsRecordExpectation): void {
  enforce(checkDnsRecord(api, zone, fields, arguments.length > 3 ? 1 : 0), false, 'assertDnsRecord');
}
