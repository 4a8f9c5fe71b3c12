/**
 * R2's event notification rules in the `/client/v4` router: under
 * `/accounts/{id}/event_notifications/r2/{bucket}/configuration[/queues/{queue_id}]` (not under
 * `r2/buckets`; docs/sources/r2-api.md#event-notifications, wrangler
 * `src/r2/helpers/notification.ts`, the SDK's `r2.buckets.eventNotifications`). The rules
 * themselves are the bucket's (lib/bucket/notifications.ts); the queues are the account's
 * (lib/queue/account-queues.ts).
 */
import { HEX32 } from '../api/router.js';
import { ok } from '../api/envelope.js';
import { fail } from '../api/errors.js';
import type { Handler, Incoming, Route, RouteParams, RouteTable } from '../api/router.js';
import { bucketLayer } from '../bucket/internal.js';
import type { BucketLayer } from '../bucket/layer.js';
import { addRules, removeRules, type NotificationRuleInit, type QueueRules } from '../bucket/notifications.js';
import { queueById, type AccountQueue } from '../queue/account-queues.js';
import { addressedBuckets, type R2Service } from './service.js';
import { permitted } from './routes.js';
import { settingCall } from './settings.js';

/**
 * Errors of the notification service. Bucket not found is 10085 with the service's message key
 * (workers-sdk#5514: `workers.api.error.bucket_not_found [code: 10085]`). The others are not
 * established: their codes are R2's nearest documented ones and their texts ours (declared).
 */
const notificationErrors = {
  noSuchBucket: () => fail(404, 10085, 'workers.api.error.bucket_not_found'),
  /**
   * A bucket with no rules on any queue: the published schema's "No Configuration Found response"
   * (cloudflare/api-schemas openapi.json, `GET …/configuration`, 404 with this code and key).
   */
  noConfiguration: () => fail(404, 11015, 'workers.api.error.no_configs_found_for_bucket'),
  /** Queues API: 10104 QueueNotFound, "Queue does not exist" (docs queues/reference/error-codes). */
  noSuchQueue: () => fail(404, 10104, 'Queue does not exist'),
  /** placeholder code (R2's malformed-body code); wrangler reports 400 for an invalid configuration. */
  invalid: (detail: string) => fail(400, 10040, `Invalid event notification configuration: ${detail}`),
  /** placeholder code; cloudflare-docs#17949 reports the text as about "conflicting event notification rules". */
  overlap: (ruleId: string) =>
    fail(
      400,
      10040,
      `Invalid event notification configuration: the rule overlaps with rule ${ruleId}: conflicting event notification rules`,
    ),
  /** R2's malformed-body answer (10040, docs/sources/r2-api.md#buckets). */
  malformed: () => fail(400, 10040, 'The JSON you provided was not well formed.'),
  tooMany: () => fail(400, 10040, 'Invalid event notification configuration: a bucket may have at most 100 rules'),
};

export const notificationRoutes: RouteTable<R2Service> = (segments): Route<R2Service> | undefined => {
  if (segments[0] !== 'accounts' || segments[2] !== 'event_notifications' || segments[3] !== 'r2') return undefined;
  const accountId = segments[1]!;
  if (!HEX32.test(accountId) || segments[5] !== 'configuration') return undefined;
  const bucket = segments[4]!;
  // The token needs R2 permission, as for every R2 route ("Workers R2 Storage Write": api-en).
  if (segments.length === 6) return { methods: permitted({ GET: getConfiguration(bucket) }), accountId };
  if (segments.length === 8 && segments[6] === 'queues') {
    const queueId = segments[7]!;
    return {
      methods: permitted({
        GET: getQueueRules(bucket, queueId),
        PUT: putRules(bucket, queueId),
        DELETE: deleteRules(bucket, queueId),
      }),
      accountId,
    };
  }
  return undefined;
};

/**
 * The bucket's layer, in the jurisdiction `cf-r2-jurisdiction` addresses (wrangler sends it with
 * `-J`), as the notification service finds it (10085 when the account has no such bucket).
 */
function layerOf(svc: R2Service, req: Incoming, params: RouteParams, name: string) {
  const bucket = addressedBuckets(svc, req, params).buckets.get(name);
  const layer = bucket && bucketLayer(bucket);
  if (!layer) throw notificationErrors.noSuchBucket();
  return layer;
}

function queueOf(svc: R2Service, params: RouteParams, id: string): AccountQueue {
  const queue = queueById(params.account ?? svc.account, id);
  if (!queue) throw notificationErrors.noSuchQueue();
  return queue;
}

const presentQueueRules = (svc: R2Service, params: RouteParams, q: QueueRules) => ({
  queueId: q.queueId,
  queueName: queueById(params.account ?? svc.account, q.queueId)?.name ?? '',
  rules: q.rules.map((r) => ({ ...r })),
});

/** The bucket's notification rules, read through its layer (logged and faulted as getBucketNotifications). */
const rulesOf = (layer: BucketLayer) =>
  settingCall(layer.readSettings('api', 'getBucketNotifications', (c) => c.notifications));

const getConfiguration =
  (bucket: string): Handler<R2Service> =>
  async (svc, req, params) => {
    const layer = layerOf(svc, req, params, bucket);
    const queues = (await rulesOf(layer)).filter((q) => q.rules.length > 0);
    if (queues.length === 0) throw notificationErrors.noConfiguration();
    return ok({ bucketName: bucket, queues: queues.map((q) => presentQueueRules(svc, params, q)) });
  };

const getQueueRules =
  (bucket: string, queueId: string): Handler<R2Service> =>
  async (svc, req, params) => {
    const layer = layerOf(svc, req, params, bucket);
    const queue = queueOf(svc, params, queueId);
    const rules = (await rulesOf(layer)).find((q) => q.queueId === queue.id) ?? { queueId: queue.id, rules: [] };
    return ok(presentQueueRules(svc, params, rules));
  };

const putRules =
  (bucket: string, queueId: string): Handler<R2Service> =>
  async (svc, req, params) => {
    const layer = layerOf(svc, req, params, bucket);
    const queue = queueOf(svc, params, queueId);
    const body = await jsonObject(req);
    if (!Array.isArray(body.rules)) throw notificationErrors.invalid('rules must be an array');
    // The schema's `minItems: 1` (the SDK's EventNotificationUpdateParams): a PUT adds at least one rule.
    if (body.rules.length === 0) throw notificationErrors.invalid('rules must hold at least one rule');
    // Checked against the rules as stored, in the change's own transaction.
    await settingCall(
      layer.changeSettings('api', 'putBucketNotifications', (config) => {
        const result = addRules(
          config.notifications,
          queue.id,
          body.rules as NotificationRuleInit[],
          () => crypto.randomUUID(),
          svc.now(),
        );
        if ('problem' in result) {
          const p = result.problem;
          throw p.kind === 'invalid'
            ? notificationErrors.invalid(p.detail)
            : p.kind === 'overlap'
              ? notificationErrors.overlap(p.with.ruleId)
              : notificationErrors.tooMany();
        }
        config.notifications = result.ok;
      }),
    );
    // The SDK types the result `unknown`; wrangler prints nothing of it.
    return ok({});
  };

const deleteRules =
  (bucket: string, queueId: string): Handler<R2Service> =>
  async (svc, req, params) => {
    const layer = layerOf(svc, req, params, bucket);
    const queue = queueOf(svc, params, queueId);
    const text = await req.text();
    let ruleIds: string[] | undefined;
    if (text.trim() !== '') {
      const body = parseObject(text);
      if (body.ruleIds !== undefined) {
        if (!Array.isArray(body.ruleIds) || !body.ruleIds.every((r) => typeof r === 'string'))
          throw notificationErrors.invalid('ruleIds must be an array of strings');
        ruleIds = body.ruleIds as string[];
      }
    }
    await settingCall(
      layer.changeSettings(
        'api',
        'putBucketNotifications',
        (config) => (config.notifications = removeRules(config.notifications, queue.id, ruleIds)),
      ),
    );
    return ok({});
  };

async function jsonObject(req: Incoming): Promise<Record<string, unknown>> {
  return parseObject(await req.text());
}

function parseObject(text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw notificationErrors.malformed();
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw notificationErrors.malformed();
  return v as Record<string, unknown>;
}
