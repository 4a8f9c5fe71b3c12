/**
 * How a binding method reports errors. workerd converts arguments before it runs the method body;
 * since compatibility date 2022-10-31 (flag `capture_async_api_throws`) a conversion error becomes a
 * rejection like any other, before it it was thrown synchronously. Errors of the body always reject.
 */
export type Invoke = <A, R>(convert: () => A, body: (args: A) => R | Promise<R>) => Promise<R>;

// A body's promise is awaited (`return await`, not `return`): one that rejects at once would
// otherwise go without a handler for a tick, which workerd reports as an unhandled rejection. A
// plain value is returned as it is, which saves a turn of the microtask queue on head and get.
const asyncInvoke: Invoke = async (convert, body) => {
  const r = body(convert());
  return r instanceof Promise ? await r : r;
};

const syncInvoke: Invoke = (convert, body) => {
  const args = convert(); // throws synchronously
  return (async () => {
    const r = body(args);
    return r instanceof Promise ? await r : r;
  })();
};

export const invoker = (syncConversionErrors: boolean): Invoke => (syncConversionErrors ? syncInvoke : asyncInvoke);

const CAPTURE_DATE = '2022-10-31';

/** Whether conversion errors are thrown synchronously for this compatibility date and flags. */
export function throwsSynchronously(date: string | undefined, flags: readonly string[]): boolean {
  if (flags.includes('capture_async_api_throws')) return false;
  if (flags.includes('do_not_capture_async_api_throws')) return true;
  return date !== undefined && date < CAPTURE_DATE;
}
