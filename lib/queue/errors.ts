/**
 * What a send refused by the Queues service throws. workerd's binding checks only the body's type;
 * sizes, counts and delays are the service's to refuse, and the binding turns its non-200 answer
 * into a plain `Error` (workerd src/workerd/api/queue.c++ `send`/`sendBatch`):
 *
 * - with `queue_expose_error_codes` (default from 2026-03-12): `<cause> (<code>)`, the cause and
 *   code from the service's `cf-queues-error-cause` / `cf-queues-error-code` headers;
 * - before: `Queue send failed: <status text>` (`Queue sendBatch failed: ...` for a batch).
 *
 * The codes are production's (cloudflare-docs `queues/reference/error-codes`: 10203 invalid
 * message metadata, 10204 message size, 10205 batch size, 10206 batch count). The cause texts and
 * status texts production sends are not documented: the double uses the docs' "Details" wording
 * and the HTTP reason phrase of the status Miniflare's broker answers with (413, 400), and says so
 * here. Miniflare itself sends neither header, so workerd shows "Unknown Internal Error (15000)"
 * there (a declared difference of the conformance suite).
 */

export type ServiceRefusal = 'metadata' | 'message-size' | 'batch-size' | 'batch-count' | 'internal';

const CAUSES: Record<ServiceRefusal, { code: number; cause: string; status: string }> = {
  metadata: { code: 10203, cause: 'Invalid message metadata', status: 'Bad Request' },
  'message-size': { code: 10204, cause: 'Message size out of bounds', status: 'Payload Too Large' },
  'batch-size': { code: 10205, cause: 'Batch size out of bounds', status: 'Payload Too Large' },
  'batch-count': { code: 10206, cause: 'Batch count out of bounds', status: 'Payload Too Large' },
  // workerd's own default when the service names no cause (`buildQueueErrorMessage`).
  internal: { code: 15000, cause: 'Unknown Internal Error', status: 'Internal Server Error' },
};

/** The error a refused send throws, in the form the compatibility date gives. */
export function serviceError(refusal: ServiceRefusal, batch: boolean, exposeErrorCodes: boolean): Error {
  const c = CAUSES[refusal];
  return new Error(
    exposeErrorCodes ? `${c.cause} (${c.code})` : `Queue ${batch ? 'sendBatch' : 'send'} failed: ${c.status}`,
  );
}

/** A fault rule's failed send: the service's internal error unless the rule names a message. */
export function faultError(message: string | undefined, batch: boolean, exposeErrorCodes: boolean): Error {
  return message === undefined ? serviceError('internal', batch, exposeErrorCodes) : new Error(message);
}
