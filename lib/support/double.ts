/**
 * The one interface through which the test-support functions (the matchers, the plain assertions,
 * `testFault`, `logOnFailure`) reach a double: each double registers one `TestDouble` when built
 * (registry.ts), and the functions look it up there instead of asking what class they were given.
 * A new double (a queue, the API) adds its own file implementing this, not branches in the matchers.
 *
 * The contract every double keeps, the same way (lib/bucket/bucket-support.ts, lib/api/support.ts,
 * queue-support.ts, lib/s3/s3-support.ts):
 * - **Entry wrapper.** Faults and the call log wrap each entry point (a bucket's binding, S3 and
 *   public entries; a DnsApi's API requests and DNS questions, `surface: 'dns'`; a queue's sends
 *   and deliveries), never its rules: a failed call changes nothing stored.
 * - **State.** `snapshot` holds all of the double's state, configuration included (a bucket's
 *   settings; an account's buckets, queues with their API records, settings and consumers, zones and
 *   credentials: CloudflareApi, DnsApi), and `restore`/`reset` bring it back; both clear the fault
 *   rules and the call log.
 * - **Reading.** Assertions and matchers read through the path a call takes: an object as the
 *   bucket layer's `observe` finds it (lifecycle rules the clock has made due applied).
 *
 * Snapshot rule, the same for every double: a snapshot restores into the double that took it; any
 * other restore is a TypeError naming the double. One exception, kept because it is documented and
 * tested public behaviour: a Bucket in memory holds nothing but values, so its snapshot also
 * restores into any other Bucket in memory (one seeded state for several buckets). Restore and
 * reset also clear the fault rules and the call log, as a test's fresh start wants.
 */
import type { CallFilter, LoggedCall } from './call-log.js';
import type { Fault, FaultSchedule } from './faults.js';

/** What the matchers read of a call log: `CallLog` has it, and so does a view over several logs. */
export interface LogReader<E extends LoggedCall = LoggedCall, Q extends object = object> {
  readonly recording: boolean;
  readonly length: number;
  filter(f: CallFilter<E, Q>): E[];
  last(f?: CallFilter<E, Q>): E | undefined;
  table(f?: CallFilter<E, Q>): string;
}

/** What `testFault` needs of a double's fault rules. */
interface FaultAdder {
  add(rule: FaultSchedule): Fault<FaultSchedule>;
}

export interface TestDouble {
  /** The double's name in messages: `Bucket`, `DnsApi`, `S3Api`. */
  readonly name: string;
  /** How a message calls the double itself ("the bucket's call log is off"). */
  readonly label: string;
  /** What one log entry is called in messages. */
  readonly entry: 'call' | 'request';
  /** How to turn the log on, said when a matcher finds it off. */
  readonly logHint: string;
  /** The call log, as the matchers read it. */
  readonly log: LogReader;
  /** Starts recording (`logOnFailure`). */
  startLog(): void;
  /**
   * Whether a logged entry is of the kind a query asks about (the same operation or method): the
   * nearest such entry is what a failed `toHaveReceived` diffs against.
   */
  sameKind(entry: LoggedCall, query: object): boolean;
  /** Its fault rules, when it has its own (`testFault`). */
  readonly faults?: FaultAdder;
  /** For a double with no rules of its own: where its faults are armed, said when one is asked of it. */
  readonly faultsHint?: string;
  snapshot(): object;
  restore(snapshot: object): void;
  reset(): void;
  /**
   * What a product's matchers read of the double, each reader declared beside its product and its
   * matcher, which finds it with `instanceof` (a Bucket's or an S3Api's objects:
   * lib/bucket/object-matcher.ts; a DNS double's zones: lib/dns/record-matcher.ts). Opaque here, so
   * test support names no product.
   */
  readonly readers?: readonly object[];
  /** A queue's log of sends and deliveries (`toHaveSent`, `toHaveAcked`, `toHaveRetried`, `toHaveDeadLettered`). */
  readonly queue?: { readonly log: LogReader };
}

/** What a double's owner offers the registry: its own snapshot, restore and reset (the owner keeps their rules). */
export interface StateOwner {
  snapshot(): object;
  restore(snapshot: never): void;
  reset(): void;
}

/** What a double's own support holds: its call log and its fault rules. */
export interface OwnSupport {
  readonly log: LogReader & { start(): unknown };
  readonly faults: unknown;
}

/**
 * A double that logs its own entry points and keeps its own fault rules (a Bucket, an API double, a
 * Queue): the contract's common part made once, from the owner's state and its support; `own` is
 * what the double says of itself and what it offers beyond the contract (its readers, its queue).
 */
export function ownDouble(
  owner: StateOwner,
  support: OwnSupport,
  own: Pick<TestDouble, 'name' | 'label' | 'entry' | 'sameKind'> & { logHint?: string } & Partial<
      Pick<TestDouble, 'readers' | 'queue'>
    >,
): TestDouble {
  const { log, faults } = support;
  return {
    logHint: 'Build it with { log: true } or call .log.start() before the code under test runs.',
    ...own,
    log,
    startLog: () => void log.start(),
    faults: faults as FaultAdder,
    snapshot: () => owner.snapshot(),
    restore: (s) => owner.restore(s as never),
    reset: () => owner.reset(),
  };
}
