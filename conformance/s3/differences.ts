/**
 * Where an S3 target is known to differ from production R2: declared once, here, as data, with the
 * evidence. The suite asserts production; a test that meets one of these names it, and a target
 * listing the id runs it as an expected failure (so a difference that disappears turns red).
 *
 * Evidence for Miniflare: cloudflare/workers-sdk packages/miniflare/src/workers/r2/s3/*.worker.ts
 * (the "Gaps" list of its index.worker.ts), as shipped in node_modules/miniflare 4.20260730.0
 * (dist/src/workers/r2/s3/index.worker.js); production's side with its sources: docs/sources/r2-s3.md.
 */
export const s3Differences = {
  'miniflare-checksums-ignored': {
    shownBy: "Miniflare's local S3 endpoint",
    why: 'x-amz-checksum-* headers are not verified (a wrong CRC32 is stored with 200); production verifies them and answers BadDigest (docs/sources/r2-s3.md#checksums).',
  },
  'miniflare-standard-ia': {
    shownBy: "Miniflare's local S3 endpoint",
    why: 'x-amz-storage-class: STANDARD_IA is answered 501 and listings always say STANDARD; production stores InfrequentAccess (docs r2/api/s3/api, r2/buckets/storage-classes).',
  },
  'miniflare-no-merge': {
    shownBy: "Miniflare's local S3 endpoint",
    why: 'x-amz-metadata-directive: MERGE (an R2 extension) is refused with 400 "metadata directive MERGE."; production merges (docs r2/api/s3/extensions).',
  },
  'miniflare-random-part-etags': {
    shownBy: "Miniflare's local S3 endpoint",
    why: "Part ETags are random 171-character strings from the local binding; production returns each part's md5, so the object ETag differs too (docs r2/objects/multipart-objects).",
  },
  'miniflare-parts-unsorted': {
    shownBy: "Miniflare's local S3 endpoint",
    why:
      'CompleteMultipartUpload hands the parts to the binding in the order listed (its CompleteMultipartUpload handler does not sort), so ' +
      'a list in order 2,1 whose part 2 is the short last part fails with EntityTooSmall; R2 sorts the parts itself (release notes 2024-01-26).',
  },
  'miniflare-unequal-parts-404': {
    shownBy: "Miniflare's local S3 endpoint",
    why: 'Unequal part sizes (binding error 10048) are not mapped: the Complete handler answers 404 NoSuchUpload; production 400 InvalidPart (docs r2/api/error-codes, 10048; apache/opendal#2904).',
  },
  'miniflare-lenient-xml': {
    shownBy: "Miniflare's local S3 endpoint",
    why:
      'A DeleteObjects body naming an entity XML does not define (`&nbsp;`) is accepted with 200; an XML processor must refuse it ' +
      '(XML 1.0 §4.1, well-formedness constraint "Entity Declared"), and S3 answers MalformedXML for a body that is not well formed (docs/sources/r2-s3.md#deleteobjects).',
  },
  'miniflare-no-upload-listing': {
    shownBy: "Miniflare's local S3 endpoint",
    why: 'ListParts and ListMultipartUploads are answered 501; production implements both (R2 S3 compatibility page).',
  },
  'miniflare-no-bucket-region': {
    shownBy: "Miniflare's local S3 endpoint",
    why: 'HeadBucket carries no x-amz-bucket-region header; production adds auto (R2 release notes 2022-10-19).',
  },
  'miniflare-no-creation-date': {
    shownBy: "Miniflare's local S3 endpoint",
    why: "ListBuckets entries have no CreationDate (and no Owner); the docs' examples show both (docs r2/examples/aws/aws-sdk-js-v3, aws-cli).",
  },
  'miniflare-ssec-writes': {
    shownBy: "Miniflare's local S3 endpoint",
    why: 'Writes with SSE-C headers are answered 501; production supports SSE-C (R2 release notes 2024-12-03).',
  },
  'miniflare-region-unchecked': {
    shownBy: "Miniflare's local S3 endpoint",
    why: "The credential scope's region is not checked; production refuses regions outside auto / us-east-1 / the location hints with InvalidRegionName (user reports: jeessy2/backup-x#127, iterate-ch/cyberduck#16377).",
  },
  'miniflare-bucket-before-auth': {
    shownBy: "Miniflare's local S3 endpoint",
    why: 'An unknown bucket is answered NoSuchBucket before the request is authenticated; production authenticates first (docs/sources/r2-s3.md#authentication).',
  },
  'server-sends-100-continue': {
    shownBy:
      "edge-doubles' HTTP servers (r2 serve, api serve, dns serve; startS3Server, startApiServer, startDnsServer) by default",
    why:
      'A request with `Expect: 100-continue` gets an interim `100 Continue` once the server reads its body (a request refused ' +
      'first gets its error instead). Cloudflare\'s edge sends none: "Cloudflare does not support the HTTP 100 response" (R2\'s S3 ' +
      'extensions page, docs r2/api/s3/extensions), so clients send the body after their own wait (curl and botocore 1 s, the JS ' +
      'SDK 6 s), which made every boto3 put_object against r2 serve take 1 s (issue 27). `--no-continue` (expectContinue: ' +
      "'silent') keeps the edge's silence. Only when the body is sent changes; no answer does.",
  },
} as const satisfies Record<string, { shownBy: string; why: string }>;

/** The id of a declared difference: a target lists the ones it shows in `differences`. */
export type S3DifferenceId = keyof typeof s3Differences;
