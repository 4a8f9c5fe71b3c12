import { describe, expect, it } from 'vitest';
import { Bucket } from '../../lib/bucket/index.js';

describe('Bucket options', () => {
  it('defaultStorageClass applies to puts and uploads without a storage class', async () => {
    const bucket = new Bucket({ defaultStorageClass: 'InfrequentAccess' });
    expect((await bucket.put('a', 'x')).storageClass).toBe('InfrequentAccess');
    expect((await bucket.put('b', 'x', { storageClass: 'Standard' })).storageClass).toBe('Standard');
    const upload = await bucket.createMultipartUpload('c');
    expect((await upload.complete([])).storageClass).toBe('InfrequentAccess');
  });

  it("the default storage class is 'Standard'", async () => {
    expect((await new Bucket().put('a', 'x')).storageClass).toBe('Standard');
  });

  it('each bucket is its own store', async () => {
    const one = new Bucket();
    const two = new Bucket();
    await one.put('k', 'v');
    expect(await two.head('k')).toBeNull();
    expect((await two.list()).objects).toEqual([]);
  });

  describe('compatibility', () => {
    const seed = async (bucket: Bucket) => {
      await bucket.put('k', 'v', { httpMetadata: { contentType: 'text/plain' }, customMetadata: { a: '1' } });
      return bucket;
    };

    it('from 2022-08-04 list honours include', async () => {
      const bucket = await seed(new Bucket({ compatibilityDate: '2022-08-04' }));
      const [entry] = (await bucket.list({ include: ['customMetadata'] })).objects;
      expect(entry!.customMetadata).toEqual({ a: '1' });
      expect(entry!.httpMetadata).toBeUndefined();
    });

    it('before 2022-08-04 list returns both kinds of metadata whatever include says', async () => {
      const bucket = await seed(new Bucket({ compatibilityDate: '2022-08-03' }));
      const [entry] = (await bucket.list({ include: [] })).objects;
      expect(entry!.customMetadata).toEqual({ a: '1' });
      expect(entry!.httpMetadata).toEqual({ contentType: 'text/plain' });
    });

    for (const flag of ['r2_list_honor_include', 'store_list_honor_include']) {
      it(`the flag ${flag} turns include on before that date`, async () => {
        const bucket = await seed(new Bucket({ compatibilityDate: '2022-01-01', compatibilityFlags: [flag] }));
        const [entry] = (await bucket.list({ include: ['httpMetadata'] })).objects;
        expect(entry!.customMetadata).toBeUndefined();
      });
    }

    it('before 2022-10-31 argument-conversion errors are thrown synchronously; body errors still reject', async () => {
      const bucket = new Bucket({ compatibilityDate: '2022-10-30' });
      expect(() => bucket.list({ prefix: 5 as unknown as string })).toThrow(TypeError);
      await expect(bucket.list({ limit: 0 })).rejects.toThrow('(10022)');
    });

    it('from 2022-10-31 (and with no date) every error is a rejection', async () => {
      for (const bucket of [new Bucket({ compatibilityDate: '2022-10-31' }), new Bucket()]) {
        const result = bucket.list({ prefix: 5 as unknown as string });
        await expect(result).rejects.toThrow(TypeError);
      }
    });

    it('capture_async_api_throws brings rejections to an old date', async () => {
      const bucket = new Bucket({ compatibilityDate: '2022-01-01', compatibilityFlags: ['capture_async_api_throws'] });
      await expect(bucket.list({ prefix: 5 as unknown as string })).rejects.toThrow(TypeError);
    });
  });
});
