/**
 * The checks behind the queue matchers (lib/vitest.ts): `toHaveSent`, `toHaveAcked`,
 * `toHaveRetried`, `toHaveDeadLettered`. They count messages, not calls: a `sendBatch` of three
 * counts three sends, a delivery of a batch one outcome per message. They read the queue's call log
 * (sends and deliveries), so the log must be on, as for `toHaveReceived`.
 */
import { partialMatch, show } from './call-log.js';
import type { CheckResult } from './matchers.js';
import type { LoggedMessage, MessageOutcome, MessageQuery, QueueCall } from './queue-support.js';
import { describeValue, doubleOf } from './registry.js';

const MATCHER: Record<MessageOutcome | 'sent', string> = {
  sent: 'toHaveSent',
  acked: 'toHaveAcked',
  retried: 'toHaveRetried',
  'dead-lettered': 'toHaveDeadLettered',
  dropped: 'toHaveDropped',
};

/** The queue sent (or its consumer acked, retried, dead-lettered) a message matching `query`; `times`: exactly that many. */
export function checkMessages(
  received: unknown,
  what: MessageOutcome | 'sent',
  query: MessageQuery = {},
  extra = 0,
): CheckResult {
  const name = MATCHER[what];
  if (extra > 0) throw new TypeError(`${name}(query?) takes at most 1 argument`);
  if (query === null || typeof query !== 'object')
    throw new TypeError(`${name}: the query must be an object such as { body }, got ${describeValue(query)}`);
  const double = doubleOf(received);
  const log = double?.queue?.log;
  if (!double || !log)
    throw new TypeError(`${name}: expected a Queue from edge-doubles, got ${describeValue(received)}`);
  if (!log.recording && log.length === 0)
    throw new Error(`${name}: the queue's call log is off, so no message can be checked. ${double.logHint}`);
  const { times, ...fields } = query;
  const entries = log.filter(
    (e) =>
      ((e as QueueCall).op === 'deliver') === (what !== 'sent') &&
      !(what === 'sent' && (e as QueueCall).error !== undefined),
  ) as QueueCall[];
  const messages: LoggedMessage[] = entries.flatMap((e) =>
    what === 'sent' ? e.messages : e.messages.filter((m) => m.outcome === what),
  );
  const matched = messages.filter((m) => partialMatch(m, fields));
  const pass = times === undefined ? matched.length > 0 : matched.length === times;
  const verb = what === 'sent' ? 'sent' : what;
  const label = Object.keys(fields).length ? `a message matching ${show(fields)}` : 'any message';
  const count = times === undefined ? '' : ` ${times} time${times === 1 ? '' : 's'}`;
  const listing = messages.length
    ? `\nMessages ${verb}: ${messages
        .slice(-10)
        .map((m) => show(m.body))
        .join('; ')}${messages.length > 10 ? ` (last 10 of ${messages.length})` : ''}`
    : `\nNo message was ${verb}.`;
  return {
    pass,
    actual: times === undefined ? messages[messages.length - 1]?.body : matched.length,
    expected: times === undefined ? fields.body : times,
    message: () =>
      pass
        ? `expected the queue not to have ${verb} ${label}${count}, but it did (${matched.length}).`
        : `expected the queue to have ${verb} ${label}${count}; ${matched.length === 0 ? 'none matched' : `${matched.length} matched`}.${listing}`,
  };
}
