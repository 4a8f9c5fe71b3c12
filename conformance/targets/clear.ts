import type { R2BucketLike } from '../../lib/bucket/types.js';

/** Empties a real bucket between tests (the suite expects an empty one each time). */
export async function clearBucket(bucket: R2BucketLike): Promise<R2BucketLike> {
  for (;;) {
    const page = await bucket.list({ limit: 1000 });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((o) => o.key));
    if (!page.truncated) return bucket;
  }
}
