/**
 * edge-doubles: what a test imports. The doubles (Bucket, S3Api, DnsApi, CloudflareApi, Queue,
 * PublicBuckets, Account), their options and results, the test support every double shares, the
 * clock, and createEnv with a Worker's `ctx`. A product's own constants and helpers stay on its
 * subpath (the queue's limits on edge-doubles/queue, `dnsTypeCode` on edge-doubles/dns); the
 * committed API report (etc/api/) lists each entry's names.
 */
import type { ApiRequestQuery } from './api/support.js';
import type { BucketCallQuery } from './bucket/bucket-support.js';
import type { S3CallQuery } from './s3/s3-support.js';
import { enforce } from './support/assertions.js';
import { checkReceived } from './support/matchers.js';
import type { QueueCallQuery } from './support/queue-support.js';

export * from './bucket.js';
export { ManualClock, type Clock } from './clock.js';
export * from './support/index.js';
export { assertObject, assertNoObject, type ObjectExpectation } from './bucket/object-matcher.js';
export { assertDnsRecord, type DnsRecordExpectation } from './dns/record-matcher.js';
export type {
  BucketCall,
  BucketCallQuery,
  BucketFault,
  BucketOperation,
  BucketResult,
  LoggedError,
} from './bucket/bucket-support.js';
export type { ApiAuthScheme, ApiFault, ApiRequest, ApiRequestQuery } from './api/support.js';
export type { S3Call, S3CallQuery, S3Snapshot } from './s3/s3-support.js';
export {
  DnsApi,
  type DnsSnapshot,
  type DnsApiOptions,
  type ApiOptions,
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
} from './dns.js';
export * from './account/index.js';
export * from './env/index.js';
export * from './s3.js';
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
} from './queue.js';

/**
 * `toHaveReceived`'s query: the double's call fields, plus how many matching calls there must be.
 * Assembled here, where every double's calls are known: test support (lib/support/) names none.
 */
export type ReceivedQuery = (BucketCallQuery | ApiRequestQuery | S3CallQuery | QueueCallQuery) & { times?: number };

/** Throws unless the Bucket, DnsApi or S3Api received a matching call (`times` times when given). */
export function assertReceived(double: unknown, query?: ReceivedQuery): void {
  enforce(checkReceived(double, query, arguments.length > 2 ? 1 : 0), false, 'assertReceived');
}

/** Throws if the Bucket, DnsApi or S3Api received a matching call (any call, without a query). */
export function assertNotReceived(double: unknown, query?: ReceivedQuery): void {
  enforce(checkReceived(double, query, arguments.length > 2 ? 1 : 0), true, 'assertNotReceived');
}
