/**
 * The control plane's state in the test support (point 8, for buckets): `snapshot()`/`restore()`
 * bring back which buckets exist, what each holds and its default storage class; `reset()` empties
 * them; fault rules and the request log cover R2's routes as they do DNS's.
 */
import { describe, expect, it } from 'vitest';
import Cloudflare from 'cloudflare';
import { createEnv, type Bucket } from '../../lib/index.js';
import { CloudflareApi } from '../../lib/cloudflare-api/index.js';

const quiet = { onWarning: () => {} };
const sdk = (api: CloudflareApi) =>
  new Cloudflare({ apiToken: 'any', apiEmail: null, apiKey: null, fetch: api.fetch, maxRetries: 0 });
const bind = (api: CloudflareApi, name: string) =>
  createEnv<{ B: Bucket }>({ r2_buckets: [{ binding: 'B', bucket_name: name }] }, { ...quiet, api }).env.B;

describe('CloudflareApi test support over buckets', () => {
  it('restore brings back the buckets, their objects and storage class; buckets made since are gone', async () => {
    const api = new CloudflareApi({ buckets: ['kept'] });
    const account_id = api.account.id;
    await bind(api, 'kept').put('a', 'before');
    const snap = api.snapshot();

    await sdk(api).r2.buckets.create({ account_id, name: 'later' });
    await sdk(api).r2.buckets.create({ account_id, name: 'later', 'cf-r2-jurisdiction': 'eu' });
    await sdk(api).r2.buckets.edit('kept', { account_id, storage_class: 'InfrequentAccess' });
    await bind(api, 'kept').delete('a');
    await sdk(api).r2.buckets.delete('kept', { account_id });
    expect(api.account.buckets).toEqual(['later']);

    api.restore(snap);
    expect(api.account.buckets).toEqual(['kept']);
    expect((await sdk(api).r2.buckets.list({ account_id, 'cf-r2-jurisdiction': 'eu' })).buckets).toEqual([]);
    expect(await (await bind(api, 'kept').get('a'))!.text()).toBe('before');
    expect((await sdk(api).r2.buckets.get('kept', { account_id })).storage_class).toBe('Standard');
    expect(() => api.restore(new CloudflareApi().snapshot())).toThrow(TypeError);
  });

  it('reset empties every bucket and keeps the buckets', async () => {
    const api = new CloudflareApi({ buckets: ['one'] });
    api.addBucket('one', { jurisdiction: 'eu' });
    await bind(api, 'one').put('k', 'v');
    const eu = createEnv<{ B: Bucket }>(
      { r2_buckets: [{ binding: 'B', bucket_name: 'one', jurisdiction: 'eu' }] },
      { ...quiet, api },
    ).env.B;
    await eu.put('k', 'v');
    api.reset();
    expect(api.account.buckets).toEqual(['one']);
    expect(await bind(api, 'one').head('k')).toBeNull();
    expect(await eu.head('k')).toBeNull();
  });

  it("fault rules catch R2's routes, and the request log records them", async () => {
    const api = new CloudflareApi({ log: true });
    api.faults.add({ method: 'POST', path: 'accounts/*/r2/buckets', status: 503, times: 1 });
    await expect(sdk(api).r2.buckets.create({ account_id: api.account.id, name: 'flaky' })).rejects.toMatchObject({
      status: 503,
    });
    await sdk(api).r2.buckets.create({ account_id: api.account.id, name: 'flaky' });
    expect(api.account.buckets).toEqual(['flaky']);
    expect(api.log.filter({ method: 'POST' }).map((e) => e.status)).toEqual([503, 200]);
  });
});
