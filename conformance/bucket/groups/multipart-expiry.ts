import { expect } from '../../runner.js';
import { defineGroup, type GroupContext } from '../harness.js';
import { expectBackendError } from '../util.js';

// An upload not completed 7 days after its creation is aborted (docs r2/objects/multipart-objects;
// docs/sources/r2-binding.md#multipart for how an aborted upload behaves). Every test here moves
// the target's clock, so it runs only where `advanceClock` exists (the doubles): a real bucket
// cannot be made to wait 7 days, and the harness skips these tests elsewhere with that reason in
// their names.

const DAY = 24 * 60 * 60 * 1000;
const EXPIRY = 7 * DAY;
const clock = { needsClock: true } as const;

const noSuchUpload = (action: 'uploadPart' | 'completeMultipartUpload') =>
  `${action}: The specified multipart upload does not exist. (10024)`;

/** Moves the target's clock forward by `ms`. */
const advance = (t: GroupContext, ms: number) => t.target.advanceClock!(ms);

/**
 * Pins the clock before the upload is created: on the double's targets the first `advanceClock`
 * freezes time (Vitest mocks Date), so no real milliseconds slip in between creating the upload and
 * moving the clock, and "7 days − 1 ms" is exact.
 */
const pin = (t: GroupContext) => advance(t, 0);

export const multipartExpiry = defineGroup('multipart expiry', (t) => {
  t.test(
    '7 days − 1 ms after creation the upload still takes parts and completes',
    async () => {
      await pin(t);
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('k');
      await advance(t, EXPIRY - 1);
      const part = await upload.uploadPart(1, 'still in time');
      await upload.complete([part]);
      expect(await (await b.get('k'))!.text()).toBe('still in time');
    },
    clock,
  );

  t.test(
    '7 days after creation uploadPart rejects with 10024',
    async () => {
      await pin(t);
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('k');
      await upload.uploadPart(1, 'early part');
      await advance(t, EXPIRY);
      await expectBackendError(() => upload.uploadPart(2, 'too late'), noSuchUpload('uploadPart'));
    },
    clock,
  );

  t.test(
    '7 days after creation complete rejects with 10024, as for an aborted upload',
    async () => {
      await pin(t);
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('k');
      const part = await upload.uploadPart(1, 'early part');
      await advance(t, EXPIRY);
      await expectBackendError(() => upload.complete([part]), noSuchUpload('completeMultipartUpload'));
      await expectBackendError(() => upload.complete([]), noSuchUpload('completeMultipartUpload'));
    },
    clock,
  );

  t.test(
    '7 days after creation abort resolves to undefined, as for an aborted upload',
    async () => {
      await pin(t);
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('k');
      await upload.uploadPart(1, 'early part');
      await advance(t, EXPIRY);
      expect(await upload.abort()).toBeUndefined();
      expect(await upload.abort()).toBeUndefined();
    },
    clock,
  );

  t.test(
    'a resumed handle of an expired upload sees it aborted: 10024 for uploadPart and complete',
    async () => {
      // Not the 10001 of an upload id that never existed (docs/sources/r2-binding.md#multipart).
      await pin(t);
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('k');
      const part = await upload.uploadPart(1, 'early part');
      await advance(t, EXPIRY);
      const resumed = b.resumeMultipartUpload('k', upload.uploadId);
      await expectBackendError(() => resumed.uploadPart(1, 'x'), noSuchUpload('uploadPart'));
      await expectBackendError(() => resumed.complete([part]), noSuchUpload('completeMultipartUpload'));
      expect(await resumed.abort()).toBeUndefined();
    },
    clock,
  );

  t.test(
    "an expired upload's parts never become visible to head, get or list",
    async () => {
      await pin(t);
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('k');
      const part = await upload.uploadPart(1, 'never seen');
      await advance(t, EXPIRY);
      await expect(upload.complete([part])).rejects.toThrow(noSuchUpload('completeMultipartUpload'));
      expect(await b.head('k')).toBeNull();
      expect(await b.get('k')).toBeNull();
      expect((await b.list()).objects).toEqual([]);
    },
    clock,
  );

  t.test(
    'creation time is what counts: a part uploaded on day 6 does not extend the upload',
    async () => {
      await pin(t);
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('k');
      await advance(t, 6 * DAY);
      const part = await upload.uploadPart(1, 'day six');
      await advance(t, DAY);
      await expectBackendError(() => upload.uploadPart(2, 'day seven'), noSuchUpload('uploadPart'));
      await expectBackendError(() => upload.complete([part]), noSuchUpload('completeMultipartUpload'));
    },
    clock,
  );

  t.test(
    'each upload expires 7 days after its own creation',
    async () => {
      await pin(t);
      const b = await t.bucket();
      const first = await b.createMultipartUpload('k');
      await advance(t, 3 * DAY);
      const second = await b.createMultipartUpload('k');
      await advance(t, 4 * DAY);
      await expectBackendError(() => first.uploadPart(1, 'x'), noSuchUpload('uploadPart'));
      const part = await second.uploadPart(1, 'second, day 4 of its 7');
      await advance(t, 3 * DAY - 1);
      await second.complete([part]);
      expect(await (await b.get('k'))!.text()).toBe('second, day 4 of its 7');
    },
    clock,
  );

  t.test(
    'an object completed before the 7 days stays readable after them; abort stays a no-op',
    async () => {
      await pin(t);
      const b = await t.bucket();
      const upload = await b.createMultipartUpload('k');
      const part = await upload.uploadPart(1, 'completed in time');
      await advance(t, EXPIRY - 1);
      const done = await upload.complete([part]);
      await advance(t, 30 * DAY);
      expect((await b.head('k'))?.etag).toBe(done.etag);
      expect(await upload.abort()).toBeUndefined();
      expect(await (await b.get('k'))!.text()).toBe('completed in time');
      await expectBackendError(() => upload.complete([part]), noSuchUpload('completeMultipartUpload'));
    },
    clock,
  );

  t.test(
    'expiry leaves an object already stored at the key untouched',
    async () => {
      await pin(t);
      const b = await t.bucket();
      const put = (await b.put('k', 'stored before'))!;
      const upload = await b.createMultipartUpload('k');
      await upload.uploadPart(1, 'part');
      await advance(t, EXPIRY);
      await expect(upload.uploadPart(2, 'x')).rejects.toThrow(noSuchUpload('uploadPart'));
      expect((await b.head('k'))?.version).toBe(put.version);
      expect(await (await b.get('k'))!.text()).toBe('stored before');
    },
    clock,
  );
});
