/**
 * A bucket's local uploads setting over the API (lib/r2-api/local-uploads.ts; cloudflare/api-schemas
 * 2026-08-14): off on a new bucket, set by PUT { enabled }, refused without a boolean, a setting of
 * the bucket (logged through its layer, held by a snapshot). wrangler's commands run against it in
 * spec/r2-api/wrangler-lifecycle-locks.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CloudflareApi } from '../../lib/cloudflare-api/cloudflare-api.js';
import { Bucket } from '../../lib/bucket.js';

const BASE = 'https://api.cloudflare.com/client/v4';

function setup() {
  const api = new CloudflareApi();
  const bucket = api.account.addBucket('photos', new Bucket({ log: true }));
  const call = async (method: string, body?: unknown) => {
    const res = await api.fetch(
      new Request(`${BASE}/accounts/${api.account.id}/r2/buckets/photos/local-uploads`, {
        method,
        headers: { authorization: 'Bearer any-token', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: res.status, body: (await res.json()) as { result: unknown; errors: { code: number }[] } };
  };
  return { api, bucket, call };
}

describe('/r2/buckets/{bucket}/local-uploads', () => {
  it('is off on a new bucket; PUT { enabled } sets it and GET reads it back', async () => {
    const { call } = setup();
    expect((await call('GET')).body.result).toEqual({ enabled: false });
    expect((await call('PUT', { enabled: true })).body).toMatchObject({ success: true, result: {} });
    expect((await call('GET')).body.result).toEqual({ enabled: true });
  });

  it('refuses a body without a boolean enabled with 10040, changing nothing', async () => {
    const { call } = setup();
    for (const body of [{}, { enabled: 'yes' }, []]) {
      const r = await call('PUT', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0]!.code).toBe(10040);
    }
    expect((await call('GET')).body.result).toEqual({ enabled: false });
  });

  it("is a setting of the bucket: logged through its layer, held by the account's snapshot", async () => {
    const { api, bucket, call } = setup();
    const snap = api.snapshot();
    await call('PUT', { enabled: true });
    expect(bucket.log.filter({ op: 'putBucketLocalUploads' })).toMatchObject([{ surface: 'api', status: 'ok' }]);
    api.restore(snap);
    expect((await call('GET')).body.result).toEqual({ enabled: false });
  });
});
