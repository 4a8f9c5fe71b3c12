/**
 * Type test (spec/types/nodenext/tsconfig.json): every public entry point, imported as a NodeNext
 * project imports the package. A failure is a compile error, not a test failure.
 */
import { Bucket, DnsApi, type BucketSnapshot } from '../../../lib/index.js';
import type * as bucket from '../../../lib/bucket.js';
import type * as dns from '../../../lib/dns.js';
import type * as s3 from '../../../lib/s3.js';
import type * as node from '../../../lib/node/index.js';
import type * as vitest from '../../../lib/vitest.js';
import type * as conformance from '../../../conformance/index.js';

const snapshot: BucketSnapshot = new Bucket().snapshot();
export const used: unknown[] = [snapshot, new DnsApi().snapshot()];
export type Entries = [typeof bucket, typeof dns, typeof s3, typeof node, typeof vitest, typeof conformance];
