/**
 * The body of R2's rule-set PUTs (lifecycle, locks: `{ rules: [...] }`, reference r2-bucket-config.md
 * §2.4 and §3.3): JSON, read once, its `rules` handed to the model's validator. Anything the
 * validator refuses, and a body that is not JSON, is R2's 10040 "The JSON you provided was not well
 * formed." (the answer the reference records for an R2 body the API cannot take, §3.1); the API's own
 * texts for each rule refusal are not established, so the validator's reason follows as a second error.
 */
import type { Incoming } from '../api/router.js';
import { r2ApiErrors } from './errors.js';

export async function rulesBody<R>(req: Incoming, validate: (rules: unknown) => R, ruleError: new (...a: never[]) => Error): Promise<R> {
  let body: unknown;
  try {
    body = JSON.parse(await req.text());
  } catch (e) {
    if (e instanceof SyntaxError) throw r2ApiErrors.malformed();
    throw e;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw r2ApiErrors.malformed();
  // An absent `rules` is an empty set: the SDK's `rules?` (LifecycleUpdateParams, LockUpdateParams).
  const rules = (body as { rules?: unknown }).rules ?? [];
  try {
    return validate(rules);
  } catch (e) {
    if (e instanceof ruleError) throw r2ApiErrors.malformed(e.message);
    throw e;
  }
}
