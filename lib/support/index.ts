/** Test support shared by the doubles: the public names (the doubles' own methods reach the rest). */
export {
  AssertionError,
  assertDnsRecord,
  assertNoObject,
  assertNotReceived,
  assertObject,
  assertReceived,
} from './assertions.js';
export type {
  BucketCall,
  BucketCallQuery,
  BucketFault,
  BucketOperation,
  BucketResult,
  LoggedError,
} from '../bucket/bucket-support.js';
export type { CallLog, LoggedCall } from './call-log.js';
export type { ApiAuthScheme, ApiFault, ApiRequest, ApiRequestQuery } from '../api/support.js';
export type { S3Call, S3CallQuery, S3Snapshot } from '../s3/s3-support.js';
export type {
  LoggedMessage,
  MessageOutcome,
  MessageQuery,
  QueueCall,
  QueueCallQuery,
  QueueFault,
  QueueOperation,
} from './queue-support.js';
export type { Fault, FaultList, FaultSchedule, Injected } from './faults.js';
export type { DnsRecordExpectation, ObjectExpectation, ReceivedQuery } from './matchers.js';
