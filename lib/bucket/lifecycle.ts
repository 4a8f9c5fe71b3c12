/**
 * A bucket's lifecycle rules (docs r2/buckets/object-lifecycles; docs/sources/r2-api.md#lifecycle):
 * the rule shape of R2's REST API (the `cloudflare` SDK's `LifecycleUpdateParams.Rule`), their
 * validation, the default rule every new bucket has, and when a rule acts on an object or an
 * upload. A setting of the bucket, kept in its configuration (config.ts); the layer (layer.ts)
 * applies it on the double's clock. Each surface reads and writes its own format of the same rules:
 * the REST API its JSON (lib/r2-api/lifecycle.ts), the S3 view its XML (lib/s3/lifecycle.ts).
 *
 * When rules act. Production removes objects "typically within 24 hours" of their expiry (docs
 * r2/buckets/object-lifecycles); a test wants to know when. So by default a rule acts at the exact
 * moment its condition holds on the bucket's clock (`ManualClock`, fake timers): the first
 * operation on the bucket at or after that moment sees the object deleted or moved to
 * InfrequentAccess. Timing `'daily'` models production's batch instead: an action becomes due at
 * the first 00:00 UTC at or after its condition holds, so always within 24 hours, still
 * deterministic.
 */

import { isRecord, ruleList } from './rule-list.js';
import { describe } from './compat.js';

/** When an action is due: `maxAge` seconds after the object's upload (or the upload's start), or at `date`. */
export type LifecycleCondition =
  { readonly type: 'Age'; readonly maxAge: number } | { readonly type: 'Date'; readonly date: string };

export interface LifecycleRule {
  readonly id: string;
  readonly enabled: boolean;
  /** `prefix` absent or '' covers every key (wrangler sends `conditions: {}` without one: ws-lifecycle). */
  readonly conditions: { readonly prefix?: string };
  readonly deleteObjectsTransition?: { readonly condition: LifecycleCondition };
  readonly storageClassTransitions?: readonly {
    readonly condition: LifecycleCondition;
    readonly storageClass: 'InfrequentAccess';
  }[];
  /** Age only (the SDK's `AbortMultipartUploadsTransition.Condition`). */
  readonly abortMultipartUploadsTransition?: { readonly condition: { readonly type: 'Age'; readonly maxAge: number } };
}

/** How the double times rule actions: at the moment a condition holds, or at the next 00:00 UTC (see above). */
export type LifecycleTiming = 'exact' | 'daily';

/**
 * The `lifecycleTiming` option of whatever makes buckets (`new Bucket`, `CloudflareApi`,
 * `createEnv`), checked once here: undefined is the default, 'exact'; anything else but 'daily' is a
 * TypeError naming `owner`'s option.
 */
export function lifecycleTimingOption(v: unknown, owner: string): LifecycleTiming {
  if (v === undefined || v === 'exact' || v === 'daily') return v ?? 'exact';
  throw new TypeError(
    `${owner} option 'lifecycleTiming': expected 'exact' (the default: a rule acts at the moment its condition holds) or 'daily' (at the next 00:00 UTC, as production's "within 24 hours"), got ${describe(v)}.`,
  );
}

/** The docs' limit: "1000 rules" per bucket (r2/buckets/object-lifecycles). */
const MAX_LIFECYCLE_RULES = 1000;

/**
 * The rule every new bucket has (docs: "multipart uploads … expire seven days after initiation");
 * its JSON as the API shows it and wrangler lists it ("Default Multipart Abort Rule",
 * docs/sources/r2-api.md#lifecycle). A PUT that leaves it out removes it: the bucket's uploads then
 * never expire.
 */
export const DEFAULT_LIFECYCLE_RULES: readonly LifecycleRule[] = Object.freeze([
  Object.freeze({
    id: 'Default Multipart Abort Rule',
    enabled: true,
    conditions: Object.freeze({}),
    abortMultipartUploadsTransition: Object.freeze({
      condition: Object.freeze({ type: 'Age' as const, maxAge: 604_800 }),
    }),
  }),
]);

/** A rule set the surfaces refuse, with what is wrong; each surface answers it with its own error. */
export class LifecycleRuleError extends Error {
  override readonly name = 'LifecycleRuleError';
}

const bad = (why: string) => new LifecycleRuleError(why);

/** A whole number of seconds, as the API's `maxAge` (wrangler sends days × 86400). */
function seconds(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw bad(`${where}: maxAge must be a non-negative integer number of seconds`);
  return v;
}

function date(v: unknown, where: string): string {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw bad(`${where}: date must be an ISO 8601 date-time`);
  return v;
}

function condition(v: unknown, where: string, ageOnly: boolean): LifecycleCondition {
  if (!isRecord(v)) throw bad(`${where}: condition must be an object`);
  if (v.type === 'Age') return Object.freeze({ type: 'Age', maxAge: seconds(v.maxAge, where) });
  if (v.type === 'Date' && !ageOnly) return Object.freeze({ type: 'Date', date: date(v.date, where) });
  throw bad(`${where}: condition type must be ${ageOnly ? "'Age'" : "'Age' or 'Date'"}`);
}

/**
 * The rules of a request, validated and frozen (the caller's objects are never kept). Shapes follow
 * the SDK's types (`LifecycleUpdateParams`); fields the API does not define are ignored, as the
 * API's JSON decoder does. Not established: the API's own texts for each refusal (the surfaces
 * answer with their malformed-body error and this message).
 */
export function lifecycleRules(input: unknown): readonly LifecycleRule[] {
  return ruleList(input, MAX_LIFECYCLE_RULES, bad, (r, at): LifecycleRule => {
    const c = r.conditions ?? {};
    if (!isRecord(c) || (c.prefix !== undefined && typeof c.prefix !== 'string'))
      throw bad(`${at}.conditions.prefix must be a string`);
    const rule: { -readonly [K in keyof LifecycleRule]: LifecycleRule[K] } = {
      id: r.id,
      enabled: r.enabled,
      conditions: Object.freeze(c.prefix === undefined ? {} : { prefix: c.prefix as string }),
    };
    if (r.deleteObjectsTransition !== undefined) {
      const t = r.deleteObjectsTransition;
      if (!isRecord(t)) throw bad(`${at}.deleteObjectsTransition must be an object`);
      rule.deleteObjectsTransition = Object.freeze({
        condition: condition(t.condition, `${at}.deleteObjectsTransition`, false),
      });
    }
    if (r.storageClassTransitions !== undefined) {
      const ts = r.storageClassTransitions;
      if (!Array.isArray(ts)) throw bad(`${at}.storageClassTransitions must be an array`);
      rule.storageClassTransitions = Object.freeze(
        ts.map((t, j) => {
          const w = `${at}.storageClassTransitions[${j}]`;
          if (!isRecord(t)) throw bad(`${w} must be an object`);
          // The only class R2 transitions to [cts `storageClass: 'InfrequentAccess'`].
          if (t.storageClass !== 'InfrequentAccess') throw bad(`${w}.storageClass must be 'InfrequentAccess'`);
          return Object.freeze({
            condition: condition(t.condition, w, false),
            storageClass: 'InfrequentAccess' as const,
          });
        }),
      );
    }
    if (r.abortMultipartUploadsTransition !== undefined) {
      const t = r.abortMultipartUploadsTransition;
      if (!isRecord(t)) throw bad(`${at}.abortMultipartUploadsTransition must be an object`);
      const cond = condition(t.condition, `${at}.abortMultipartUploadsTransition`, true) as {
        type: 'Age';
        maxAge: number;
      };
      rule.abortMultipartUploadsTransition = Object.freeze({ condition: cond });
    }
    return Object.freeze(rule);
  });
}

// ---- when rules act -----------------------------------------------------------------------------

const DAY_MS = 86_400_000;

/** When `cond` holds for something that began at `start` (epoch ms), as `timing` makes it due. */
function dueAt(cond: LifecycleCondition, start: number, timing: LifecycleTiming): number {
  const holds = cond.type === 'Age' ? start + cond.maxAge * 1000 : Date.parse(cond.date);
  return timing === 'daily' ? Math.ceil(holds / DAY_MS) * DAY_MS : holds;
}

const covers = (rule: LifecycleRule, key: string) => rule.enabled && key.startsWith(rule.conditions.prefix ?? '');

/** What the rules hold for an object: when it is deleted and when it moves to InfrequentAccess (Infinity: never). */
export interface ObjectFate {
  deleteAt: number;
  infrequentAt: number;
}

/**
 * The earliest deletion and the earliest transition of the rules covering `key`: where rules overlap,
 * the earlier expiry takes precedence (docs r2/buckets/object-lifecycles, the overlapping-rules
 * example). The caller lets a deletion win over a transition due at the same pass (docs: "the
 * delete wins").
 */
export function objectFate(
  rules: readonly LifecycleRule[],
  key: string,
  uploaded: number,
  timing: LifecycleTiming,
): ObjectFate {
  let deleteAt = Infinity;
  let infrequentAt = Infinity;
  for (const r of rules) {
    if (!covers(r, key)) continue;
    if (r.deleteObjectsTransition)
      deleteAt = Math.min(deleteAt, dueAt(r.deleteObjectsTransition.condition, uploaded, timing));
    for (const t of r.storageClassTransitions ?? [])
      infrequentAt = Math.min(infrequentAt, dueAt(t.condition, uploaded, timing));
  }
  return { deleteAt, infrequentAt };
}

/**
 * `objectFate` for every key under `prefix`, worked out once for a pass over them (layer.ts
 * `#pass`): a rule whose prefix is a prefix of `prefix` covers every one of those keys, so such
 * rules fold into the least age and the earliest date of each action, and only rules with longer
 * prefixes are looked at key by key. The answers are objectFate's: adding the upload time and the
 * daily rounding both keep order, so the least of the results is the result of the least. (A pass
 * over 100,000 objects read every rule for each object, which cost a quarter of it.)
 */
export class FatesUnder {
  readonly #daily: boolean;
  readonly #deleteAge: number;
  readonly #deleteDate: number;
  readonly #infrequentAge: number;
  readonly #infrequentDate: number;
  /** Enabled rules covering only some keys under the prefix (longer prefixes): checked key by key. */
  readonly #some: readonly LifecycleRule[];
  readonly #timing: LifecycleTiming;

  constructor(rules: readonly LifecycleRule[], prefix: string, timing: LifecycleTiming) {
    this.#timing = timing;
    this.#daily = timing === 'daily';
    let deleteAge = Infinity;
    let deleteDate = Infinity;
    let infrequentAge = Infinity;
    let infrequentDate = Infinity;
    const some: LifecycleRule[] = [];
    for (const r of rules) {
      if (!r.enabled) continue;
      const p = r.conditions.prefix ?? '';
      if (!prefix.startsWith(p)) {
        // A longer prefix covers some keys under `prefix`; any other covers none of them.
        if (p.startsWith(prefix)) some.push(r);
        continue;
      }
      const d = r.deleteObjectsTransition?.condition;
      if (d) {
        if (d.type === 'Age') deleteAge = Math.min(deleteAge, d.maxAge * 1000);
        else deleteDate = Math.min(deleteDate, Date.parse(d.date));
      }
      for (const t of r.storageClassTransitions ?? []) {
        if (t.condition.type === 'Age') infrequentAge = Math.min(infrequentAge, t.condition.maxAge * 1000);
        else infrequentDate = Math.min(infrequentDate, Date.parse(t.condition.date));
      }
    }
    this.#deleteAge = deleteAge;
    this.#deleteDate = deleteDate;
    this.#infrequentAge = infrequentAge;
    this.#infrequentDate = infrequentDate;
    this.#some = some;
  }

  /** When the object at `key` uploaded at `uploaded` is deleted (Infinity: never). */
  deleteAt(key: string, uploaded: number): number {
    let at = this.#round(Math.min(uploaded + this.#deleteAge, this.#deleteDate));
    for (const r of this.#some) {
      if (r.deleteObjectsTransition && key.startsWith(r.conditions.prefix!))
        at = Math.min(at, dueAt(r.deleteObjectsTransition.condition, uploaded, this.#timing));
    }
    return at;
  }

  /** When it moves to InfrequentAccess (Infinity: never). */
  infrequentAt(key: string, uploaded: number): number {
    let at = this.#round(Math.min(uploaded + this.#infrequentAge, this.#infrequentDate));
    for (const r of this.#some) {
      if (!r.storageClassTransitions || !key.startsWith(r.conditions.prefix!)) continue;
      for (const t of r.storageClassTransitions) at = Math.min(at, dueAt(t.condition, uploaded, this.#timing));
    }
    return at;
  }

  #round(holds: number): number {
    return this.#daily ? Math.ceil(holds / DAY_MS) * DAY_MS : holds;
  }
}

/** When an upload of `key` started at `created` is aborted by the rules (Infinity: never). */
export function uploadAbortAt(
  rules: readonly LifecycleRule[],
  key: string,
  created: number,
  timing: LifecycleTiming,
): number {
  let at = Infinity;
  for (const r of rules) {
    if (covers(r, key) && r.abortMultipartUploadsTransition)
      at = Math.min(at, dueAt(r.abortMultipartUploadsTransition.condition, created, timing));
  }
  return at;
}

/** Whether any enabled rule acts on objects (a bucket with none never needs a lifecycle pass). */
export const actsOnObjects = (rules: readonly LifecycleRule[]) =>
  rules.some(
    (r) => r.enabled && (r.deleteObjectsTransition !== undefined || (r.storageClassTransitions?.length ?? 0) > 0),
  );

/**
 * The prefixes a pass must list to see every object an enabled object rule covers, none inside
 * another ('' alone when a rule covers the whole bucket), so a pass lists each object at most once.
 */
export function passPrefixes(rules: readonly LifecycleRule[]): string[] {
  const all = rules
    .filter(
      (r) => r.enabled && (r.deleteObjectsTransition !== undefined || (r.storageClassTransitions?.length ?? 0) > 0),
    )
    .map((r) => r.conditions.prefix ?? '')
    .sort();
  const out: string[] = [];
  for (const p of all) if (!out.some((q) => p.startsWith(q))) out.push(p);
  return out;
}
