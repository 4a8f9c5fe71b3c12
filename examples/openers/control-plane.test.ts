/** docs/control-plane.md's opening example: a bucket made with the SDK is the Worker's binding. */
import { expect, it } from 'vitest';
// README: control-plane-sdk
import Cloudflare from 'cloudflare';
import { CloudflareApi, createEnv, type Bucket } from 'edge-doubles';

const api = new CloudflareApi();
const cf = new Cloudflare({ apiToken: 'any-token', fetch: api.fetch, maxRetries: 0 });
await cf.r2.buckets.create({ account_id: api.account.id, name: 'uploads' });

// The Worker's env, over the same account: its binding is the bucket the API made.
const { env } = createEnv<{ FILES: Bucket }>({ r2_buckets: [{ binding: 'FILES', bucket_name: 'uploads' }] }, { api });
await env.FILES.put('a.txt', 'hi');
const listed = await cf.r2.buckets.list({ account_id: api.account.id });
// README: end

it('shows the bucket through the API and the binding', async () => {
  expect(listed.buckets?.map((b) => b.name)).toEqual(['uploads']);
  expect(env.FILES).toBe(api.account.bucket('uploads'));
});
