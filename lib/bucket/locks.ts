/**
 * A bucket's lock rules (bucket locks; docs r2/buckets/bucket-locks, docs/sources/r2-api.md#locks):
 * the REST API's rule shape (the `cloudflare` SDK's `LockUpdateParams.Rule`), its validation, and
 * until when a rule set keeps an object from deletion and overwrite. A setting of the bucket, kept in
 * its configuration (config.ts) and enforced by its layer (layer.ts) for every surface, and by the
 * lifecycle pass, which waits for a lock to end (docs: "bucket locks take precedence over lifecycle").
 */
import { isRecord, ruleList } from './rule-list.js';

type LockCondition =
  | { readonly type: 'Age'; readonly maxAgeSeconds: number }
  | { readonly type: 'Date'; readonly date: string }
  | { readonly type: 'Indefinite' };

export interface LockRule {
  readonly id: string;
  readonly enabled: boolean;
  /** Absent or '': the whole bucket (docs). */
  readonly prefix?: string;
  readonly condition: LockCondition;
}

/** The docs' limit: "up to 1,000 bucket lock rules" per bucket. */
const MAX_LOCK_RULES = 1000;

/** A rule set the surfaces refuse, with what is wrong. */
export class LockRuleError extends Error {
  override readonly name = 'LockRuleError';
}

const bad = (why: string) => new LockRuleError(why);

function condition(v: unknown, at: string): LockCondition {
  if (!isRecord(v)) throw bad(`${at}.condition must be an object`);
  switch (v.type) {
    case 'Age': {
      const s = v.maxAgeSeconds;
      if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0)
        throw bad(`${at}.condition.maxAgeSeconds must be a non-negative integer`);
      return Object.freeze({ type: 'Age', maxAgeSeconds: s });
    }
    case 'Date':
      if (typeof v.date !== 'string' || Number.isNaN(Date.parse(v.date)))
        throw bad(`${at}.condition.date must be an ISO 8601 date-time`);
      return Object.freeze({ type: 'Date', date: v.date });
    case 'Indefinite':
      return Object.freeze({ type: 'Indefinite' });
  }
  throw bad(`${at}.condition.type must be 'Age', 'Date' or 'Indefinite'`);
}

/** The rules of a request, validated and frozen. Not established: the API's texts for each refusal. */
export function lockRules(input: unknown): readonly LockRule[] {
  return ruleList(input, MAX_LOCK_RULES, bad, (r, at): LockRule => {
    if (r.prefix !== undefined && typeof r.prefix !== 'string') throw bad(`${at}.prefix must be a string`);
    return Object.freeze({
      id: r.id,
      enabled: r.enabled,
      ...(r.prefix !== undefined ? { prefix: r.prefix as string } : {}),
      condition: condition(r.condition, at),
    });
  });
}

/**
 * Until when (epoch ms, exclusive) the rules keep an object uploaded at `uploaded` under `key`:
 * -Infinity when none covers it, Infinity for an indefinite lock. Where rules overlap, the longest
 * retention wins (docs). An Age lock runs from the object's upload; a Date lock until that date.
 */
export function lockedUntil(rules: readonly LockRule[], key: string, uploaded: number): number {
  let until = -Infinity;
  for (const r of rules) {
    if (!r.enabled || !key.startsWith(r.prefix ?? '')) continue;
    const c = r.condition;
    const end =
      c.type === 'Indefinite' ? Infinity : c.type === 'Age' ? uploaded + c.maxAgeSeconds * 1000 : Date.parse(c.date);
    if (end > until) until = end;
  }
  return until;
}
