/**
 * What R2's per-bucket rule lists share (lifecycle rules, lock rules: the SDK's `LifecycleUpdateParams`
 * and `LockUpdateParams`): an array of at most `max` objects, each with a non-empty string `id` no
 * other rule of the list uses and a boolean `enabled`. Each list then reads its own fields.
 */

/** A rule object whose shared fields have been checked. */
export type CheckedRule = Record<string, unknown> & { id: string; enabled: boolean };

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `input`'s rules, each checked for the shared fields and then made by `make` (given the rule and
 * where it is, `rules[i]`, for messages), frozen. `bad` makes the list's own error.
 */
export function ruleList<T>(
  input: unknown,
  max: number,
  bad: (why: string) => Error,
  make: (r: CheckedRule, at: string) => T,
): readonly T[] {
  if (!Array.isArray(input)) throw bad('rules must be an array');
  if (input.length > max) throw bad(`at most ${max} rules`);
  const ids = new Set<string>();
  return Object.freeze(
    input.map((r, i): T => {
      const at = `rules[${i}]`;
      if (!isRecord(r)) throw bad(`${at} must be an object`);
      if (typeof r.id !== 'string' || r.id === '') throw bad(`${at}.id must be a non-empty string`);
      if (ids.has(r.id)) throw bad(`${at}.id '${r.id}' is used by another rule`);
      ids.add(r.id);
      if (typeof r.enabled !== 'boolean') throw bad(`${at}.enabled must be a boolean`);
      return make(r as CheckedRule, at);
    }),
  );
}
