/** The Queues double: the producer binding, consumer delivery, and the test helpers `cloudflare:test` names. */
export {
  Queue,
  type QueueOptions,
  type QueueSendOptions,
  type QueueSendBatchOptions,
  type MessageSendRequest,
  type QueueMetrics,
  type QueueSendResponse,
  type QueueHandler,
  type ExecutionContextLike,
} from './queue/queue.js';
export {
  Message,
  MessageBatch,
  type MessageBatchMetadata,
  type QueueResult,
  type QueueRetryOptions,
} from './queue/batch.js';
export { createMessageBatch, getQueueResult, type MessageBatchMessage } from './queue/test-batch.js';
export type { QueueContentType } from './queue/content.js';
export {
  MAX_BATCH_BYTES,
  MAX_BATCH_MESSAGES,
  MAX_DELAY_SECONDS,
  MAX_MESSAGE_BYTES,
  PRODUCTION_CONSUMER_DEFAULTS,
  SIMULATOR_CONSUMER_DEFAULTS,
  type ConsumerSettings,
} from './queue/limits.js';
