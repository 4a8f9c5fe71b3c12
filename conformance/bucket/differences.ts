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
    why: 'The simulator never returns a storage class, so `storageClass` is "" instead of production\'s "Standard" default (docs/sources/r2-binding.md#storage-class).',
  },
  'simulator-list-unrequested-metadata': {
    shownBy: 'the local simulator (workerd under Miniflare)',
    why: 'List entries carry `{}` for metadata that `include` did not ask for; production leaves it undefined (docs/sources/r2-binding.md#list-include).',
  },
  'simulator-ssec-ignored': {
    shownBy: 'the local simulator (workerd under Miniflare)',
    why: 'The simulator ignores SSE-C: no key is needed to read an object written with one, and `ssecKeyMd5` stays undefined (docs/sources/r2-binding.md#sse-c).',
  },
  'simulator-random-part-etags': {
    shownBy: 'the local simulator (workerd under Miniflare)',
    why: 'The simulator returns random 171-character part etags; production returns the md5 hex of the part (docs r2/objects/multipart-objects).',
  },
  'miniflare4-custom-metadata-limit': {
    shownBy:
      "Miniflare 4's local simulator (wrangler 3/4, @cloudflare/vitest-plugin before Miniflare 5); not a target of this repo",
    why:
      'Miniflare 4 (up to 4.20260730.0, the last 4.x) limits custom metadata to 2,048 (UTF-16 length, doubled when a character is ' +
      'above U+00FF) on put and does not check it on createMultipartUpload: the production limit of February 2023, when it was ' +
      'added (workers-sdk 8028aa6b98, "adapted from internal R2 gateway implementation"). Production documents 8,192 bytes of object metadata ' +
      '(developers.cloudflare.com/r2/platform/limits, raised in cloudflare-docs PR #9916, July 2023), and Miniflare 5 ' +
      '(5.20261023.2-beta) enforces 8,192 on both (its dist/src/workers/r2/bucket.worker.js). A target on Miniflare 4 declares this.',
  },
  'double-in-workerd-stream-length': {
    shownBy: 'the double running inside workerd',
    why:
      'workerd knows whether one of its internal streams has a known length (a FixedLengthStream, a body with Content-Length) but ' +
      'shows no JS code; the double accepts every byte stream there, so the readable side of an IdentityTransformStream is read ' +
      '(and waits for data) instead of being refused. In Node and browsers the double tells them apart.',
  },
  'double-js-byte-stream-length': {
    shownBy: 'the double (in Node, browsers and workerd)',
    why:
      "A ReadableStream built in JS with `type: 'bytes'` has no length workerd knows, so workerd refuses it; the double takes a " +
      "byte stream to have a known length (and refuses any other stream): the platform's request and response bodies and Blob " +
      'streams are byte streams built the same way, and no JS code can tell them apart. The double reads such a stream.',
  },
  'double-default-stream-bodies': {
    shownBy:
      "the double on a runtime whose own request and response bodies are default streams (Bun 1.4, Deno 2.9; happy-dom's Response)",
    why:
      'There a request or response body, a tee() branch of one (and on Bun a Blob stream) is a default stream of the same class ' +
      'as one built in JS or the readable side of a TransformStream, with nothing any JS code can read that tells them apart ' +
      '(checked in Bun 1.4.5 and Deno 2.9.6: no BYOB reader, the same prototype, no public own property). The double asks the ' +
      'runtime once whether its own Response body is a byte stream; where it is not, the double accepts every unlocked stream, so ' +
      'that `put(key, request.body)` works as on workerd, and reads a stream built in JS instead of refusing it as workerd does.',
  },
  'jsc-error-own-properties': {
    shownBy: 'any target on Bun (JavaScriptCore)',
    why:
      'JavaScriptCore gives every Error it constructs own properties line, column, sourceURL, originalLine and originalColumn ' +
      'beside message and stack (Bun 1.4.5), whoever throws it; V8 (workerd, Node, Deno, Chromium) gives only message and stack.',
  },
  'happy-dom-bodies': {
    shownBy: "the double under Vitest's happy-dom environment",
    why:
      "happy-dom's own Request, Response and Blob (which take the place of the platform's under that environment) make their " +
      'bodies as default streams, not byte streams, so the double cannot tell them from a stream built in JS and refuses them ' +
      'as of unknown length, as workerd refuses those. Bytes, strings and the Blob itself are accepted.',
  },
  'happy-dom-headers-case': {
    shownBy: "the double under Vitest's happy-dom environment",
    why:
      "happy-dom's Headers iterates names in the case they were given; the platform's Headers (Node, browsers, workerd) " +
      'lowercases them. writeHttpMetadata sets the same fields either way.',
  },
  'jsdom-blob-without-stream': {
    shownBy: "the double under Vitest's jsdom environment",
    why: "jsdom's Blob (which takes the place of the platform's under that environment) has no stream() method, so there is no Blob stream to put.",
  },
  'jsdom-realm-byte-chunks': {
    shownBy: "the double under Vitest's jsdom environment",
    why:
      "Under that environment the global Uint8Array is jsdom's, while Node's byte streams (the body's, as a Response body's) hand " +
      "out chunks made with Node's own: real Uint8Arrays that fail `instanceof Uint8Array` in the test file.",
  },
} as const satisfies Record<string, { shownBy: string; why: string }>;

/** The id of a declared difference: a target lists the ones it shows in `differences`. */
export type BucketDifferenceId = keyof typeof bucketDifferences;

/** What the local simulator (the workerd targets) shows. */
export const simulatorDifferences: readonly BucketDifferenceId[] = [
  'simulator-storage-class',
  'simulator-list-unrequested-metadata',
  'simulator-ssec-ignored',
  'simulator-random-part-etags',
];

/** What the double shows wherever it runs. */
export const doubleDifferences: readonly BucketDifferenceId[] = ['double-js-byte-stream-length'];

/** What the double shows when it runs inside workerd. */
export const doubleInWorkerdDifferences: readonly BucketDifferenceId[] = [
  ...doubleDifferences,
  'double-in-workerd-stream-length',
];

/**
 * The differences the runtime running the suite brings, found by asking it (never by its name):
 * whether its own Response bodies are byte streams (else the double accepts every stream,
 * 'double-default-stream-bodies': Bun, Deno), and whether its Errors carry more own properties than
 * message and stack ('jsc-error-own-properties': Bun). Empty on Node, browsers and workerd.
 */
export function runtimeDifferences(): BucketDifferenceId[] {
  const shown: BucketDifferenceId[] = [];
  const body = typeof Response === 'function' ? new Response('').body : null;
  if (body) {
    try {
      body.getReader({ mode: 'byob' }).releaseLock();
    } catch {
      shown.push('double-default-stream-bodies');
    }
  }
  if (Object.getOwnPropertyNames(new Error('')).some((p) => p !== 'message' && p !== 'stack'))
    shown.push('jsc-error-own-properties');
  return shown;
}

/** What the double shows under Vitest's happy-dom environment: happy-dom's Request, Response, Blob and Headers. */
export const happyDomDifferences: readonly BucketDifferenceId[] = [
  ...doubleDifferences,
  'happy-dom-bodies',
  'happy-dom-headers-case',
];

/** What the double shows under Vitest's jsdom environment: jsdom's Blob and typed arrays. */
export const jsdomDifferences: readonly BucketDifferenceId[] = [
  ...doubleDifferences,
  'jsdom-blob-without-stream',
  'jsdom-realm-byte-chunks',
];
