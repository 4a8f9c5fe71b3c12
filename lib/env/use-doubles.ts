/**
 * Swapping bindings for doubles on an `env` someone else owns, such as the `env` of
 * `cloudflare:test` / `cloudflare:workers` inside workerd: that `env` is a writable object shared
 * by the test and the Worker (`exports.default.fetch()` / `SELF` included), so assigning onto it
 * reaches both, and `withEnv` alone would not reach `SELF`. Nothing here imports a runtime module.
 */

/**
 * Assigns each of `doubles` onto `env` and returns the function that puts the previous values back
 * (keys that were absent are removed again). Returned from Vitest's `beforeEach`, that function is
 * its cleanup, so the swap lasts one test:
 * `beforeEach(() => useDoubles(env, createEnv(config).env))`.
 */
export function useDoubles<E extends object>(
  env: E,
  doubles: { [K in keyof E]?: unknown } | Record<string, unknown>,
): () => void {
  const target = env as Record<string, unknown>;
  const saved = Object.keys(doubles).map((key) => ({ key, had: key in target, value: target[key] }));
  for (const key of Object.keys(doubles)) target[key] = (doubles as Record<string, unknown>)[key];
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    for (const { key, had, value } of saved.reverse()) {
      if (had) target[key] = value;
      else delete target[key];
    }
  };
}
