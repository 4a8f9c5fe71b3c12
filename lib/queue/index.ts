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
} from './queue.js';
export { Message, MessageBatch, type MessageBatchMetadata, type QueueResult, type QueueRetryOptions } from './batch.js';
export { createMessageBatch, getQueueResult, type MessageBatchMessage } from './test-batch.js';
export type { QueueContentType } from './content.js';
export {
  MAX_BATCH_BYTES,
  MAX_BATCH_MESSAGES,
  MAX_DELAY_SECONDS,
  MAX_MESSAGE_BYTES,
  PRODUCTION_CONSUMER_DEFAULTS,
  SIMULATOR_CONSUMER_DEFAULTS,
  type ConsumerSettings,
} from './limits.js';
