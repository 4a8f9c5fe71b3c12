/**
 * `edge-doubles/vitest`: the doubles' matchers, registered on Vitest's `expect` by importing this
 * module (put `import 'edge-doubles/vitest'` in a setup file), and typed for `expect(...)`.
 *
 *   expect(bucket).toHaveObject('notes/a.txt', { body: 'hello', httpMetadata: { contentType: 'text/plain' } });
 *   expect(s3api).toHaveObject('photos/notes/a.txt'); // an S3Api: '<bucket>/<key>'
 *   expect(bucket).toHaveReceived({ op: 'put', key: 'notes/a.txt', times: 1 });
 *   expect(api).toHaveDnsRecord('example.com', { type: 'A', name: 'www', content: '198.51.100.4' });
 *
 * The only module of the library that imports vitest; the same checks are plain functions in
 * `edge-doubles` (assertObject, assertReceived, assertDnsRecord) for other runners.
 */
// A namespace import: `bun test` maps 'vitest' onto bun:test, which has expect and onTestFinished but
// no onTestFailed, and a named import of a missing export would fail this module as it loads there.
import * as vitest from 'vitest';
import type { Bucket } from './bucket/bucket.js';
import type { DnsApi } from './dns-api/dns-api.js';
import type { S3Api } from './s3/api.js';
import type { Queue } from './queue/queue.js';
import type { QueueFault } from './support/queue-support.js';
import type { BucketFault } from './bucket/bucket-support.js';
import type { ApiFault } from './api/support.js';
import type { Fault } from './support/faults.js';
import { describeValue, doubleOf } from './support/registry.js';
import { checkReceived } from './support/matchers.js';
import { checkObject, type ObjectExpectation } from './bucket/object-matcher.js';
import { checkDnsRecord, type DnsRecordExpectation } from './dns/record-matcher.js';
import type { ReceivedQuery } from './index.js';
import { checkMessages } from './support/queue-matchers.js';
import type { MessageQuery } from './support/queue-support.js';

vitest.expect.extend({
  toHaveObject(received: unknown, key: string, expected?: ObjectExpectation, ...rest: unknown[]) {
    return checkObject(received, key, expected, rest.length);
  },
  toHaveReceived(received: unknown, query?: ReceivedQuery, ...rest: unknown[]) {
    return checkReceived(received, query, rest.length);
  },
  toHaveDnsRecord(received: unknown, zone: string, fields: DnsRecordExpectation, ...rest: unknown[]) {
    return checkDnsRecord(received, zone, fields, rest.length);
  },
  toHaveSent(received: unknown, query?: MessageQuery, ...rest: unknown[]) {
    return checkMessages(received, 'sent', query, rest.length);
  },
  toHaveAcked(received: unknown, query?: MessageQuery, ...rest: unknown[]) {
    return checkMessages(received, 'acked', query, rest.length);
  },
  toHaveRetried(received: unknown, query?: MessageQuery, ...rest: unknown[]) {
    return checkMessages(received, 'retried', query, rest.length);
  },
  toHaveDeadLettered(received: unknown, query?: MessageQuery, ...rest: unknown[]) {
    return checkMessages(received, 'dead-lettered', query, rest.length);
  },
});

/** The rule a double takes: a bucket's for a Bucket, a DnsApi's for a DnsApi. */
export type FaultRuleOf<D extends Bucket | DnsApi | Queue> = D extends Bucket
  ? BucketFault
  : D extends Queue
    ? QueueFault
    : ApiFault;

/**
 * Adds a fault rule for the running test only: it is removed when the test finishes, pass or fail
 * (call it inside a test or a beforeEach).
 *
 * One generic signature rather than an overload per double: the rule's type follows the double's,
 * so a misspelt field is the error TypeScript reports. With overloads it reported the last one's
 * mismatch instead ("Type 'Bucket' is missing the following properties from type 'DnsApi'").
 */
export function testFault<D extends Bucket | DnsApi | Queue>(double: D, rule: FaultRuleOf<D>): Fault<FaultRuleOf<D>> {
  const found = doubleOf(double);
  const faults = found?.faults;
  if (!faults)
    throw new TypeError(
      `testFault: ${found?.faultsHint ?? `expected a Bucket, a DnsApi or a Queue from edge-doubles, got ${describeValue(double)}`}`,
    );
  const fault = faults.add(rule);
  vitest.onTestFinished(() => fault.remove());
  return fault as unknown as Fault<FaultRuleOf<D>>;
}

/**
 * Prints the call logs of these doubles (as tables) when the running test fails, so a failure
 * shows what the code under test asked. Turns recording on if it was off (for an S3Api: on every
 * bucket it serves now, whose logs hold its calls).
 */
export function logOnFailure(...doubles: (Bucket | DnsApi | S3Api | Queue)[]): void {
  const found = doubles.map((d) => {
    const double = doubleOf(d);
    if (!double)
      throw new TypeError(
        `logOnFailure: expected a Bucket, a DnsApi, an S3Api or a Queue from edge-doubles, got ${describeValue(d)}`,
      );
    return double;
  });
  const onTestFailed = (vitest as { onTestFailed?: typeof vitest.onTestFailed }).onTestFailed;
  if (!onTestFailed)
    throw new TypeError(
      'logOnFailure: this runner has no onTestFailed (bun test has none); print double.log.table() from your own hook instead',
    );
  for (const d of found) d.startLog();
  onTestFailed(() => {
    for (const d of found) console.log(`${d.name} ${d.entry}s:\n${d.log.table()}`);
  });
}

/** The matchers `edge-doubles/vitest` adds to Vitest's `expect` (see docs/test-support.md). */
export interface EdgeDoublesMatchers<R = unknown> {
  /**
   * The bucket has an object at `key`, with the body, metadata, size or checksums given. On an
   * S3Api, `key` is `'<bucket>/<key>'`: the first segment names the bucket it serves.
   */
  toHaveObject(key: string, expected?: ObjectExpectation): R;
  /** The Bucket, DnsApi or S3Api received a call (request) with these fields; `times`: exactly that many. */
  toHaveReceived(query?: ReceivedQuery): R;
  /** The zone (id or name) has a record with these fields (a relative `name` is in the zone). */
  toHaveDnsRecord(zone: string, fields: DnsRecordExpectation): R;
  /** The Queue was sent a message with these fields (`body` matches partially); `times`: exactly that many. */
  toHaveSent(query?: MessageQuery): R;
  /** The Queue's consumer acked (explicitly or not) a message with these fields. */
  toHaveAcked(query?: MessageQuery): R;
  /** The Queue's consumer had a message with these fields retried (retry(), retryAll(), or by throwing). */
  toHaveRetried(query?: MessageQuery): R;
  /** A message with these fields ran out of retries and went to the dead-letter queue. */
  toHaveDeadLettered(query?: MessageQuery): R;
}

declare module 'vitest' {
  // Vitest 3.2 and 4: one declaration types expect(x).*, expect.* and expect.extend.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- Vitest's own declaration of Matchers, merged as it is written
  interface Matchers<T = any> extends EdgeDoublesMatchers<T> {}
}

export type { DnsRecordExpectation, MessageQuery, ObjectExpectation, ReceivedQuery };
