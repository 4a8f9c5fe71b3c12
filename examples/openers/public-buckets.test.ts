/** docs/public-buckets.md's opening example: a bucket's r2.dev host, enabled through the API. */
import { expect, it } from 'vitest';
// README: public-buckets
import { Bucket, CloudflareApi } from 'edge-doubles';

const api = new CloudflareApi(); // the /client/v4 double over one account
const photos = api.account.addBucket('photos', new Bucket());
await photos.put('cat.txt', 'meow', { httpMetadata: { contentType: 'text/plain' } });

// As `wrangler r2 bucket dev-url enable photos` (or the SDK's r2.buckets.domains.managed.update) does:
await api.fetch(`https://api.cloudflare.com/client/v4/accounts/${api.account.id}/r2/buckets/photos/domains/managed`, {
  method: 'PUT',
  headers: { authorization: 'Bearer any-token', 'content-type': 'application/json' },
  body: JSON.stringify({ enabled: true }),
});
const host = api.public.managedDomain('photos'); // pub-<32 hex>.r2.dev
const response = await api.public.fetch(`https://${host}/cat.txt`);
// README: end

it('serves the object at the bucket r2.dev host', async () => {
  expect(host).toMatch(/^pub-[0-9a-f]{32}\.r2\.dev$/);
  expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([
    200,
    'text/plain',
    'meow',
  ]);
});
