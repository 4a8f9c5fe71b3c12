/**
 * The one reader of R2 API request bodies: JSON, read once. `jsonObject` is the body as an object
 * (buckets, CORS, domains, lifecycle, locks); `rulesBody` is a rule-set PUT's (lifecycle, locks:
 * `{ rules: [...] }`, docs/sources/r2-api.md#lifecycle and docs/sources/r2-api.md#locks), its
 * `rules` handed to the model's validator. A body that is not a JSON object, and anything the validator
 * refuses, is R2's 10040 "The JSON you provided was not well formed." (what the API answers a body
 * it cannot take, wrangler's tests and workers-sdk#8486: docs/sources/r2-api.md#buckets); the API's
 * own texts for each rule refusal are not established, so the validator's reason follows as a
 * second error. A body that fails while read is not "malformed": its error goes on.
 */
import type { Incoming } from '../api/router.js';
import { r2ApiErrors } from './errors.js';

/** The JSON object a request's body holds, or 10040. */
export async function jsonObject(req: Incoming): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = JSON.parse(await req.text());
  } catch (e) {
    if (e instanceof SyntaxError) throw r2ApiErrors.malformed();
    throw e;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw r2ApiErrors.malformed();
  return body as Record<string, unknown>;
}

export async function rulesBody<R>(
  req: Incoming,
  validate: (rules: unknown) => R,
  ruleError: new (...a: never[]) => Error,
): Promise<R> {
  // An absent `rules` is an empty set: the SDK's `rules?` (LifecycleUpdateParams, LockUpdateParams).
  const rules = (await jsonObject(req)).rules ?? [];
  try {
    return validate(rules);
  } catch (e) {
    if (e instanceof ruleError) throw r2ApiErrors.malformed(e.message);
    throw e;
  }
}
