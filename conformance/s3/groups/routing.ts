import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';

// Routes, subresources and bucket-level answers (docs/sources/r2-s3.md#routing,
// docs/sources/r2-s3.md#bucket-answers).
export const routing = defineGroup('routing and buckets', (t) => {
  t.test("?policyStatus is R2's own typo; object ?tagging on GET is 501", async (c) => {
    const p = await c.send('', { query: 'policyStatus' });
    expect([p.status, p.error?.Message]).toEqual([501, 'GetGetBucketPolicyStatus not implemented']);
    const tag = await c.send(c.key(), { query: 'tagging' });
    expect([tag.status, tag.error?.Message]).toEqual([501, 'GetObjectTagging not implemented']);
  });

  t.test('?location with another parameter is 400; PUT ?junk is 400; PUT ?junk&tagging is 501', async (c) => {
    const loc = await c.send('', { query: 'location&foobar=1' });
    expect([loc.status, loc.error?.Message]).toEqual([400, 'Search param foobar is unsupported for bucket location']);
    const junk = await c.send('', { method: 'PUT', query: 'junk' });
    expect([junk.status, junk.error?.Message]).toEqual([
      400,
      'Unsupported search param(s) "junk" on a PUT bucket route',
    ]);
    const tagging = await c.send('', { method: 'PUT', query: 'junk&tagging' });
    expect([tagging.status, tagging.error?.Message]).toEqual([501, 'PutBucketTagging not implemented']);
  });

  t.test('fixed bucket answers: versioning is empty; tagging is 404 NoSuchTagSet', async (c) => {
    const v = await c.send('', { query: 'versioning' });
    expect(v.status).toBe(200);
    expect(v.text).toContain('VersioningConfiguration');
    const tags = await c.send('', { query: 'tagging' });
    expect([tags.status, tags.error?.Code]).toEqual([404, 'NoSuchTagSet']);
  });

  t.test(
    'HeadBucket answers x-amz-bucket-region: auto',
    async (c) => {
      const r = await c.client.send(new c.sdk.HeadBucketCommand({ Bucket: c.bucket }));
      expect(r.BucketRegion).toBe('auto');
    },
    { difference: 'miniflare-no-bucket-region' },
  );

  t.test(
    'ListBuckets lists the bucket with its CreationDate',
    async (c) => {
      const r = await c.client.send(new c.sdk.ListBucketsCommand({}));
      const mine = r.Buckets!.find((b) => b.Name === c.bucket);
      expect(mine?.CreationDate).toBeInstanceOf(Date);
    },
    { difference: 'miniflare-no-creation-date' },
  );

  t.test('a method S3 does not route is 404 RouteNotFound', async (c) => {
    const r = await c.send(c.key(), { method: 'PATCH', body: 'x' });
    expect([r.status, r.error?.Code, r.error?.Message]).toEqual([404, 'RouteNotFound', 'No route matches this url.']);
  });

  t.test("errors are S3's XML envelope, without RequestId or HostId", async (c) => {
    const r = await c.send(c.key('missing'));
    expect(r.headers.get('content-type')).toContain('application/xml');
    expect(r.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(Object.keys(r.error ?? {})).toEqual(['Code', 'Message']);
  });
});
