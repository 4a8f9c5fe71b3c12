/**
 * Test support shared by the doubles: its public names, none of a product (each product's part is
 * exported beside it, gathered by lib/index.ts; the doubles' own methods reach the rest).
 */
export { AssertionError } from './assertions.js';
export type { CallLog, LoggedCall } from './call-log.js';
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
