/**
 * Where a target is known to differ from production R2: declared once, here, as data.
 *
 * A conformance test always asserts production's behaviour. A test that meets one of these names it
 * (`t.test(name, fn, { difference: 'id' })`); on a target that lists the id in its `differences`, the
 * test is registered as an expected failure and its name says "known difference: id", so the summary
 * counts it apart and a difference that disappears turns the test red.
 */
export const bucketDifferences = {
  'simulator-storage-class': {
    shownBy: 'the local simulator (workerd under Miniflare)',
    why: 'The simulator never returns a storage class, so `storageClass` is "" instead of production\'s "Standard" default (r2-semantics §13.2).',
  },
  'simulator-range-at-end': {
    shownBy: 'the local simulator (workerd under Miniflare)',
    why: '`get` with `{offset: size, length > 0}` gives "get: Unspecified error (0)" (an inverted internal range) instead of 10039 (r2-semantics §4.4, §13.9).',
  },
  'simulator-list-unrequested-metadata': {
    shownBy: 'the local simulator (workerd under Miniflare)',
    why: 'List entries carry `{}` for metadata that `include` did not ask for; production leaves it undefined (r2-semantics §8.5, §13.5).',
  },
  'simulator-ssec-ignored': {
    shownBy: 'the local simulator (workerd under Miniflare)',
    why: 'The simulator ignores SSE-C: no key is needed to read an object written with one, and `ssecKeyMd5` stays undefined (r2-semantics §4.7, §13.15).',
  },
  'simulator-random-part-etags': {
    shownBy: 'the local simulator (workerd under Miniflare)',
    why: 'The simulator returns random 171-character part etags; production returns the md5 hex of the part (r2-semantics §9.3, §13.7).',
  },
  'double-in-workerd-stream-length': {
    shownBy: 'the double running inside workerd',
    why:
      'workerd knows whether one of its internal streams has a known length (a FixedLengthStream, a body with Content-Length) but ' +
      'shows no JS code; the double accepts every byte stream there, so the readable side of an IdentityTransformStream is read ' +
      '(and waits for data) instead of being refused. In Node and browsers the double tells them apart.',
  },
} as const satisfies Record<string, { shownBy: string; why: string }>;

export type BucketDifferenceId = keyof typeof bucketDifferences;

/** What the local simulator (the workerd targets) shows. */
export const simulatorDifferences: readonly BucketDifferenceId[] = [
  'simulator-storage-class',
  'simulator-range-at-end',
  'simulator-list-unrequested-metadata',
  'simulator-ssec-ignored',
  'simulator-random-part-etags',
];

/** What the double shows when it runs inside workerd. */
export const doubleInWorkerdDifferences: readonly BucketDifferenceId[] = ['double-in-workerd-stream-length'];
