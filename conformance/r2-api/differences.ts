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
    why: 'A lifecycle or lock rule set the API cannot take (a class other than InfrequentAccess, an abort by date, an unknown lock condition, a body that is not JSON) is 400 10040 "The JSON you provided was not well formed." in the double, with our reason as a second error (lib/r2-api/rules-body.ts); R2\'s codes and texts for each were not observed.',
  },
  'unestablished-config-not-found': {
    shownBy: 'the real API (not established)',
    why: "An unknown bucket's /lifecycle, /lock, /cors and /domains answer the bucket routes' 404 10006 in the double; not observed on those routes.",
  },
  'unestablished-lifecycle-timing': {
    shownBy: 'the real API (documented otherwise)',
    why: 'The double applies a rule at the exact moment its condition holds (lib/bucket/lifecycle.ts); R2 removes objects "typically within 24 hours" (docs r2/buckets/object-lifecycles). Buckets can model that with lifecycleTiming: \'daily\'.',
  },
  'unestablished-s3-lifecycle-xml': {
    shownBy: 'the real API (not established)',
    why: "How R2's S3 lifecycle XML maps onto the API's rules is the double's reading (lib/s3/lifecycle.ts): Days × 86400 as maxAge, STANDARD_IA as InfrequentAccess, an absent prefix as conditions.prefix '', Filter/Prefix written back for every rule, an empty set as AWS's 404 NoSuchLifecycleConfiguration, another class as 400 InvalidStorageClass; R2's own answers were not observed.",
  },
  'unestablished-locked-text': {
    shownBy: 'the real API (not established)',
    why: 'A delete refused by a lock is 10069 ObjectLockedByBucketPolicy (docs r2/api/error-codes); the message text is ours (lib/bucket/errors.ts objectLocked).',
  },
  // ---- CORS and public access (groups/cors.ts, groups/domains.ts) ----
  'unestablished-cors-delete-none': {
    shownBy: 'the real API (not established)',
    why: "DELETE /cors on a bucket without a policy succeeds in the double (lib/r2-api/cors.ts); R2's answer (success or 404 10059) was not observed.",
  },
  'unestablished-cors-refusal': {
    shownBy: 'the real API (not established)',
    why: "A CORS rule with values the API cannot take (maxAgeSeconds over 86400, the SDK's bound; a method outside GET|PUT|POST|DELETE|HEAD) is 400 10040 in the double, the code R2 gave an S3-shaped rule (workers-sdk#8486); the code for these values was not observed.",
  },
  'unestablished-domain-body': {
    shownBy: 'the real API (not established)',
    why: 'A /domains body the API cannot take (enabled not a boolean, a domain that is not a host name, a minTLS outside 1.0..1.3) is 400 10040 in the double (lib/r2-api/domains.ts); not observed.',
  },
  'unestablished-domain-outside-zones': {
    shownBy: 'the real API (not established)',
    why: "A custom domain outside the account's zones (or outside the zone zoneId names) is 400 10040 with our reason as a second error (lib/r2-api/domains.ts); the docs say only that the domain must belong to the same account (docs r2/buckets/public-buckets).",
  },
  'unestablished-domain-taken': {
    shownBy: 'the real API (not established)',
    why: "A custom domain already connected to another bucket is refused with 409 10040 and our text (lib/r2-api/errors.ts domainTaken); R2's code and text were not observed.",
  },
  'unestablished-unknown-domain': {
    shownBy: 'the real API (not established)',
    why: 'GET/PUT/DELETE of a custom domain the bucket does not have is 404 10040 with our text (lib/r2-api/errors.ts noSuchDomain); not observed.',
  },
  'unestablished-domain-active-at-once': {
    shownBy: 'the real API (documented otherwise)',
    why: 'A custom domain is { ownership: "active", ssl: "active" } and serves the bucket as soon as it is added (the double provisions nothing); production goes through pending/initializing first (the status enums of the SDK\'s custom domains, docs/sources/r2-api.md#public-access).',
  },
  'unestablished-r2dev-hex': {
    shownBy: 'the real API (not established)',
    why: "The r2.dev host's 32 hex are derived from the account id and the bucket's name (lib/r2-public/public-buckets.ts bucketHex): a bucket made again under its name gets the same host. How production picks them is not public.",
  },
  'unestablished-public-preflight-refusal': {
    shownBy: 'the real edge (not established)',
    why: 'A preflight no CORS rule allows, at a public host, is 403 with no body in the double (lib/r2-public/serve.ts); what a browser acts on is the missing Access-Control-Allow-Origin; the status was not observed.',
  },
  'unestablished-public-no-bucket': {
    shownBy: 'the real edge (not established)',
    why: 'A public host that serves no bucket (an r2.dev host disabled or unknown, a custom domain removed) is 404 "404 Not Found" in the double, as a missing object (Miniflare\'s public worker); not observed.',
  },
  'unestablished-public-ssec': {
    shownBy: 'the real edge (not established)',
    why: 'An object written with SSE-C is 400 with no body at a public host in the double (lib/r2-public/serve.ts): the host cannot take its key; not observed.',
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
    why: 'Whether deleting a key that holds nothing sends DeleteObject is undocumented (docs r2/buckets/event-notifications; docs/sources/r2-api.md#event-notifications); the double sends nothing by default, since nothing changed, and Account({ notifyMissingKeyDeletes: true }) sends it. Not observable through the API routes (no consumer there): spec/bucket/notifications.test.ts covers both settings.',
  },
  'unestablished-temp-credentials-errors': {
    shownBy: 'the real API (not established)',
    why: "The temp-access-credentials route's refusals are undocumented: the double answers a body outside the schema (permission outside its enum, ttlSeconds outside 1..604800, prefixes/objects not string arrays) and a parent access key id no S3 view of the account accepts with 400 10040, the reason as a second error; a missing bucket with 10006 (lib/r2-api/temp-credentials.ts). With no S3 key pairs configured, any parent id is taken.",
  },
  'unestablished-temp-credentials-scope': {
    shownBy: 'the real API (not established)',
    why: "R2 documents its four permissions (r2/api/tokens) and 403 AccessDenied beyond them, but not how a path scope meets listings, copies and multi-deletes: the double allows a listing only with a prefix inside a granted prefix (or equal to a granted key), a copy only from a source in the grant, and refuses a DeleteObjects naming any key outside it whole; the object permissions reach no bucket settings, the admin ones reach the bucket's settings but never another bucket, and ListBuckets only with an admin permission (lib/s3/temporary-access.ts). The refusal carries the addressed bucket's CORS headers, so a page reads it.",
  },
  'unestablished-temp-credentials-expiry': {
    shownBy: 'the real API (not established)',
    why: "What R2 answers for expired temporary credentials is undocumented (docs/sources/r2-s3.md#authentication): the double answers S3's 400 ExpiredToken \"The provided token has expired.\", which the AWS SDKs treat as a signal to refresh credentials, once the double's clock passes the minted TTL (spec/r2-api/temp-credentials.test.ts). Not run here: a real TTL cannot be advanced. The token's JWT claims and signature are the double's own (production signs HS256 with the parent secret, r2/api/s3/temporary-credentials); clients treat it as opaque.",
  },
  'unestablished-sippy-errors': {
    shownBy: 'the real API (not established)',
    why: "Sippy's GET for a bucket without it is 404 10007 (the code wrangler's `sippy get` reads as \"No Sippy configuration found\", wrangler 4.86 src/r2/sippy.ts), with R2's 10007 text; a PUT missing a field of wrangler's AWS or GCS shape or of the schema's S3-compatible one (`r2_enable_sippy_s3`: bucketUrl and the key pair), or naming the SDK's `azure` provider (wrangler does not send it), is 400 10040 with the reason as a second error (lib/r2-api/sippy.ts). Production's texts are not established.",
  },
  'double-sippy-source': {
    shownBy: 'the double (by design)',
    why: "Sippy never reaches AWS, GCS or an S3-compatible source's bucketUrl: a missing key is fetched from the S3-compatible endpoint named for the account (useSippySource, api serve --sippy-endpoint), path style (an S3-compatible source's bucket read from its bucketUrl: the first path segment, else the host's first label), SigV4-signed with the source key pair (GCS: the client email and private key as key id and secret); without one, nothing is fetched. A source answer other than 200 leaves the key missing (production may answer an error); the copy is a put of the bucket's own, not logged, not faultable and firing no event notification (what production reports for it is not established). Only reads copy in (head, get, the S3 view's Get/Head and copy sources, the public hosts, the API object route), not listings, as the Sippy docs describe.",
  },
  // ---- the object collection, jobs and metrics (lib/r2-api/objects.ts, jobs.ts, metrics.ts) ----
  'unestablished-delete-list-errors': {
    shownBy: 'the real API (not established)',
    why: 'The 2026-08-14 schema says a delete by list reports per-key errors "in the response" without saying where: the double answers 200 with `result` the keys deleted and one `errors` entry per refused key (its R2 code, "<key>: <text>"), `success` true. A key that held nothing counts as deleted (R2\'s deletes are idempotent). A body that is not a JSON array of strings is 400 10040 with our reason.',
  },
  'unestablished-prefix-delete-pace': {
    shownBy: 'the real API (not established)',
    why: "The schema says small jobs may finish synchronously and larger ones continue in the background, without sizes: the double deletes up to 1,000 objects in the request and 1,000 more every 100 ms of the account's clock (lib/bucket/jobs.ts JOB_BATCH, JOB_PACE_MS); a job is never ENQUEUED.",
  },
  'unestablished-prefix-delete-rules': {
    shownBy: 'the real API (not established)',
    why: 'The schema documents 409 10034 for emptying a bucket with event notification rules; the double answers it for a non-empty prefix too (the job deletes through the same service). A non-empty prefix not ending in / is 400 10040 with our reason (the schema says it must end in /, not what answers otherwise).',
  },
  'unestablished-active-jobs-limit': {
    shownBy: 'the real API (not established)',
    why: 'The schema says active jobs are "limited per bucket" (429 10058, its text); the limit is not published: the double takes five (lib/bucket/jobs.ts MAX_ACTIVE_JOBS).',
  },
  'unestablished-job-locked-objects': {
    shownBy: 'the real API (not established)',
    why: 'What a prefix-delete job does with an object a bucket lock rule keeps is not documented: the double skips it (it stays, not counted in deletedObjects) and the job still completes.',
  },
  'unestablished-jobs-errors': {
    shownBy: 'the real API (not established)',
    why: 'An unknown job id is 404 10040 "The specified job does not exist." in the double; a jobType other than prefixDelete, a status outside the enum or without jobType (the schema: "jobType is required"), maxKeys outside 0..1000 or a continuation token it did not give are 400 1004 (lib/r2-api/jobs.ts). Jobs are listed oldest first, maxKeys 1000 by default. Not observed.',
  },
  'unestablished-metrics-uploaded': {
    shownBy: 'the real API (not established)',
    why: 'The account-level metrics\' `uploaded` ("Metrics based on what state they are in (uploaded or published)") is read as the multipart uploads not yet completed (one object per upload, its parts\' bytes), `published` as the objects; metadataSize as the key and custom metadata in UTF-8 bytes; the figures are the buckets\' now, where production\'s "may not immediately reflect the latest data" (lib/r2-api/metrics.ts).',
  },
} as const satisfies Record<string, { shownBy: string; why: string }>;

/** The id of a declared difference: a target lists the ones it shows in `differences`. */
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
  'unestablished-cors-delete-none',
  'unestablished-cors-refusal',
  'unestablished-domain-body',
  'unestablished-domain-outside-zones',
  'unestablished-domain-taken',
  'unestablished-unknown-domain',
  'unestablished-domain-active-at-once',
  'unestablished-r2dev-hex',
  'unestablished-public-preflight-refusal',
  'unestablished-public-no-bucket',
  'unestablished-public-ssec',
  'unestablished-queue-name-taken',
  'unestablished-notification-errors',
  'unestablished-missing-key-delete-notifies',
  'unestablished-temp-credentials-errors',
  'unestablished-temp-credentials-scope',
  'unestablished-temp-credentials-expiry',
  'unestablished-sippy-errors',
  'double-sippy-source',
  'unestablished-delete-list-errors',
  'unestablished-prefix-delete-pace',
  'unestablished-prefix-delete-rules',
  'unestablished-active-jobs-limit',
  'unestablished-job-locked-objects',
  'unestablished-jobs-errors',
  'unestablished-metrics-uploaded',
];
