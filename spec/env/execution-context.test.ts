/**
 * `createExecutionContext` / `waitOnExecutionContext`: the `ctx` of a Worker's handlers, named and
 * behaving as `cloudflare:test`'s, with workerd's `props` default and its illegal-invocation text
 * (observed in workerd through Miniflare 4.20260730.0).
 */
import { describe, expect, it } from 'vitest';
import { Bucket, createExecutionContext, waitOnExecutionContext, type TestExecutionContext } from '../../lib/index.js';

const later = <T>(value: T, ms = 1) => new Promise<T>((done) => setTimeout(() => done(value), ms));

describe('createExecutionContext', () => {
  it('waitOnExecutionContext waits for every waitUntil promise, those given while it waits too', async () => {
    const ctx = createExecutionContext();
    const done: string[] = [];
    ctx.waitUntil(later(null, 5).then(() => done.push('first')));
    ctx.waitUntil(
      later(null, 1).then(() => {
        done.push('second');
        ctx.waitUntil(later(null, 10).then(() => done.push('given while waiting')));
      }),
    );
    await waitOnExecutionContext(ctx);
    expect(done).toEqual(['second', 'first', 'given while waiting']);
  });

  it('rejects with the one rejection, or an AggregateError of several, after all have settled', async () => {
    const one = createExecutionContext();
    const boom = new Error('boom');
    one.waitUntil(Promise.reject(boom));
    await expect(waitOnExecutionContext(one)).rejects.toBe(boom);

    const two = createExecutionContext();
    let settled = false;
    two.waitUntil(Promise.reject(new Error('a')));
    two.waitUntil(later(null, 5).then(() => (settled = true)));
    two.waitUntil(later(null, 1).then(() => Promise.reject(new Error('b'))));
    const e = await waitOnExecutionContext(two).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AggregateError);
    expect((e as AggregateError).errors.map((x: Error) => x.message)).toEqual(['a', 'b']);
    expect(settled).toBe(true);
  });

  it('a rejection before the test waits is not reported as unhandled', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const ctx = createExecutionContext();
      ctx.waitUntil(Promise.reject(new Error('early')));
      await later(null, 5); // a macrotask: Node reports unhandled rejections by then
      expect(unhandled).toEqual([]);
      await expect(waitOnExecutionContext(ctx)).rejects.toThrow('early');
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it('accepts any value as workerd does, and is empty once waited on', async () => {
    const ctx = createExecutionContext();
    ctx.waitUntil(5 as never);
    await waitOnExecutionContext(ctx);
    await waitOnExecutionContext(ctx);
  });

  it('props: {} by default, as in workerd, or what is given', () => {
    expect(createExecutionContext().props).toEqual({});
    expect(createExecutionContext<TestExecutionContext<{ user: string }>>({ props: { user: 'ann' } }).props).toEqual({
      user: 'ann',
    });
  });

  it("refuses what it did not make, with cloudflare:test's text, and a detached waitUntil with workerd's", async () => {
    await expect(waitOnExecutionContext({ waitUntil() {} })).rejects.toThrow(
      "Failed to execute 'getWaitUntil': parameter 1 is not of type 'ExecutionContext'.",
    );
    const { waitUntil } = createExecutionContext();
    expect(() => waitUntil(Promise.resolve())).toThrow(
      new TypeError(
        'Illegal invocation: function called with incorrect `this` reference. See https://developers.cloudflare.com/workers/observability/errors/#illegal-invocation-errors for details.',
      ),
    );
    expect(createExecutionContext().constructor.name).toBe('ExecutionContext');
    expect(() => createExecutionContext().passThroughOnException()).not.toThrow();
  });

  it("runs a Worker's fetch(request, env, ctx) whose work outlives the response", async () => {
    // README: execution-context
    const worker = {
      async fetch(request: Request, env: { FILES: Bucket }, ctx: TestExecutionContext) {
        ctx.waitUntil(env.FILES.put(`audit/${Date.now()}`, request.url)); // after the response
        return new Response('ok');
      },
    };
    const env = { FILES: new Bucket() };
    const ctx = createExecutionContext(); // typed ExecutionContext: createExecutionContext<ExecutionContext>()
    const response = await worker.fetch(new Request('https://example.com/a'), env, ctx);
    await waitOnExecutionContext(ctx); // every waitUntil promise has settled (or this throws)
    expect(await response.text()).toBe('ok');
    expect((await env.FILES.list({ prefix: 'audit/' })).objects).toHaveLength(1);
    // README: end
  });
});
