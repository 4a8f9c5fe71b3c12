/**
 * A zone's plans as the API names them: the rate plan id production answers in `zone.plan.id` and
 * takes in `PATCH /zones/{id}` (`{ plan: { id } }`), its name, and the quotas it sets (DnsLimits).
 *
 * The ids are production's: the free plan's `0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee` in every recorded
 * zone (dns-lexicon's cassettes, tests/fixtures/cassettes/cloudflare, 2020 and 2025-08; 2017
 * recordings agree), and the four ids `GET /zones/{id}/available_plans` lists in python-cloudflare's
 * README (cloudflare/python-cloudflare, "A somewhat useful listing of available plans"). `legacy_id`
 * is the plan's short name (`free`, `pro`, ...), which the double's options and CLI take.
 */
import type { DnsLimits, DnsPlan } from './types.js';

export interface PlanInfo {
  /** The rate plan id (`zone.plan.id`). */
  readonly id: string;
  /** `zone.plan.name`. */
  readonly name: string;
  /** The documented defaults of the plan's quotas. */
  readonly limits: DnsLimits;
}

export const PLANS: Readonly<Record<DnsPlan, PlanInfo>> = {
  free: {
    id: '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
    name: 'Free Website',
    limits: { records: 200, tags: 0, commentLength: 100, batch: 200, minTtl: 60 },
  },
  pro: {
    id: 'a577b510288e82b26486fd1df47000ec',
    name: 'Pro Website',
    limits: { records: 3500, tags: 20, commentLength: 500, batch: 3500, minTtl: 60 },
  },
  business: {
    id: '1ac039f6c29b691475c3d74fe588d1ae',
    name: 'Business Website',
    limits: { records: 3500, tags: 50, commentLength: 500, batch: 3500, minTtl: 60 },
  },
  enterprise: {
    id: '94f3b7b768b0458b56d2cac4fe5ec0f9',
    name: 'Enterprise Website',
    limits: { records: 1_000_000, tags: 500, commentLength: 500, batch: 3500, minTtl: 30 },
  },
};

/** The plan a rate plan id names, or undefined for an id the double does not know. */
export function planById(id: string): DnsPlan | undefined {
  for (const [plan, info] of Object.entries(PLANS) as [DnsPlan, PlanInfo][]) if (info.id === id) return plan;
  return undefined;
}

/**
 * The limits after a plan change: the new plan's defaults, except where the zone was given its own
 * value (a limit that differs from the old plan's default is an override, and stays).
 */
export function limitsAfterPlanChange(current: DnsLimits, from: DnsPlan, to: DnsPlan): DnsLimits {
  const out = { ...PLANS[to].limits };
  for (const k of Object.keys(out) as (keyof DnsLimits)[])
    if (current[k] !== PLANS[from].limits[k]) out[k] = current[k];
  return out;
}
