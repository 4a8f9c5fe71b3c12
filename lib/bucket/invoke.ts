import type { BucketAction } from './errors.js';

/**
 * How a binding method reports errors. workerd converts arguments before it runs the method body;
 * since compatibility date 2022-10-31 (flag `capture_async_api_throws`) a conversion error becomes a
 * rejection like any other, before it it was thrown synchronously (compat.ts decides which applies).
 * Errors of the body always reject.
 */
export type Invoke = <A, R>(
  /** What the call is, for test support (faults, the call log); the invokers here ignore it. */
  op: BucketOperation,
  key: unknown,
  options: unknown,
  convert: () => A,
  body: (args: A) => R | Promise<R>,
  value?: unknown,
) => Promise<R>;

/**
 * The binding's methods that reach R2 (resumeMultipartUpload does not: it only makes a handle), and
 * the operations on the bucket's settings (errors.ts `SettingAction`).
 */
export type BucketOperation = BucketAction;

/**
 * Which surface a call came in through: the call log records it, and each formats model errors its
 * way. `lifecycle`: the bucket's own lifecycle rules acting (layer.ts, `lifecycleDelete`); `public`:
 * a public host's read (r2.dev, a custom domain: lib/r2-public); `api`: the v4 API, both its object
 * routes (lib/r2-api/objects.ts, what `wrangler r2 object --remote` calls) and its bucket settings
 * routes (lib/r2-api), and the test helpers that change settings as those routes do.
 */
export type Surface = 'binding' | 's3' | 'public' | 'lifecycle' | 'api';

/** How a surface shows an error of the model (R2ModelError); anything else it returns as it is. */
export type ErrorFormat = (e: unknown) => unknown;

// A body's promise is awaited (`return await`, not `return`): one that rejects at once would
// otherwise go without a handler for a tick, which workerd reports as an unhandled rejection. A
// plain value is returned as it is, which saves a turn of the microtask queue on head and get.
// An error is formatted for the surface here, on its way out (a try costs nothing until it throws).
const asyncInvoke =
  (format: ErrorFormat): Invoke =>
  async (_op, _key, _options, convert, body) => {
    try {
      const r = body(convert());
      return r instanceof Promise ? await r : r;
    } catch (e) {
      throw format(e);
    }
  };

const syncInvoke =
  (format: ErrorFormat): Invoke =>
  (_op, _key, _options, convert, body) => {
    const args = convert(); // throws synchronously
    return (async () => {
      try {
        const r = body(args);
        return r instanceof Promise ? await r : r;
      } catch (e) {
        throw format(e);
      }
    })();
  };

export const invoker = (syncConversionErrors: boolean, format: ErrorFormat): Invoke =>
  syncConversionErrors ? syncInvoke(format) : asyncInvoke(format);
