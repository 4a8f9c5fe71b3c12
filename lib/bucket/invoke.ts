import type { R2Action } from './errors.js';

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

/** The binding's methods that reach R2 (resumeMultipartUpload does not: it only makes a handle). */
export type BucketOperation = R2Action;

// A body's promise is awaited (`return await`, not `return`): one that rejects at once would
// otherwise go without a handler for a tick, which workerd reports as an unhandled rejection. A
// plain value is returned as it is, which saves a turn of the microtask queue on head and get.
const asyncInvoke: Invoke = async (_op, _key, _options, convert, body) => {
  const r = body(convert());
  return r instanceof Promise ? await r : r;
};

const syncInvoke: Invoke = (_op, _key, _options, convert, body) => {
  const args = convert(); // throws synchronously
  return (async () => {
    const r = body(args);
    return r instanceof Promise ? await r : r;
  })();
};

export const invoker = (syncConversionErrors: boolean): Invoke => (syncConversionErrors ? syncInvoke : asyncInvoke);
