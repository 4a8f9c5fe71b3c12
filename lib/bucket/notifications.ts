/**
 * A bucket's event notification rules and the messages they send (docs
 * r2/buckets/event-notifications; docs/sources/r2-api.md#event-notifications): per queue, rules of
 * actions with an optional key prefix and suffix; an object change whose action and key a rule
 * matches sends one message, with exactly R2's body, to that rule's queue.
 *
 * A setting of the bucket (config.ts), so every surface's writes notify alike: the bucket layer
 * (layer.ts) reports each change once it has happened; a bucket in an account emits it to the
 * account as `OBJECT_CHANGED`, and the account's listener (lib/account/events.ts) delivers the
 * messages to its queues. Values are replaced whole, never changed in
 * place, so a snapshot of the configuration is O(1).
 */
import { utf8Length } from '../bytes.js';
import { EventTopic } from '../support/backend.js';
import { SLAB_MAX_BYTES } from './slabs.js';

/** The actions R2 notifies (OpenAPI enum; `AbortMultipartUpload` is in wrangler's type but no rule can name it). */
const NOTIFICATION_ACTIONS = [
  'PutObject',
  'CopyObject',
  'DeleteObject',
  'CompleteMultipartUpload',
  'LifecycleDeletion',
] as const;
export type NotificationAction = (typeof NOTIFICATION_ACTIONS)[number];

/** The rule event types wrangler offers, and the actions each stands for (wrangler `actionsForEventCategories`). */
export const EVENT_TYPE_ACTIONS: Readonly<Record<'object-create' | 'object-delete', readonly NotificationAction[]>> = {
  'object-create': ['PutObject', 'CopyObject', 'CompleteMultipartUpload'],
  'object-delete': ['DeleteObject', 'LifecycleDeletion'],
};

/** What a caller gives for one rule (the API's PUT body item). */
export interface NotificationRuleInit {
  actions: readonly NotificationAction[];
  prefix?: string;
  suffix?: string;
  description?: string;
}

/** A rule as kept and shown: the server adds `ruleId` and `createdAt` (SDK `EventNotificationGetResponse`). */
export interface NotificationRule {
  readonly ruleId: string;
  readonly createdAt: string;
  readonly actions: readonly NotificationAction[];
  readonly prefix: string;
  readonly suffix: string;
  readonly description?: string;
}

/** One queue's rules on the bucket. */
export interface QueueRules {
  readonly queueId: string;
  readonly rules: readonly NotificationRule[];
}

/** The body a consumer receives (the docs' example, field for field). */
export interface NotificationMessage {
  account: string;
  action: NotificationAction;
  bucket: string;
  object: { key: string; size?: number; eTag?: string };
  eventTime: string;
  copySource?: { bucket: string; object: string };
}

/**
 * At most this many rules on a bucket, over all its queues (docs r2/buckets/event-notifications,
 * since GA; the beta allowed 5).
 */
const MAX_RULES_PER_BUCKET = 100;

/** Why a rule set is refused; the API phrases it (lib/r2-api/notifications.ts). */
export type RuleProblem =
  { kind: 'invalid'; detail: string } | { kind: 'overlap'; with: NotificationRule } | { kind: 'too-many' };

/** The rules' fields checked as the API does; a string describing the first problem, or undefined. */
function invalidRule(init: unknown): string | undefined {
  if (typeof init !== 'object' || init === null || Array.isArray(init)) return 'a rule must be an object';
  const r = init as Record<string, unknown>;
  if (!Array.isArray(r.actions) || r.actions.length === 0) return 'actions must be a non-empty array';
  for (const a of r.actions)
    if (!(NOTIFICATION_ACTIONS as readonly unknown[]).includes(a)) return `unknown action ${JSON.stringify(a)}`;
  for (const f of ['prefix', 'suffix', 'description'] as const) {
    if (r[f] !== undefined && r[f] !== null && typeof r[f] !== 'string') return `${f} must be a string`;
  }
  return undefined;
}

/**
 * Whether two rules could both fire on one request: a shared action, and a key both could match
 * (one prefix starts the other, one suffix ends the other; a key can always be long enough for both).
 * R2 refuses such a pair on one queue (cloudflare-docs#17949 and PR #19130: "we will reject any
 * rule that overlaps with another rule such that multiple rules may trigger from the same R2
 * request"; rules of the same action on two different queues were accepted there).
 */
export function overlaps(
  a: Pick<NotificationRule, 'actions' | 'prefix' | 'suffix'>,
  b: Pick<NotificationRule, 'actions' | 'prefix' | 'suffix'>,
): boolean {
  if (!a.actions.some((x) => b.actions.includes(x))) return false;
  const prefixes = a.prefix.startsWith(b.prefix) || b.prefix.startsWith(a.prefix);
  const suffixes = a.suffix.endsWith(b.suffix) || b.suffix.endsWith(a.suffix);
  return prefixes && suffixes;
}

/**
 * The bucket's rules with `inits` added to queue `queueId` (rules are added, never replaced: each
 * `wrangler r2 bucket notification create` PUTs one rule), or the problem.
 */
export function addRules(
  current: readonly QueueRules[],
  queueId: string,
  inits: readonly NotificationRuleInit[],
  newId: () => string,
  now: number,
): { ok: readonly QueueRules[] } | { problem: RuleProblem } {
  const createdAt = new Date(now).toISOString();
  const added: NotificationRule[] = [];
  const existing = current.find((q) => q.queueId === queueId)?.rules ?? [];
  for (const init of inits) {
    const detail = invalidRule(init);
    if (detail) return { problem: { kind: 'invalid', detail } };
    const rule: NotificationRule = {
      ruleId: newId(),
      createdAt,
      actions: Object.freeze([...new Set(init.actions)]),
      prefix: init.prefix ?? '',
      suffix: init.suffix ?? '',
      ...(typeof init.description === 'string' ? { description: init.description } : {}),
    };
    const clash = [...existing, ...added].find((r) => overlaps(r, rule));
    if (clash) return { problem: { kind: 'overlap', with: clash } };
    added.push(Object.freeze(rule));
  }
  const total = current.reduce((n, q) => n + q.rules.length, 0) + added.length;
  if (total > MAX_RULES_PER_BUCKET) return { problem: { kind: 'too-many' } };
  const rules = Object.freeze([...existing, ...added]);
  const others = current.filter((q) => q.queueId !== queueId);
  return { ok: Object.freeze([...others, Object.freeze({ queueId, rules })]) };
}

/** The bucket's rules without queue `queueId`'s (all of them, or those of `ruleIds`). */
export function removeRules(
  current: readonly QueueRules[],
  queueId: string,
  ruleIds?: readonly string[],
): readonly QueueRules[] {
  return Object.freeze(
    current.flatMap((q) => {
      if (q.queueId !== queueId) return [q];
      if (!ruleIds) return [];
      const rules = q.rules.filter((r) => !ruleIds.includes(r.ruleId));
      return rules.length ? [Object.freeze({ queueId, rules: Object.freeze(rules) })] : [];
    }),
  );
}

/** The queues a change of `key` by `action` notifies: at most one rule per queue can match (no overlaps). */
export function queuesFor(rules: readonly QueueRules[], action: NotificationAction, key: string): string[] {
  // Plain loops, no closures: this runs on every write to a bucket with rules.
  const out: string[] = [];
  for (const q of rules) {
    for (const r of q.rules) {
      if (r.actions.includes(action) && key.startsWith(r.prefix) && key.endsWith(r.suffix)) {
        out.push(q.queueId);
        break;
      }
    }
  }
  return out;
}

/** One change of one object, as the layer reports it. */
export interface ObjectEvent {
  action: NotificationAction;
  key: string;
  /**
   * Size and etag of the object written (the stored object itself: `etagKnown` false when reading
   * `etag` would hash its bytes); absent for deletes (docs r2/buckets/event-notifications: "absent
   * for object-delete events").
   */
  object?: { readonly size: number; readonly etag: string; readonly etagKnown?: boolean };
  /** When it happened (epoch ms): the object's `uploaded` for a write, the clock for a delete. */
  time: number;
  copySource?: { bucket: string; object: string };
  /** For a delete: whether the key held an object (a delete of a missing key notifies only if the account says so). */
  existed?: boolean;
}

/** A change in a bucket the account holds under `bucket`, with the bucket's notification rules then. */
export interface ObjectChanged {
  readonly bucket: string;
  readonly rules: readonly QueueRules[];
  readonly event: ObjectEvent;
}

/** The topic a bucket's changes are told to its account on (lib/support/backend.ts), once they happened. */
export const OBJECT_CHANGED = new EventTopic<ObjectChanged>('r2.object-changed');

/** The message body R2 sends for `event` in `bucket` of `account`. */
export function messageBody(account: string, bucket: string, event: ObjectEvent): NotificationMessage {
  const body: NotificationMessage = {
    account,
    action: event.action,
    bucket,
    object: event.object ? { key: event.key, size: event.object.size, eTag: event.object.etag } : { key: event.key },
    eventTime: new Date(event.time).toISOString(),
  };
  if (event.copySource) body.copySource = { ...event.copySource };
  return body;
}

/** A message as R2 hands it to a queue: its JSON text, made when first read, and that text's size in bytes. */
export interface MessageJson {
  readonly bytes: number;
  text(): string;
}

/**
 * The message `event` sends, as JSON made only when the consumer (or a log, or `pending`) reads it:
 * a notified put then costs little more than a plain one (bench/notifications.ts). The text is
 * `JSON.stringify(messageBody(...))` whenever it is made, since the event's values never change.
 * The etag of a small single-part object (one in a shared slab, ≤ SLAB_MAX_BYTES) is hashed then
 * too; a larger object's is read now, so a waiting message never keeps more than a slab alive.
 */
export function messageJson(account: string, bucket: string, event: ObjectEvent): MessageJson {
  const o = event.object;
  const kept =
    o && !(o.etagKnown === false && o.size <= SLAB_MAX_BYTES)
      ? { ...event, object: { size: o.size, etag: o.etag } }
      : event;
  return new NotificationJson(account, bucket, kept);
}

/** A class, not a closure per message (one is made per notified change). */
class NotificationJson implements MessageJson {
  readonly bytes: number;
  readonly #account: string;
  readonly #bucket: string;
  readonly #event: ObjectEvent;
  constructor(account: string, bucket: string, event: ObjectEvent) {
    this.#account = account;
    this.#bucket = bucket;
    this.#event = event;
    this.bytes = messageBytes(account, bucket, event);
  }
  text(): string {
    return JSON.stringify(messageBody(this.#account, this.#bucket, this.#event));
  }
}

/**
 * The UTF-8 length of `JSON.stringify(messageBody(account, bucket, event))`, counted without
 * making it (nor hashing the etag: an unknown one is a single-part md5, 32 hex digits). Follows
 * messageBody's fields in order; spec/bucket/notifications.test.ts checks the two agree.
 */
export function messageBytes(account: string, bucket: string, event: ObjectEvent): number {
  // {"account":A,"action":"X","bucket":B,"object":{"key":K[,"size":S,"eTag":E]},"eventTime":T[,"copySource":{"bucket":CB,"object":CO}]}
  let n = framing(account, bucket) + event.action.length + jsonBytes(event.key);
  const o = event.object;
  if (o) n += 8 + String(o.size).length + 8 + (o.etagKnown === false ? 34 : jsonBytes(o.etag));
  n +=
    13 +
    (event.time >= MIN_4_DIGIT_YEAR && event.time < MAX_4_DIGIT_YEAR
      ? 26
      : jsonBytes(new Date(event.time).toISOString()));
  if (event.copySource) n += 24 + jsonBytes(event.copySource.bucket) + 10 + jsonBytes(event.copySource.object) + 1;
  return n + 1;
}

/**
 * The bytes of the body's fixed text, account and bucket (the same for every message of a bucket:
 * the last pair's answer is kept). `{"account":A,"action":""` 11+A+10+2, `,"bucket":B` 10+B,
 * `,"object":{"key":` 17, and the object's closing brace 1.
 */
function framing(account: string, bucket: string): number {
  if (account !== lastFraming.account || bucket !== lastFraming.bucket)
    lastFraming = { account, bucket, bytes: 11 + jsonBytes(account) + 10 + 2 + 10 + jsonBytes(bucket) + 17 + 1 };
  return lastFraming.bytes;
}
let lastFraming = { account: '', bucket: '', bytes: 0 };

/** `toISOString` is 24 characters for years 0000 to 9999 (outside them it writes ±YYYYYY). */
const MIN_4_DIGIT_YEAR = new Date('0000-01-01T00:00:00.000Z').getTime();
const MAX_4_DIGIT_YEAR = new Date('+010000-01-01T00:00:00.000Z').getTime();

/** Printable ASCII that JSON writes as itself (no quote, backslash or control character). */
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The UTF-8 length of `JSON.stringify(s)`. */
const jsonBytes = (s: string): number => (PLAIN_JSON.test(s) ? s.length + 2 : utf8Length(JSON.stringify(s)));
