/**
 * `wrangler r2 bucket lifecycle list/add/remove/set`, `wrangler r2 bucket lock list/add/remove/set`
 * and `wrangler r2 bucket local-uploads get/enable/disable` against `api serve`, each checked by its effect on a Worker's binding over the same API (createEnv),
 * on the double's clock: an expiry wrangler added deletes what the Worker wrote once the clock passes
 * it; a lock wrangler added refuses the Worker's delete with 10069.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnv, type Bucket } from '../../lib/index.js';
import { bucketLayer } from '../../lib/bucket/internal.js';
import { ManualClock } from '../../lib/clock.js';
import { startWrangler, WRANGLER_TIMEOUT, type WranglerHarness } from '../helpers/wrangler.js';

const DAY = 86_400_000;
const quiet = { onWarning: () => {} };
const worker = { compatibility_date: '2025-01-01', r2_buckets: [{ binding: 'PHOTOS', bucket_name: 'photos' }] };

describe('wrangler r2 bucket lifecycle / lock, against api serve', () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  let w: WranglerHarness;
  let PHOTOS: Bucket;
  const rules = () => bucketLayer(w.api.account.bucket('photos')!)!.config;

  beforeAll(async () => {
    w = await startWrangler({ buckets: ['photos'], clock });
    PHOTOS = createEnv<{ PHOTOS: Bucket }>(worker, { ...quiet, api: w.api }).env.PHOTOS;
  });
  afterAll(() => w?.close());

  it(
    'lifecycle list shows the default rule; add appends an expiry that deletes what the Worker wrote; remove takes it out',
    async () => {
      const listed = await w.ok('r2', 'bucket', 'lifecycle', 'list', 'photos');
      expect(listed.stdout).toMatch(/name:\s+Default Multipart Abort Rule/);
      expect(listed.stdout).toContain('Abort incomplete multipart uploads after 7 days');

      await w.ok('r2', 'bucket', 'lifecycle', 'add', 'photos', 'expire-logs', 'logs/', '--expire-days', '1', '--force');
      expect(rules().lifecycle.map((r) => r.id)).toEqual(['Default Multipart Abort Rule', 'expire-logs']);
      await PHOTOS.put('logs/a.txt', 'old');
      await PHOTOS.put('keep.txt', 'kept');
      clock.advance(DAY);
      expect(await PHOTOS.head('logs/a.txt')).toBeNull();
      expect(await PHOTOS.head('keep.txt')).not.toBeNull();

      await w.ok('r2', 'bucket', 'lifecycle', 'remove', 'photos', '--name', 'expire-logs');
      expect(rules().lifecycle.map((r) => r.id)).toEqual(['Default Multipart Abort Rule']);
      await PHOTOS.put('logs/b.txt', 'stays');
      clock.advance(2 * DAY);
      expect(await PHOTOS.head('logs/b.txt')).not.toBeNull();
    },
    WRANGLER_TIMEOUT * 2,
  );

  it(
    'lifecycle set replaces the whole set from a file: without the default rule, uploads outlive the week',
    async () => {
      const file = w.file('lifecycle.json', {
        rules: [
          {
            id: 'ia',
            enabled: true,
            conditions: { prefix: 'cold/' },
            storageClassTransitions: [{ condition: { type: 'Age', maxAge: 86400 }, storageClass: 'InfrequentAccess' }],
          },
        ],
      });
      await w.ok('r2', 'bucket', 'lifecycle', 'set', 'photos', '--file', file, '--force');
      expect(rules().lifecycle.map((r) => r.id)).toEqual(['ia']);
      await PHOTOS.put('cold/x', 'x');
      const upload = await PHOTOS.createMultipartUpload('big');
      clock.advance(8 * DAY);
      expect((await PHOTOS.head('cold/x'))!.storageClass).toBe('InfrequentAccess');
      await expect(upload.uploadPart(1, 'still open')).resolves.toMatchObject({ partNumber: 1 });
    },
    WRANGLER_TIMEOUT,
  );

  it(
    "lock add refuses the Worker's delete (10069); list shows it; remove lifts it",
    async () => {
      await w.ok('r2', 'bucket', 'lock', 'add', 'photos', 'hold', 'legal/', '--retention-days', '2', '--force');
      expect(rules().locks).toEqual([
        { id: 'hold', enabled: true, prefix: 'legal/', condition: { type: 'Age', maxAgeSeconds: 172800 } },
      ]);
      await PHOTOS.put('legal/contract.pdf', 'signed');
      await expect(PHOTOS.delete('legal/contract.pdf')).rejects.toThrow(
        'delete: The object is locked by a bucket lock rule and cannot be deleted or overwritten. (10069)',
      );
      const listed = await w.ok('r2', 'bucket', 'lock', 'list', 'photos');
      expect(listed.stdout).toMatch(/name:\s+hold/);
      expect(listed.stdout).toContain('legal/');

      await w.ok('r2', 'bucket', 'lock', 'remove', 'photos', '--name', 'hold');
      expect(rules().locks).toEqual([]);
      await PHOTOS.delete('legal/contract.pdf');
      expect(await PHOTOS.head('legal/contract.pdf')).toBeNull();
    },
    WRANGLER_TIMEOUT * 2,
  );

  it(
    'lock set replaces every rule from a file: an indefinite lock holds whatever the clock',
    async () => {
      const file = w.file('locks.json', {
        rules: [{ id: 'forever', enabled: true, condition: { type: 'Indefinite' } }],
      });
      await w.ok('r2', 'bucket', 'lock', 'set', 'photos', '--file', file, '--force');
      await PHOTOS.put('any', 'v');
      clock.advance(3650 * DAY);
      await expect(PHOTOS.put('any', 'overwrite')).rejects.toThrow(
        'put: The object is locked by a bucket lock rule and cannot be deleted or overwritten. (10069)',
      );
    },
    WRANGLER_TIMEOUT,
  );

  it(
    'local-uploads get / enable / disable read and set the bucket setting (GET/PUT …/local-uploads)',
    async () => {
      expect((await w.ok('r2', 'bucket', 'local-uploads', 'get', 'photos')).stdout).toContain(
        "Local uploads are disabled for bucket 'photos'.",
      );
      await w.ok('r2', 'bucket', 'local-uploads', 'enable', 'photos', '--force');
      expect(rules().localUploads).toBe(true);
      expect((await w.ok('r2', 'bucket', 'local-uploads', 'get', 'photos')).stdout).toContain(
        "Local uploads are enabled for bucket 'photos'.",
      );
      await w.ok('r2', 'bucket', 'local-uploads', 'disable', 'photos', '--force');
      expect(rules().localUploads).toBe(false);
    },
    WRANGLER_TIMEOUT * 2,
  );
});
