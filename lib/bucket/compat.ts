/**
 * The Worker's compatibility date and flags, as workerd reads them: checked once, when a bucket is
 * made (so a typo fails loudly instead of silently giving today's behaviour), and turned into the
 * few switches the binding's behaviour depends on. No per-call cost: the bucket keeps the switches.
 */
import { WORKERD_COMPAT_FLAGS, type CompatFlagRow } from './compat-flags.js';

/** What changes in the R2 binding with the compatibility date or flags. */
export interface BucketCompat {
  /** `r2ListHonorIncludeFields` (2022-08-04): before it, list sends both kinds of metadata. */
  readonly honorsInclude: boolean;
  /** not `captureThrowsAsRejections` (2022-10-31): before it, conversion errors throw synchronously. */
  readonly throwsSynchronously: boolean;
  /**
   * not `noSubstituteNull` (2022-06-01): before it, a nullable argument whose value cannot be
   * converted counts as null instead of being refused (jsg's MaybeWrapper); in R2, put's value.
   */
  readonly substitutesNull: boolean;
  /** `setToStringTag` (2024-09-26): the runtime's objects report their class to Object.prototype.toString. */
  readonly setsToStringTag: boolean;
}

/**
 * The interface document's name for `r2_list_honor_include`
 * (docs/sources/README.md#the-interface-documents). workerd does not know it; it is accepted
 * because the document names it.
 */
const DOCUMENT_ALIASES: Readonly<Record<string, string>> = { store_list_honor_include: 'r2_list_honor_include' };

const byField = new Map<string, CompatFlagRow>(WORKERD_COMPAT_FLAGS.map((row) => [row[0], row]));
const byName = new Map<string, { row: CompatFlagRow; enables: boolean }>();
for (const row of WORKERD_COMPAT_FLAGS) {
  if (row[1]) byName.set(row[1], { row, enables: true });
  if (row[2]) byName.set(row[2], { row, enables: false });
}

/**
 * workerd's date check (compatibility-date.c++: year 2000–2999, month 1–12, day 1–31, and it too
 * lets 2022-02-30 through), on the canonical YYYY-MM-DD form; returns that form.
 */
function checkDate(v: unknown): string {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v) : null;
  const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  if (!m || y < 2000 || y >= 3000 || mo < 1 || mo > 12 || d < 1 || d > 31) {
    throw new TypeError(
      `Bucket option 'compatibilityDate': ${describe(v)} is not a compatibility date; give one as 'YYYY-MM-DD' ` +
        `(workerd refuses it: "Invalid compatibility date").`,
    );
  }
  const two = (n: number) => String(n).padStart(2, '0');
  return `${y}-${two(mo)}-${two(d)}`; // compared as strings from here on
}

function checkFlags(v: unknown): string[] {
  if (!Array.isArray(v))
    throw new TypeError(`Bucket option 'compatibilityFlags': expected an array of flag names, got ${describe(v)}.`);
  const seen = new Set<string>();
  return v.map((f) => {
    if (typeof f !== 'string')
      throw new TypeError(`Bucket option 'compatibilityFlags': ${describe(f)} is not a flag name (a string).`);
    const name = DOCUMENT_ALIASES[f] ?? f;
    if (!byName.has(name)) {
      throw new TypeError(
        `Bucket option 'compatibilityFlags': workerd has no compatibility flag '${f}' (it refuses it: "No such compatibility flag: ${f}").`,
      );
    }
    if (seen.has(name))
      throw new TypeError(
        `Bucket option 'compatibilityFlags': '${f}' is given twice (workerd refuses that: "Compatibility flag specified multiple times").`,
      );
    seen.add(name);
    return name;
  });
}

/** Checks the date and flags as workerd does and resolves the switches; `date` undefined is today. */
export function resolveCompat(date: unknown, flags: unknown): BucketCompat {
  const day = date === undefined ? undefined : checkDate(date);
  const given = new Set(flags === undefined ? [] : checkFlags(flags));
  for (const name of given) {
    const { row, enables } = byName.get(name)!;
    if (enables && row[2] && given.has(row[2])) {
      throw new TypeError(
        `Bucket option 'compatibilityFlags': '${row[1]}' and '${row[2]}' contradict each other (workerd refuses that: "Compatibility flags are mutually contradictory").`,
      );
    }
  }
  /** As workerd: an enable flag wins, else the date (today's behaviour with no date) unless a disable flag is given. */
  const on = (field: string): boolean => {
    const [, enable, disable, since] = byField.get(field)!;
    if (enable && given.has(enable)) return true;
    const byDate = since === 'all' || (since !== '' && (day === undefined || day >= since));
    return byDate && !(disable && given.has(disable));
  };
  return {
    honorsInclude: on('r2ListHonorIncludeFields'),
    throwsSynchronously: !on('captureThrowsAsRejections'),
    substitutesNull: !on('noSubstituteNull'),
    setsToStringTag: on('setToStringTag'),
  };
}

/** A value as an error message shows it. */
export function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'function') return 'a function';
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}
