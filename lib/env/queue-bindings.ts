/**
 * The `queues` field of a wrangler config: `[[queues.producers]]` (bindings to Queue doubles) and
 * `[[queues.consumers]]` (the Worker's `queue` handler and its settings). Wrangler's checks and
 * texts: workers-sdk `packages/workers-utils/src/config/validation.ts` (`validateQueues`,
 * `validateQueueBinding`, `validateConsumer`), as bundled in wrangler 4.86.0. As in wrangler, an
 * unknown key of an entry is a warning, and a consumer without a `queue` is reported but does not
 * make the entry invalid.
 */
import type { ConsumerSettings } from '../queue/limits.js';
import type { Diagnostics } from './diagnostics.js';
import { hasProperty, isOptionalProperty, isRequiredProperty, unexpectedFields } from './rules.js';

interface QueueProducerConfig {
  binding: string;
  queue: string;
  /** Seconds every message waits before delivery unless its send names a delay. */
  delivery_delay?: number;
  remote?: boolean;
}

export interface QueueConsumerConfig {
  queue: string;
  type?: 'worker';
  max_batch_size?: number;
  max_batch_timeout?: number;
  max_retries?: number;
  dead_letter_queue?: string;
  retry_delay?: number;
  /** Accepted and ignored: the double delivers one batch at a time. */
  max_concurrency?: number;
  /** Pull consumers only; accepted and ignored. */
  visibility_timeout_ms?: number;
}

export interface QueuesConfig {
  producers?: QueueProducerConfig[];
  consumers?: QueueConsumerConfig[];
}

const json = (v: unknown) => JSON.stringify(v);

function known(d: Diagnostics, path: string, value: object, fields: string[]): boolean {
  const before = d.warnings.length;
  unexpectedFields(d, path, Object.keys(value), fields);
  return d.warnings.length === before;
}

function producer(d: Diagnostics, field: string, value: unknown): void {
  if (typeof value !== 'object' || value === null) {
    d.errors.push(`"queue" bindings should be objects, but got ${json(value)}`);
    return;
  }
  const v = value as Record<string, unknown>;
  if (!known(d, field, v, ['binding', 'queue', 'delivery_delay', 'remote'])) return;
  if (!isRequiredProperty(v, 'binding', 'string'))
    d.errors.push(`"${field}" bindings should have a string "binding" field but got ${json(value)}.`);
  if (!isRequiredProperty(v, 'queue', 'string') || (v.queue as string).length === 0) {
    d.errors.push(`"${field}" bindings should have a string "queue" field but got ${json(value)}.`);
  }
  if (!isOptionalProperty(v, 'delivery_delay', 'number'))
    d.errors.push(`"${field}" should, optionally, have a number "delivery_delay" field but got ${json(value)}.`);
  if (!isOptionalProperty(v, 'remote', 'boolean'))
    d.errors.push(`"${field}" should, optionally, have a boolean "remote" field but got ${json(value)}.`);
}

const CONSUMER_OPTIONS: [string, string][] = [
  ['type', 'string'],
  ['max_batch_size', 'number'],
  ['max_batch_timeout', 'number'],
  ['max_retries', 'number'],
  ['dead_letter_queue', 'string'],
  ['max_concurrency', 'number'],
  ['visibility_timeout_ms', 'number'],
  ['retry_delay', 'number'],
];

function consumer(d: Diagnostics, field: string, value: unknown): void {
  if (typeof value !== 'object' || value === null) {
    d.errors.push(`"${field}" should be a objects, but got ${json(value)}`);
    return;
  }
  const v = value as Record<string, unknown>;
  known(d, field, v, ['queue', ...CONSUMER_OPTIONS.map(([k]) => k)]);
  if (!isRequiredProperty(v, 'queue', 'string'))
    d.errors.push(`"${field}" should have a string "queue" field but got ${json(value)}.`);
  if ('type' in v && v.type !== undefined && v.type !== 'worker') {
    d.errors.push(
      `"${field}.type" has an invalid value "${String(v.type)}". Only "worker" consumers can be configured in your Wrangler configuration.`,
    );
  }
  for (const [key, type] of CONSUMER_OPTIONS) {
    if (!isOptionalProperty(v, key, type))
      d.errors.push(`"${field}" should, optionally, have a ${type} "${key}" field but got ${json(value)}.`);
  }
}

/** `validateQueues`: the field's type, its keys, each consumer and each producer. */
export function validateQueues(d: Diagnostics, value: unknown, envName: string | undefined): void {
  const path = envName === undefined ? 'queues' : `env.${envName}.queues`;
  if (typeof value !== 'object' || Array.isArray(value) || value === null) {
    d.errors.push(`The field "${path}" should be an object but got ${json(value)}.`);
    return;
  }
  const v = value as Record<string, unknown>;
  known(d, path, v, ['consumers', 'producers']);
  if (hasProperty(v, 'consumers')) {
    if (!Array.isArray(v.consumers))
      d.errors.push(`The field "${path}.consumers" should be an array but got ${json(v.consumers)}.`);
    else v.consumers.forEach((c, i) => consumer(d, `${path}.consumers[${i}]`, c));
  }
  if (hasProperty(v, 'producers')) {
    const list = envName === undefined ? 'queues.producers' : `env.${envName}.queues.producers`;
    if (!Array.isArray(v.producers))
      d.errors.push(`The field "${list}" should be an array but got ${json(v.producers)}.`);
    else v.producers.forEach((p, i) => producer(d, `${list}[${i}]`, p));
  }
}

/** A consumer entry's settings, as the Queue double names them. */
export function consumerSettings(c: QueueConsumerConfig): ConsumerSettings {
  const out: ConsumerSettings = {};
  if (c.max_batch_size !== undefined) out.maxBatchSize = c.max_batch_size;
  if (c.max_batch_timeout !== undefined) out.maxBatchTimeout = c.max_batch_timeout;
  if (c.max_retries !== undefined) out.maxRetries = c.max_retries;
  if (c.retry_delay !== undefined) out.retryDelay = c.retry_delay;
  if (c.dead_letter_queue !== undefined) out.deadLetterQueue = c.dead_letter_queue;
  return out;
}
