/**
 * The third argument of a Worker's `fetch(request, env, ctx)`: `createExecutionContext()` and
 * `waitOnExecutionContext(ctx)`, named and behaving as `cloudflare:test`'s (the Workers Vitest
 * pool), so a test moves between plain Vitest and the pool by changing its import.
 *
 * As the pool does: `waitOnExecutionContext` waits for every promise given to `waitUntil`,
 * including those given while it waits, then throws the one rejection (or an AggregateError of
 * several). Unlike the pool, it has no time limit of its own (the pool gives up after a while): a
 * promise that never settles leaves the test to its runner's timeout, which names the test.
 */

/** What `createExecutionContext` gives: the members a Worker's handlers use. */
export interface TestExecutionContext<Props = unknown> {
  /** Keeps `promise` as work that outlives the response; `waitOnExecutionContext` waits for it. */
  waitUntil(promise: Promise<unknown>): void;
  /** Accepted and ignored: no origin stands behind a test to pass through to. */
  passThroughOnException(): void;
  /** What the caller of an entrypoint passed (`options.props`); `{}` by default, as in workerd. */
  readonly props: Props;
}

const pending = new WeakMap<object, Promise<unknown>[]>();

const ILLEGAL_INVOCATION =
  'Illegal invocation: function called with incorrect `this` reference. See https://developers.cloudflare.com/workers/observability/errors/#illegal-invocation-errors for details.';

class ExecutionContext<Props> implements TestExecutionContext<Props> {
  readonly props: Props;

  constructor(props: Props) {
    this.props = props;
    pending.set(this, []);
  }

  waitUntil(promise: Promise<unknown>): void {
    const list = pending.get(this);
    if (!list) throw new TypeError(ILLEGAL_INVOCATION); // workerd's text, for a waitUntil called detached
    const p = Promise.resolve(promise);
    // Handled here, seen by waitOnExecutionContext: a rejection that came before the test waits would
    // otherwise be reported by Node as unhandled and fail the run, not the test.
    p.catch(() => {});
    list.push(p);
  }

  passThroughOnException(): void {}
}

/**
 * A new execution context for a handler call. TypeScript: it has the members above; where a handler
 * is typed with workers-types' `ExecutionContext` (which also lists members no test double can
 * honour, such as `tracing`), name it: `createExecutionContext<ExecutionContext>()`; props are typed
 * the same way (`createExecutionContext<TestExecutionContext<MyProps>>({ props })`).
 */
export function createExecutionContext<Ctx = TestExecutionContext>(options?: { props?: unknown }): Ctx {
  return new ExecutionContext(options?.props ?? {}) as unknown as Ctx;
}

/**
 * Waits until every promise given to `ctx.waitUntil` has settled (those given meanwhile too);
 * rejects with the one rejection, or an AggregateError of all of them.
 */
export async function waitOnExecutionContext(ctx: unknown): Promise<void> {
  const list = typeof ctx === 'object' && ctx !== null ? pending.get(ctx) : undefined;
  if (!list) {
    throw new TypeError(
      "Failed to execute 'getWaitUntil': parameter 1 is not of type 'ExecutionContext'.\n" +
        "You must call 'createExecutionContext()' to get an 'ExecutionContext' instance.",
    );
  }
  const errors: unknown[] = [];
  while (list.length > 0) {
    for (const result of await Promise.allSettled(list.splice(0))) {
      if (result.status === 'rejected') errors.push(result.reason);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} waitUntil promises rejected`);
}
