import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bucket } from '../../lib/bucket.js';

const DAY = 24 * 60 * 60 * 1000;
const WEEK = 7 * DAY;

afterEach(() => {
  vi.useRealTimers();
});

describe('the bucket clock', () => {
  it('the clock option sets `uploaded`, read at each operation', async () => {
    let now = Date.UTC(2030, 0, 1);
    const bucket = new Bucket({ clock: () => now });
    expect((await bucket.put('a', 'x')).uploaded.getTime()).toBe(now);
    now += 1234;
    expect((await bucket.put('b', 'x')).uploaded.getTime()).toBe(now);
    expect((await bucket.head('a'))!.uploaded.getTime()).toBe(now - 1234);
  });

  it("with no option, Vitest's fake timers move it", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2031-05-06T07:08:09.010Z'));
    const bucket = new Bucket();
    expect((await bucket.put('k', 'v')).uploaded.toISOString()).toBe('2031-05-06T07:08:09.010Z');
  });

  it('conditional dates compare against that clock', async () => {
    let now = Date.UTC(2030, 0, 1);
    const bucket = new Bucket({ clock: () => now });
    await bucket.put('k', 'v');
    now += DAY;
    const before = new Date(Date.UTC(2030, 0, 1) + 1);
    expect(await bucket.get('k', { onlyIf: { uploadedBefore: before } })).toHaveProperty('body');
    expect(await bucket.put('k', 'w', { onlyIf: { uploadedAfter: before } })).toBeNull();
  });
});

describe('multipart expiry on the bucket clock', () => {
  it('with the clock option: 7 days minus 1 ms is still usable', async () => {
    let now = Date.UTC(2030, 0, 1);
    const bucket = new Bucket({ clock: () => now });
    const upload = await bucket.createMultipartUpload('k');
    now += WEEK - 1;
    const part = await upload.uploadPart(1, 'last minute');
    const object = await upload.complete([part]);
    expect(object.size).toBe('last minute'.length);
    expect(await (await bucket.get('k'))!.text()).toBe('last minute');
  });

  it('with the clock option: at 7 days the upload is aborted', async () => {
    let now = Date.UTC(2030, 0, 1);
    const bucket = new Bucket({ clock: () => now });
    const upload = await bucket.createMultipartUpload('k');
    const part = await upload.uploadPart(1, 'early');
    now += WEEK;
    await expect(upload.uploadPart(2, 'late')).rejects.toThrow(
      'uploadPart: The specified multipart upload does not exist. (10024)',
    );
    await expect(upload.complete([part])).rejects.toThrow(
      'completeMultipartUpload: The specified multipart upload does not exist. (10024)',
    );
    await expect(upload.abort()).resolves.toBeUndefined();
    expect(await bucket.head('k')).toBeNull();
  });

  it('with fake timers and no option: advanceTimersByTime past the week expires a resumed upload too', async () => {
    vi.useFakeTimers();
    const bucket = new Bucket();
    const { uploadId } = await bucket.createMultipartUpload('k');
    vi.advanceTimersByTime(WEEK - 1);
    const resumed = bucket.resumeMultipartUpload('k', uploadId);
    await expect(resumed.uploadPart(1, 'still fine')).resolves.toMatchObject({ partNumber: 1 });
    vi.advanceTimersByTime(1);
    await expect(resumed.uploadPart(2, 'too late')).rejects.toThrow('(10024)');
  });

  it('the week runs from creation: uploading a part late does not extend it', async () => {
    vi.useFakeTimers();
    const bucket = new Bucket();
    const upload = await bucket.createMultipartUpload('k');
    vi.advanceTimersByTime(6 * DAY);
    const part = await upload.uploadPart(1, 'day six');
    vi.advanceTimersByTime(DAY);
    await expect(upload.complete([part])).rejects.toThrow('(10024)');
  });

  it('leaves no timer behind, however many uploads are open', async () => {
    vi.useFakeTimers();
    const bucket = new Bucket();
    for (let i = 0; i < 1000; i++) await bucket.createMultipartUpload(`k${i}`);
    expect(vi.getTimerCount()).toBe(0);
  });
});
