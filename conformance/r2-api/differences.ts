/**
 * Where an R2 control-plane target knowingly differs, or may differ, from production: declared once,
 * here, as data. Each concern adds its entries in its own block.
 *
 * Tests that assert a decision the double made where production's answer is not established name
 * one of these ids; the real API's target lists them, so those tests run there as expected failures
 * (counted apart in the summary), and one that passes on the real API turns red: the fact is then
 * established and the double's choice can be confirmed.
 */
export const r2ApiDifferences = {
  // ---- buckets ----
  'unestablished-jurisdiction-header': {
    shownBy: 'the real API (not established)',
    why: 'A cf-r2-jurisdiction value outside default|eu|us|fedramp|fedramp-high is 400 10040 in the double (our choice); what R2 answers was not observed.',
  },
  'unestablished-foreign-account': {
    shownBy: 'the real API (not established)',
    why: "Another account's r2/buckets is 403 9109 \"Unauthorized to access requested resource\" in the double, the API's answer for account resources a credential cannot reach; not observed on R2's routes.",
  },
  'unestablished-not-empty-text': {
    shownBy: 'the real API (not established)',
    why: 'Deleting a bucket that holds objects is 409 10008 (R2\'s error-code table); the message "The bucket you tried to delete is not empty." is our reading.',
  },
  // ---- lifecycle and locks ----
  'unestablished-rule-refusal': {
    shownBy: 'the real API (not established)',
    why: "A lifecycle or lock rule set the API cannot take (a class other than InfrequentAccess, an abort by date, an unknown lock condition, a body that is not JSON) is 400 10040 \"The JSON you provided was not well formed.\" in the double, with our reason as a second error (lib/r2-api/rules-body.ts); R2's codes and texts for each were not observed.",
  },
  'unestablished-config-not-found': {
    shownBy: 'the real API (not established)',
    why: "An unknown bucket's /lifecycle and /lock answer the bucket routes' 404 10006 in the double; not observed on those routes.",
  },
  'unestablished-lifecycle-timing': {
    shownBy: 'the real API (documented otherwise)',
    why: 'The double applies a rule at the exact moment its condition holds (lib/bucket/lifecycle.ts); R2 removes objects "typically within 24 hours" (docs r2/buckets/object-lifecycles, reference §2.2). Buckets can model that with lifecycleTiming: \'daily\'.',
  },
  'unestablished-s3-lifecycle-xml': {
    shownBy: 'the real API (not established)',
    why: "How R2's S3 lifecycle XML maps onto the API's rules is the double's reading (lib/s3/lifecycle.ts): Days × 86400 as maxAge, STANDARD_IA as InfrequentAccess, an absent prefix as conditions.prefix '', Filter/Prefix written back for every rule, an empty set as AWS's 404 NoSuchLifecycleConfiguration, another class as 400 InvalidStorageClass; R2's own answers were not observed.",
  },
  'unestablished-locked-text': {
    shownBy: 'the real API (not established)',
    why: 'A delete refused by a lock is 10069 ObjectLockedByBucketPolicy (docs r2/api/error-codes, reference §3.3); the message text is ours (lib/bucket/errors.ts objectLocked).',
  },
  // ---- queues and event notifications ----
  'unestablished-queue-name-taken': {
    shownBy: 'the real API (not established)',
    why: 'Creating a queue whose name is taken is 409 11009 in the double: the code as a deploy script reported it (Trailgenic/workers#59, "already taken"); the status and the message text are ours (lib/queue/routes.ts).',
  },
  'unestablished-notification-errors': {
    shownBy: 'the real API (not established)',
    why: 'An overlapping rule is refused (cloudflare-docs#17949, PR #19130: "reject any rule that overlaps"), but its code and text were not observed: the double answers 400 10040 "…conflicting event notification rules" (the issue\'s words). An unknown queue (404 10104, the Queues API\'s QueueNotFound) and an invalid rule (400 10040, R2\'s malformed-body code) are our readings too (lib/r2-api/notifications.ts).',
  },
  'unestablished-missing-key-delete-notifies': {
    shownBy: 'the real API (not established)',
    why: 'Whether deleting a key that holds nothing sends DeleteObject is undocumented (reference r2-bucket-config.md §1.2); the double sends nothing by default, since nothing changed, and Account({ notifyMissingKeyDeletes: true }) sends it. Not observable through the API routes (no consumer there): spec/bucket/notifications.test.ts covers both settings.',
  },
} as const satisfies Record<string, { shownBy: string; why: string }>;

export type R2ApiDifferenceId = keyof typeof r2ApiDifferences;

/** What the real API's target declares: every decision of the double not yet confirmed there. */
export const realApiDifferences: readonly R2ApiDifferenceId[] = [
  'unestablished-jurisdiction-header',
  'unestablished-foreign-account',
  'unestablished-not-empty-text',
  'unestablished-rule-refusal',
  'unestablished-config-not-found',
  'unestablished-lifecycle-timing',
  'unestablished-s3-lifecycle-xml',
  'unestablished-locked-text',
  'unestablished-queue-name-taken',
  'unestablished-notification-errors',
  'unestablished-missing-key-delete-notifies',
];
