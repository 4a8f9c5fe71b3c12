/**
 * Keeping workerd's current request alive for work a double schedules during it that must outlive
 * its response (a queue's wake-up and the delivery it starts); on other platforms, nothing.
 *
 * workerd ties a timer to the request that set it: once the request is over (a test has read the
 * response) and nothing keeps it, its timers never fire. `waitUntil` of `cloudflare:workers` keeps
 * the current request going until the promise given settles
 * (https://developers.cloudflare.com/workers/runtime-apis/context/#waituntil). It is found through
 * `process.getBuiltinModule`, which workerd answers for its built-ins under nodejs_compat (workerd
 * src/workerd/api/node/process.c++; @cloudflare/vitest-plugin requires that flag): no static import,
 * so this module loads in Node and browsers, where the lookup finds nothing.
 *
 * The promise handed to `waitUntil` is settled by the request's own timers only, never from another
 * request. Measured inside @cloudflare/vitest-plugin, a request kept for a promise the test settles
 * (a fake timer's callback runs in the test's context) fails: workerd cancels it as hung while
 * nothing of its own is pending, and the settling rejects with "Cannot perform I/O on behalf of a
 * different Durable Object", an unhandled error that fails the run. So the request waits on
 * workerd's own timer (`scheduler.wait`, which fake timers leave alone) and asks the double, at
 * each tick, whether its work is still pending.
 */

type WaitUntil = (promise: Promise<unknown>) => void;

/** undefined: not looked up yet; null: none on this platform. */
let found: WaitUntil | null | undefined;

function lookUp(): WaitUntil | null {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('cloudflare:workers') as { waitUntil?: unknown } | undefined;
    if (mod && typeof mod.waitUntil === 'function') return mod.waitUntil as WaitUntil;
  } catch {
    /* no such module here */
  }
  return null;
}

/** Whether `keepRequestAlive` can keep anything: inside workerd, with `waitUntil` found. */
function canKeepRequestAlive(): boolean {
  if (found === undefined) found = lookUp();
  return found !== null;
}

/** A wait on workerd's own timer, which fake timers leave alone (`scheduler.wait`), else on `setTimeout`. */
function realWait(ms: number): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { wait?: (ms: number) => Promise<void> } }).scheduler;
  if (typeof scheduler?.wait === 'function') return scheduler.wait(ms);
  return new Promise((resolve) => globalThis.setTimeout(resolve, ms));
}

/** How often a kept request asks whether the work is still pending. */
const TICK_MS = 20;

/**
 * Inside a workerd request, keeps it alive for `ms`, then while `pending()` says so, `afterMs` at
 * most beyond `ms` (counted in ticks: `Date` may be faked); outside a request (workerd's global
 * scope) and on other platforms, does nothing.
 */
export function keepRequestAlive(ms: number, pending: () => boolean, afterMs: number): void {
  if (!canKeepRequestAlive()) return;
  const kept = async () => {
    await realWait(ms);
    for (let waited = 0; waited < afterMs && pending(); waited += TICK_MS) await realWait(TICK_MS);
  };
  try {
    found!(kept().catch(() => {}));
  } catch {
    /* no request is current (workerd's global scope): there is nothing to keep alive */
  }
}
