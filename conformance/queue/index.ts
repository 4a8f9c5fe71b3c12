/** The Queues conformance suite: every group, in the order the summary prints them. */
import { runGroups, type Group, type QueueTarget } from './harness.js';
import { producer } from './groups/producer.js';
import { delivery } from './groups/delivery.js';

/** Every group of the Queues suite, in the order it runs them. */
const queueGroups: readonly Group[] = [producer, delivery];

/** Registers the whole Queues conformance suite (Vitest tests) for one target. */
export function queueConformance(target: QueueTarget): void {
  runGroups(queueGroups, target);
}

export {
  queueDifferences,
  miniflareQueueDifferences,
  doubleQueueApiDifferences,
  type QueueDifferenceId,
} from './differences.js';
export {
  describeBody,
  fromWire,
  type ConsumerOp,
  type QueueDeclaration,
  type QueueSession,
  type QueueTarget,
  type SeenBatch,
  type SeenBody,
  type SeenMessage,
  type SendOutcome,
  type WireBody,
} from './harness.js';
