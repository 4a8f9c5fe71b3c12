/**
 * Test support for a Queue: its fault rules and its call log, wrapped around the queue's entry
 * points (the producer's `send`/`sendBatch`, and each delivery to the consumer), never inside its
 * rules (lib/queue/queue.ts).
 *
 * Faults on `send`/`sendBatch` fail the call before anything is enqueued. Faults on `deliver` are
 * Queues' own misbehaviours, as values: `fail` (the delivery fails as if the consumer had thrown,
 * without calling it: a failed attempt), `duplicate` (the batch's acked messages are delivered once
 * more: at-least-once delivery, cloudflare-docs `delivery-guarantees`), `reorder` (the batch's
 * messages in a seeded random order: ordering is best effort, `javascript-apis.mdx`).
 */
import { ArrayStore, CallLog, partialMatch, show, type LoggedCall } from './call-log.js';
import { ownDouble, type StateOwner, type TestDouble } from './double.js';
import { FaultList, type FaultSchedule, type Injected } from './faults.js';

/** The queue operations faults and the call log name: a producer's `send` and `sendBatch`, and a delivery to the consumer. */
export type QueueOperation = 'send' | 'sendBatch' | 'deliver';

/** What a delivery did with a message. */
export type MessageOutcome = 'acked' | 'retried' | 'dead-lettered' | 'dropped';

export interface QueueFault extends FaultSchedule {
  /** The operation(s) caught. Default: every one. */
  op?: QueueOperation | readonly QueueOperation[];
  /**
   * What the rule does: `fail` (every operation; the default unless `delay` is given alone),
   * `duplicate` and `reorder` (deliveries only).
   */
  action?: 'fail' | 'duplicate' | 'reorder';
  /** A failed send's message, instead of the service's internal error. */
  message?: string;
}

/** One message in a log entry. */
export interface LoggedMessage {
  readonly id: string;
  /** The body as sent (a copy taken then), or as delivered. */
  readonly body: unknown;
  readonly contentType: string;
  /** Sends: the delay asked for, in seconds (0 when none). */
  readonly delaySeconds?: number;
  /** Deliveries: the message's attempt number. */
  readonly attempts?: number;
  /** Deliveries: what came of it. */
  readonly outcome?: MessageOutcome;
}

export interface QueueCall extends LoggedCall {
  readonly op: QueueOperation;
  readonly queue: string;
  readonly messages: readonly LoggedMessage[];
  /** The error thrown (sends) or by the consumer (deliveries), as `Name: message`. */
  readonly error?: string;
  readonly injected?: Injected;
}

/** Fields a logged call must have; `messages` entries match partially, in order. */
export interface QueueCallQuery {
  op?: QueueOperation;
  queue?: string;
  messages?: readonly Partial<Record<keyof LoggedMessage, unknown>>[];
  error?: string | RegExp;
  injected?: boolean;
}

/** What the message matchers (`toHaveSent`, `toHaveAcked`, ...) look for: fields of one message. */
export interface MessageQuery {
  body?: unknown;
  id?: string;
  contentType?: string;
  delaySeconds?: number;
  attempts?: number;
  /** Exactly this many matching messages (default: at least one). */
  times?: number;
}

const opMatches = (want: QueueFault['op'], op: QueueOperation) => want === undefined || [want].flat().includes(op);

function matchesCall(e: QueueCall, q: QueueCallQuery): boolean {
  if (q.op !== undefined && q.op !== e.op) return false;
  if (q.queue !== undefined && q.queue !== e.queue) return false;
  if (q.messages !== undefined && !partialMatch(e.messages, q.messages)) return false;
  if (q.error !== undefined && !(e.error !== undefined && partialMatch(e.error, q.error))) return false;
  if (q.injected !== undefined && q.injected !== (e.injected !== undefined)) return false;
  return true;
}

const row = (e: QueueCall): Record<string, string> => ({
  at: new Date(e.at).toISOString(),
  op: e.op,
  messages:
    e.messages
      .slice(0, 3)
      .map((m) => `${show(m.body)}${m.outcome ? ` → ${m.outcome}` : ''}`)
      .join('; ') + (e.messages.length > 3 ? ` (+${e.messages.length - 3})` : ''),
  error: e.error ?? '',
  fault: e.injected ? `#${e.injected.fault}${e.injected.delay ? ` +${e.injected.delay} ms` : ''}` : '',
});

export type MutableQueueCall = { -readonly [K in keyof QueueCall]: QueueCall[K] };

export class QueueSupport {
  readonly faults: FaultList<QueueFault, QueueOperation>;
  readonly log: CallLog<QueueCall, QueueCallQuery>;
  readonly store = new ArrayStore<QueueCall>();

  constructor(recording: boolean) {
    this.faults = new FaultList<QueueFault, QueueOperation>(
      (rule, op) => opMatches(rule.op, op),
      (rule) => {
        const ops = rule.op === undefined ? [] : [rule.op].flat();
        for (const op of ops)
          if (op !== 'send' && op !== 'sendBatch' && op !== 'deliver')
            throw new RangeError(`queue fault: unknown op ${JSON.stringify(op)}`);
        const a = rule.action;
        if (a !== undefined && a !== 'fail' && a !== 'duplicate' && a !== 'reorder')
          throw new RangeError(`queue fault: unknown action ${JSON.stringify(a)}`);
        if ((a === 'duplicate' || a === 'reorder') && ops.some((op) => op !== 'deliver')) {
          throw new RangeError(`queue fault: '${a}' acts on deliveries only; give op: 'deliver'`);
        }
      },
      (rule) => ({ op: rule.op === undefined ? '*' : [rule.op].flat().join(','), action: actionOf(rule) ?? '' }),
    );
    this.log = new CallLog<QueueCall, QueueCallQuery>(recording, this.store, matchesCall, row);
  }

  /** Starts an entry (when recording). */
  entry(
    op: QueueOperation,
    queue: string,
    at: number,
    messages: readonly LoggedMessage[],
  ): MutableQueueCall | undefined {
    if (!this.log.recording) return undefined;
    return this.store.push({ seq: this.store.length + 1, at, op, queue, messages }) as MutableQueueCall;
  }

  clear(): void {
    this.faults.clear();
    this.log.clear();
  }
}

/** What a rule does: its action, `fail` by default, nothing when it only delays. */
export function actionOf(rule: QueueFault): QueueFault['action'] | undefined {
  if (rule.action !== undefined) return rule.action;
  return rule.delay !== undefined && rule.message === undefined ? undefined : 'fail';
}

/** The Queue as a test double (double.ts): its fault rules and its call log. */
export function queueDouble(queue: StateOwner, support: QueueSupport): TestDouble {
  return ownDouble(queue, support, {
    name: 'Queue',
    label: 'queue',
    entry: 'call',
    logHint:
      'Build it with { log: true } (or createEnv(config, { log: true })), or call .log.start() before the code under test runs.',
    sameKind: (e, q) => (e as QueueCall).op === (q as QueueCallQuery).op,
    queue: { log: support.log },
  });
}
