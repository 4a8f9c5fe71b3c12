/**
 * The two compatibility switches the producer binding reads (workerd compatibility-date.capnp):
 * `queues_json_messages` (2024-03-18; `no_queues_json_messages`): the default content type is
 * `json`, `v8` before; `queue_expose_error_codes` (2026-03-12; `no_queue_expose_error_codes`): a
 * refused send says the service's cause and code (errors.ts). Read from the generated table of
 * workerd's flags the bucket uses, so both follow one copy of workerd's file.
 */
import { WORKERD_COMPAT_FLAGS } from '../bucket/compat-flags.js';

export interface QueueCompat {
  readonly jsonByDefault: boolean;
  readonly exposeErrorCodes: boolean;
}

const row = (field: string) => WORKERD_COMPAT_FLAGS.find((r) => r[0] === field)!;

function on(field: string, date: string | undefined, flags: readonly string[]): boolean {
  const [, enable, disable, since] = row(field);
  if (flags.includes(enable)) return true;
  if (flags.includes(disable)) return false;
  return date === undefined || date >= since;
}

/** The switches for a date (YYYY-MM-DD; undefined is today) and flags. */
export function resolveQueueCompat(date: unknown, flags: unknown): QueueCompat {
  if (date !== undefined && (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date))) {
    throw new TypeError(
      `Queue option 'compatibilityDate': ${JSON.stringify(date)} is not a compatibility date; give one as 'YYYY-MM-DD'.`,
    );
  }
  if (flags !== undefined && !(Array.isArray(flags) && flags.every((f) => typeof f === 'string'))) {
    throw new TypeError("Queue option 'compatibilityFlags': expected an array of flag names.");
  }
  const list = (flags as string[] | undefined) ?? [];
  return {
    jsonByDefault: on('queuesJsonMessages', date as string | undefined, list),
    exposeErrorCodes: on('queueExposeErrorCodes', date as string | undefined, list),
  };
}
