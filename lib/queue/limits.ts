/**
 * Queues' numbers, as data: the producer's limits and the consumer's settings with their defaults.
 *
 * Production's limits: cloudflare-docs `queues/platform/limits.mdx` (128 KB a message and 1 KB is
 * 1000 bytes, 100 messages or 256 KB a `sendBatch`, delays up to 12 hours, 100 retries, batches of
 * 100, 60 s batch wait). The docs' error code page says "24 hours" for a message delay; the limits
 * page says 12: the double follows the limits page.
 */

/** Largest message body, in bytes (Miniflare's broker counts the body alone, and so does the double). */
export const MAX_MESSAGE_BYTES = 128_000;
/** Most messages in one `sendBatch`. */
export const MAX_BATCH_MESSAGES = 100;
/** Most bytes (bodies summed) in one `sendBatch`. */
export const MAX_BATCH_BYTES = 256_000;
/** Longest delay for `send`, `sendBatch`, `retry` and a producer's `delivery_delay`, in seconds. */
export const MAX_DELAY_SECONDS = 43_200;

/** A consumer's settings, as `[[queues.consumers]]` holds them (in seconds where a time). */
export interface ConsumerSettings {
  /** Messages per batch, 1–100. Production default 10. */
  maxBatchSize?: number;
  /** Seconds to wait for a batch to fill, 0–60. Production default 5. */
  maxBatchTimeout?: number;
  /** Redeliveries after the first attempt before a message is dead-lettered or dropped, 0–100. Default 3. */
  maxRetries?: number;
  /** Seconds a retried message waits before it is visible again, 0–43200. Default 0. */
  retryDelay?: number;
  /** Where messages go when their retries run out (by name); absent: they are dropped. */
  deadLetterQueue?: string;
}

export type ResolvedConsumerSettings = Required<Omit<ConsumerSettings, 'deadLetterQueue'>> & {
  deadLetterQueue?: string;
};

/**
 * Production's consumer defaults (cloudflare-docs `queues/configuration/configure-queues.mdx`,
 * `batching-retries.mdx`: batch 10, timeout 5 s, 3 retries), which the double uses.
 */
export const PRODUCTION_CONSUMER_DEFAULTS: Readonly<Required<Omit<ConsumerSettings, 'deadLetterQueue'>>> = {
  maxBatchSize: 10,
  maxBatchTimeout: 5,
  maxRetries: 3,
  retryDelay: 0,
};

/**
 * The local simulator's defaults (Miniflare's queue broker: DEFAULT_BATCH_SIZE 5,
 * DEFAULT_BATCH_TIMEOUT 1, DEFAULT_RETRIES 2; miniflare PR #618). Not the double's: declared here so
 * a test can ask for the simulator's behaviour (`new Queue({ consumerDefaults: SIMULATOR_CONSUMER_DEFAULTS })`)
 * and the conformance suite can name the difference (conformance/queue/differences.ts).
 */
export const SIMULATOR_CONSUMER_DEFAULTS: Readonly<Required<Omit<ConsumerSettings, 'deadLetterQueue'>>> = {
  maxBatchSize: 5,
  maxBatchTimeout: 1,
  maxRetries: 2,
  retryDelay: 0,
};

const RANGES: Record<keyof Omit<ConsumerSettings, 'deadLetterQueue'>, [number, number]> = {
  maxBatchSize: [1, 100],
  maxBatchTimeout: [0, 60],
  maxRetries: [0, 100],
  retryDelay: [0, MAX_DELAY_SECONDS],
};

/** Settings checked against production's ranges (a RangeError naming the setting), defaults filled in. */
export function resolveConsumerSettings(
  settings: ConsumerSettings | undefined,
  defaults: Readonly<Required<Omit<ConsumerSettings, 'deadLetterQueue'>>> = PRODUCTION_CONSUMER_DEFAULTS,
): ResolvedConsumerSettings {
  const out: ResolvedConsumerSettings = { ...defaults };
  for (const k of Object.keys(RANGES) as (keyof typeof RANGES)[]) {
    const v = settings?.[k];
    if (v === undefined) continue;
    const [lo, hi] = RANGES[k];
    if (typeof v !== 'number' || !(v >= lo && v <= hi) || (k !== 'maxBatchTimeout' && !Number.isInteger(v))) {
      throw new RangeError(
        `Queue consumer setting '${k}' must be ${k === 'maxBatchTimeout' ? 'a number' : 'an integer'} from ${lo} to ${hi}, got ${String(v)}`,
      );
    }
    out[k] = v;
  }
  const dlq = settings?.deadLetterQueue;
  if (dlq !== undefined) {
    if (typeof dlq !== 'string' || dlq === '')
      throw new TypeError(`Queue consumer setting 'deadLetterQueue' must be a queue name, got ${String(dlq)}`);
    out.deadLetterQueue = dlq;
  }
  return out;
}
