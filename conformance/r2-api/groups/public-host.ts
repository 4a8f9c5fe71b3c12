/**
 * What the cors and domains groups share for requests to a bucket's public hosts (r2.dev, custom
 * domains) through the target's `publicFetch`.
 */
import type { R2ApiClient, R2ApiTarget } from '../harness.js';

/** Why a test of a public GET is skipped on this target, or undefined when it can run. */
export const publicSkip = (target: R2ApiTarget): string | undefined =>
  target.publicFetch && target.putObject && target.deleteObject
    ? undefined
    : 'the target has no publicFetch, putObject or deleteObject';

/**
 * Enables the bucket's r2.dev domain and returns its origin (`https://pub-<hex>.r2.dev`), once it
 * serves `key` (an object the test put). R2 takes a while to start serving a host it just enabled;
 * the double serves at once, so on it this is one request.
 */
export async function publishManaged(c: R2ApiClient, bucket: string, key: string): Promise<string> {
  const put = await c.setManaged(bucket, true);
  if (put.status !== 200) throw new Error(`enable r2.dev on ${bucket}: ${put.status} ${put.text}`);
  const origin = `https://${put.body.result.domain}`;
  const deadline = Date.now() + (c.target.timeout ?? 5_000) / 2;
  for (;;) {
    const res = await c.target.publicFetch!(`${origin}/${key}`);
    await res.arrayBuffer();
    if (res.status === 200 || Date.now() > deadline) return origin;
    await new Promise((r) => setTimeout(r, 2_000));
  }
}
