/**
 * `createMessageBatch` and `getQueueResult`, named and behaving as `cloudflare:test`'s
 * (`@cloudflare/vitest-plugin`), so a consumer test moves between plain Vitest and the Workers pool
 * by changing its import: build a batch, call the handler with it and a `createExecutionContext()`,
 * then read what it acked and retried.
 */
import { waitOnExecutionContext } from '../execution-context.js';
import { BatchState, Message, MessageBatch, batchState, type QueueResult } from './batch.js';

/** One message of a hand-built batch (the plugin's `MessageBatchMessage`). */
export interface MessageBatchMessage<Body = unknown> {
  id: string;
  timestamp: Date | number;
  attempts: number;
  body: Body;
}

const built = new WeakSet<object>();

/** A `MessageBatch` for a `queue()` handler; bodies are structured clones of those given, as the plugin's. */
export function createMessageBatch<Body = unknown>(
  queueName: string,
  messages: MessageBatchMessage<Body>[],
): MessageBatch<Body> {
  if (arguments.length === 0)
    throw new TypeError("Failed to execute 'createMessageBatch': parameter 1 is not of type 'string'.");
  if (!Array.isArray(messages))
    throw new TypeError("Failed to execute 'createMessageBatch': parameter 2 is not of type 'Array'.");
  const state = new BatchState();
  const list = messages.map((m) => {
    if (m !== null && typeof m === 'object' && 'serializedBody' in m)
      throw new TypeError('Cannot use `serializedBody` with `createMessageBatch()`');
    const timestamp = m.timestamp instanceof Date ? m.timestamp.getTime() : new Date(m.timestamp).getTime();
    const source = { id: String(m.id), timestamp, body: undefined };
    return new Message<Body>(state, source, Number(m.attempts), structuredClone(m.body));
  });
  const batch = new MessageBatch<Body>(state, String(queueName), list, {
    metrics: { backlogCount: 0, backlogBytes: 0 },
  });
  built.add(batch);
  return batch;
}

/**
 * Waits for the `waitUntil` promises of `ctx` (`createExecutionContext()`), then gives what the
 * handler's calls on `batch` recorded. As the plugin's: `outcome` is "ok" (a handler that throws
 * throws to the test, which sees it there).
 */
export async function getQueueResult(batch: MessageBatch, ctx: unknown): Promise<QueueResult> {
  const state = built.has(batch) ? batchState(batch) : undefined;
  if (!state) {
    throw new TypeError(
      "Failed to execute 'getQueueResult': parameter 1 is not of type 'MessageBatch'.\nYou must call 'createMessageBatch()' to get a 'MessageBatch' instance.",
    );
  }
  try {
    await waitOnExecutionContext(ctx);
  } catch (e) {
    // The plugin's check of its second argument reads the same way as the execution context's own.
    if (e instanceof TypeError && /getWaitUntil/.test(e.message)) {
      // eslint-disable-next-line preserve-caught-error -- the plugin's own error, which has no cause
      throw new TypeError(
        "Failed to execute 'getQueueResult': parameter 2 is not of type 'ExecutionContext'.\nYou must call 'createExecutionContext()' to get an 'ExecutionContext' instance.",
      );
    }
    throw e;
  }
  return state.result(
    batch.messages.map((m) => m.id),
    'ok',
  );
}
