/**
 * The product-neutral part of the checks behind the Vitest matchers (lib/vitest.ts) and the plain
 * assertions (assertions.ts): what every check returns, and `toHaveReceived`, which reads any
 * double's call log. A product's own checks live beside it and build on this (`toHaveObject`:
 * lib/bucket/object-matcher.ts; `toHaveDnsRecord`: lib/dns/record-matcher.ts). Each returns
 * `{ pass, message, actual, expected }`; `actual` is what was there, cut to the fields the
 * expectation names, so a runner's diff shows only what matters.
 *
 * They find a double through the one registry (registry.ts, double.ts), and read its state
 * directly (synchronously: no `await` needed), never through calls that would show up in the call
 * log or meet a fault.
 */
import { show } from './call-log.js';
import { describeValue as describe, doubleOf } from './registry.js';

export interface CheckResult {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

/** The fields of `actual` that `want` names (and any extra ones, when all named ones are missing). */
export function pick(actual: object | undefined, want: object | undefined): unknown {
  if (!actual || !want) return actual;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(want)) if (k in actual) out[k] = (actual as Record<string, unknown>)[k];
  return out;
}

/**
 * The double received a matching call (bucket) or request (DnsApi), `times` times if given, else at
 * least once. `Q`, the fields of a logged call, is any double's: the public `ReceivedQuery`
 * (lib/index.ts) names each double's, as test support names none.
 */
export function checkReceived<Q extends object>(
  received: unknown,
  query?: Q & { times?: number },
  extra = 0,
): CheckResult {
  if (extra > 0) throw new TypeError('toHaveReceived(query?) takes at most 1 argument');
  if (query !== undefined && (query === null || typeof query !== 'object'))
    throw new TypeError(`toHaveReceived: the query must be an object, got ${describe(query)}`);
  const double = doubleOf(received);
  if (!double)
    throw new TypeError(
      `toHaveReceived: expected a Bucket, a DnsApi or an S3Api from edge-doubles, got ${describe(received)}`,
    );
  const log = double.log;
  const what = double.entry;
  if (!log.recording && log.length === 0) {
    throw new Error(
      `toHaveReceived: the ${double.label}'s call log is off, so no ${what} can be checked. ${double.logHint}`,
    );
  }
  const { times, ...fields }: { times?: number } = query ?? {};
  const matched = log.filter(fields);
  const pass = times === undefined ? matched.length > 0 : matched.length === times;
  const label = Object.keys(fields).length ? `a ${what} matching ${show(fields)}` : `any ${what}`;
  const count = times === undefined ? '' : ` ${times} time${times === 1 ? '' : 's'}`;
  const listing = `\n${what === 'call' ? 'Calls' : 'Requests'} made:\n${log.table()}`;
  if (times !== undefined && matched.length !== times && matched.length > 0) {
    return {
      pass,
      actual: matched.length,
      expected: times,
      message: () => `expected ${label}${count}, got ${matched.length}.${listing}`,
    };
  }
  // The nearest entry (the last of the same operation or method, else the last), cut to the query's fields.
  const sameKind = log.filter((e) => double.sameKind(e, fields));
  const nearest = sameKind[sameKind.length - 1] ?? log.last();
  return {
    pass,
    actual: nearest && pick(nearest, fields),
    expected: fields,
    message: () =>
      pass
        ? `expected no ${label.replace(/^(a|any) /, '')}${count}, got ${matched.length}.${listing}`
        : `expected ${label}${count}, got none.${listing}`,
  };
}
