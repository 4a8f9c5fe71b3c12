/**
 * edge-doubles: what a test imports. The doubles (Bucket, S3Api, DnsApi, CloudflareApi, Queue,
 * PublicBuckets, Account), their options and results, the test support every double shares, the
 * clock, and createEnv with a Worker's `ctx`. A product's own constants and helpers stay on its
 * subpath (the queue's limits on edge-doubles/queue, `dnsTypeCode` on edge-doubles/dns); the
 * committed API report (etc/api/) lists each entry's names.
 */
export * from './bucket/index.js';
export { ManualClock, type Clock } from './clock.js';
export * from './support/index.js';
export {
  DnsApi,
  type DnsSnapshot,
  type DnsApiOptions,
  type DnsCompat,
  type DnsLimits,
  type DnsPlan,
  type DnsRecord,
  type DnsUser,
  type DnsRecordSeed,
  type DnsZone,
  type DnsZoneInit,
  type DnsRecordType,
  type DnsAnswer,
  type DnsQuestion,
  type DnsRcode,
  type DnsResourceRecord,
} from './dns/index.js';
export * from './account/index.js';
export * from './env/index.js';
export * from './s3/index.js';
export * from './api/index.js';
export * from './cloudflare-api/index.js';
export * from './r2-public/index.js';
export {
  Queue,
  Message,
  MessageBatch,
  createMessageBatch,
  getQueueResult,
  type QueueOptions,
  type QueueSendOptions,
  type QueueSendBatchOptions,
  type MessageSendRequest,
  type QueueMetrics,
  type QueueSendResponse,
  type QueueHandler,
  type ExecutionContextLike,
  type MessageBatchMetadata,
  type QueueResult,
  type QueueRetryOptions,
  type MessageBatchMessage,
  type QueueContentType,
  type ConsumerSettings,
} from './queue/index.js';
