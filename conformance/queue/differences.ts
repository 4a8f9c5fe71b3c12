/**
 * Where a Queues target knowingly differs from production: declared once, here, as data. The suite
 * asserts production (cloudflare-docs queues pages: queues/platform/limits,
 * queues/configuration/batching-retries, queues/configuration/javascript-apis);
 * a test that meets a difference names it, and a target listing the id runs it as an expected
 * failure, so a difference that disappears turns red.
 *
 * Evidence for Miniflare: node_modules/miniflare 4.20260730.0,
 * dist/src/workers/queues/broker.worker.js (workers-sdk packages/miniflare/src/workers/queues/).
 */
export const queueDifferences = {
  'miniflare-error-causes': {
    shownBy: "Miniflare's queue broker",
    why:
      'A send the service refuses (size, count, delay) is answered without the cf-queues-error-cause/-code headers, so workerd ' +
      'says "Unknown Internal Error (15000)" (or "Queue send failed: <broker text>" before 2026-03-12); production names the cause and ' +
      'its code (10203–10206, cloudflare-docs queues/reference/error-codes).',
  },
  'miniflare-batch-288kb': {
    shownBy: "Miniflare's queue broker",
    why: 'sendBatch is refused above (256+32)×1000 bytes (MAX_MESSAGE_BATCH_SIZE); production refuses above 256 KB (limits page).',
  },
  'miniflare-delay-24h': {
    shownBy: "Miniflare's queue broker",
    why: "Delays up to 86,400 s are accepted (QueueMessageDelaySchema max 86400); production's limit is 12 hours (limits page: delaySeconds 12 hours).",
  },
  'miniflare-retry-ignores-acks': {
    shownBy: "Miniflare's queue broker",
    why:
      'When the handler throws or calls retryAll(), every message of the batch is retried, explicit ack() calls included ' +
      '(its flush retries all when retryBatch.retry or outcome != ok); production retries the batch "except messages already acked ' +
      'explicitly", and a call on a message beats a later retryAll() (batching-retries.mdx).',
  },
  'miniflare-consumer-defaults': {
    shownBy: "Miniflare's queue broker",
    why:
      'A consumer with no settings gets batches of 5, a 1 s batch timeout and 2 retries (DEFAULT_BATCH_SIZE, DEFAULT_BATCH_TIMEOUT, ' +
      "DEFAULT_RETRIES; miniflare PR #618); production's defaults are 10, 5 s and 3 (batching-retries.mdx), which the double uses " +
      "(SIMULATOR_CONSUMER_DEFAULTS in edge-doubles/queue gives Miniflare's).",
  },
  'miniflare-bytes-arraybuffer': {
    shownBy: "Miniflare's queue broker",
    why:
      'A bytes body reaches the consumer as an ArrayBuffer: the broker turns it into one (broker.worker.js deserialise: ' +
      'viewToBuffer) and hands it to Fetcher#queue as a plain value. workerd delivering from the production service gives a ' +
      'Uint8Array of the bytes (src/workerd/api/queue.c++ deserialize, content type "bytes": jsg::JsUint8Array::create; ' +
      "cloudflare/workerd at 6552d999, 2026-08-22). Both hold only the view's bytes.",
  },
  // ---- the double's Queues API consumers (lib/queue/consumers.ts, pull-consumer.ts; issue 28 point 3) ----
  'double-pull-held-batch': {
    shownBy: "the double's HTTP pull consumer",
    why:
      'While a pulled batch is held (some of its messages leased, not yet acked, retried or past their visibility timeout), a pull ' +
      "returns only that batch's messages not yet leased: messages sent after it wait until the batch is settled. The double's pull " +
      "consumer is the queue's consumer, holding one delivered batch of up to 100 (pull-consumer.ts), so pulled messages get the " +
      "Worker consumer's attempts, retry delays and dead-lettering; production's pulls are not known to group messages so " +
      '(cloudflare-docs queues/configuration/pull-consumers describes a lease per message, with a visibility timeout per pull).',
  },
  'unestablished-second-consumer-code': {
    shownBy: 'the double (production not established)',
    why:
      'Adding a consumer to a queue that has one is refused with the code and text wrangler printed from the API ' +
      '(workers-sdk#5347, 2024-03: "workers.api.error.consumer_exists [code: 11004]") and status 409, our choice: ' +
      "wrangler's message does not show the status. That a queue has one consumer is itself not established beyond " +
      "issue 28's reading: cloudflare-docs queues/configuration/pull-consumers says a consumer can be removed and a new " +
      'one attached "at any time" to switch between push and pull, while a third-party provider (alchemy.run, ' +
      'Cloudflare.Queues.Consumer) states one Worker consumer per queue with HTTP pull consumers able to coexist.',
  },
  'unestablished-pull-consumer-removal': {
    shownBy: 'the double (production not established)',
    why:
      'Removing an HTTP pull consumer gives its held batch back to the queue at once, leased messages included, with no attempt ' +
      "spent (pull-consumer.ts detachApiConsumer); whether production keeps a removed consumer's leases until their visibility " +
      'timeout, and whether it counts that as an attempt, was not observed.',
  },
  'unestablished-peek-ref': {
    shownBy: 'the double (production not established)',
    why:
      "A peeked message's ref (and a previewed one's lease_id) is the double's own token naming the queue and the message; production's " +
      "are encrypted tokens (the schema's example). A ref that finds nothing is a warning in the purge answer, `errors` staying empty; " +
      'a peek shows `attempts` as the attempt its next delivery would be; `preview/ack` retries leave the message as it is. None observed.',
  },
  'unestablished-lease-extension': {
    shownBy: 'the double (production not established)',
    why:
      'The schema says extending a lease "creates a new lease ID" without incrementing attempts, but its answer holds only ' +
      '`extendCount` and `warnings`: the double keeps the lease_id the client holds and moves its end to now plus ' +
      "visibility_timeout_ms (the consumer's, else 30 s).",
  },
  'unestablished-purge-status': {
    shownBy: 'the double (production not established)',
    why:
      "The purge status is `{ started_at, completed }`, both strings in the schema: the double purges at once, so it answers the last purge's " +
      'start (ISO 8601) and `completed: "true"`, and `{}` before any purge.',
  },
  'unestablished-empty-push': {
    shownBy: 'the double (production not established)',
    why:
      'A push without `body` (POST .../messages) and a batch push without `messages` (POST .../messages/batch) are refused with ' +
      'the body-shape error the route gives other malformed bodies; the 2026-08-14 schema marks both fields optional, and what ' +
      "production does with a message that has no body was not observed (the official SDK's generated tests send them, against " +
      'a mock server). A message with nothing in it is most likely a client bug, which a test double should surface.',
  },
  'unestablished-queue-metrics': {
    shownBy: 'the double (production not established)',
    why:
      'Queue metrics are "best-effort" and "may be approximate" in production; the double\'s are exact now, counting every message not ' +
      "yet acknowledged (those a Worker's delivery or a pull consumer's batch holds unsettled included) and the oldest one's send time.",
  },
} as const satisfies Record<string, { shownBy: string; why: string }>;

/** The id of a declared difference: a target lists the ones it shows in `differences`. */
export type QueueDifferenceId = keyof typeof queueDifferences;

/** What Miniflare 4's queues show. */
export const miniflareQueueDifferences: readonly QueueDifferenceId[] = [
  'miniflare-error-causes',
  'miniflare-batch-288kb',
  'miniflare-delay-24h',
  'miniflare-retry-ignores-acks',
  'miniflare-consumer-defaults',
  'miniflare-bytes-arraybuffer',
];

/**
 * What the double's Queues API consumers show (declared, not yet asserted by a conformance group:
 * no target here drives the API's consumers against production).
 */
export const doubleQueueApiDifferences: readonly QueueDifferenceId[] = [
  'double-pull-held-batch',
  'unestablished-second-consumer-code',
  'unestablished-pull-consumer-removal',
  'unestablished-peek-ref',
  'unestablished-lease-extension',
  'unestablished-purge-status',
  'unestablished-queue-metrics',
];
