import { describe, expect, it } from 'vitest';
import { Bucket } from '../../lib/bucket.js';

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

  describe('options are checked when the bucket is made', () => {
    const make = (o: unknown) => () => new Bucket(o as never);

    it('a misspelt option is a TypeError naming it and suggesting the right one', () => {
      expect(make({ compatibiltyDate: '2022-01-01' })).toThrow(TypeError);
      expect(make({ compatibiltyDate: '2022-01-01' })).toThrow(
        "Unknown Bucket option 'compatibiltyDate' (did you mean 'compatibilityDate'?); the options are 'defaultStorageClass', 'compatibilityDate', 'compatibilityFlags', 'clock', 'seed', 'log', 'lifecycleTiming', 'storage', 'over'.",
      );
      expect(make({ nonsense: 1 })).toThrow("Unknown Bucket option 'nonsense'; the options are");
    });

    it("a malformed compatibility date is a TypeError naming the option; workerd's own range check applies", () => {
      for (const date of [
        '2022/01/01',
        'today',
        '',
        '1999-12-31',
        '3000-01-01',
        '2022-13-01',
        '2022-01-32',
        '2022-01-00',
        20220101,
        new Date(),
      ]) {
        expect(make({ compatibilityDate: date }), String(date)).toThrow(
          /^Bucket option 'compatibilityDate': .* is not a compatibility date/,
        );
      }
      // workerd reads the date with sscanf("%d-%d-%d"): single digits pass, and so does 2022-02-30.
      expect(make({ compatibilityDate: '2022-8-4' })).not.toThrow();
      expect(make({ compatibilityDate: '2022-02-30' })).not.toThrow();
    });

    it('an unpadded date means the same day: 2022-8-4 honours include', async () => {
      const bucket = new Bucket({ compatibilityDate: '2022-8-4' });
      await bucket.put('k', 'v', { customMetadata: { a: '1' } });
      expect((await bucket.list()).objects[0]!.customMetadata).toBeUndefined();
    });

    it('a flag workerd does not know is a TypeError naming the option and the flag', () => {
      expect(make({ compatibilityFlags: ['r2_list_honour_include'] })).toThrow(
        "Bucket option 'compatibilityFlags': workerd has no compatibility flag 'r2_list_honour_include'",
      );
      expect(make({ compatibilityFlags: 'nodejs_compat' })).toThrow(
        "Bucket option 'compatibilityFlags': expected an array",
      );
      expect(make({ compatibilityFlags: [5] })).toThrow("Bucket option 'compatibilityFlags': 5 is not a flag name");
    });

    it("flags workerd knows are accepted, R2 or not, enable or disable names, and the document's store_list_honor_include", () => {
      for (const flag of [
        'nodejs_compat',
        'no_nodejs_compat',
        'streams_enable_constructors',
        'r2_list_honor_include',
        'store_list_honor_include',
        'substitute_null_on_type_error',
        'do_not_set_tostring_tag',
      ]) {
        expect(make({ compatibilityFlags: [flag] }), flag).not.toThrow();
      }
    });

    it('contradictory or repeated flags are refused, as workerd refuses them', () => {
      expect(make({ compatibilityFlags: ['capture_async_api_throws', 'do_not_capture_async_api_throws'] })).toThrow(
        "'capture_async_api_throws' and 'do_not_capture_async_api_throws' contradict each other",
      );
      expect(make({ compatibilityFlags: ['nodejs_compat', 'nodejs_compat'] })).toThrow(
        "'nodejs_compat' is given twice",
      );
      expect(make({ compatibilityFlags: ['r2_list_honor_include', 'store_list_honor_include'] })).toThrow(
        'given twice',
      );
    });

    it('wrong types for the other options are TypeErrors naming them; undefined means the default', () => {
      expect(make({ defaultStorageClass: 5 })).toThrow(
        "Bucket option 'defaultStorageClass': expected a string, got 5.",
      );
      expect(make({ clock: 1000 })).toThrow("Bucket option 'clock': expected a function");
      expect(make({ clock: { now: 5 } })).toThrow(
        "Bucket option 'clock': expected a function returning epoch ms or an object with now()",
      );
      expect(make({ clock: { now: () => 0 } })).not.toThrow();
      expect(make({ seed: 'a.txt' })).toThrow("Bucket option 'seed': expected an object of bodies by key, got");
      expect(make({ seed: [] })).toThrow("Bucket option 'seed'");
      expect(make({ log: 'yes' })).toThrow("Bucket option 'log': expected a boolean");
      expect(make({ storage: { name: 'db' } })).toThrow(
        "Bucket option 'storage': expected a MemoryStorage or an IndexedDbStorage, got",
      );
      expect(make(null)).toThrow('Bucket options must be an object, got null.');
      expect(make('2022-01-01')).toThrow('Bucket options must be an object');
      expect(
        make({
          defaultStorageClass: undefined,
          clock: undefined,
          compatibilityDate: undefined,
          compatibilityFlags: undefined,
          seed: undefined,
          log: undefined,
          storage: undefined,
        }),
      ).not.toThrow();
    });
  });

  describe('value conversion before 2022-06-01', () => {
    it('put stores an unconvertible value as an empty object before 2022-06-01, refuses it from then on', async () => {
      const old = new Bucket({ compatibilityDate: '2022-05-31' });
      expect((await old.put('k', { a: 1 } as never)).size).toBe(0);
      const fixed = new Bucket({ compatibilityDate: '2022-06-01' });
      expect(() => fixed.put('k', { a: 1 } as never)).toThrow(TypeError); // synchronous: before 2022-10-31
    });

    it('the flags move the boundary both ways', async () => {
      const fixed = new Bucket({
        compatibilityDate: '2022-01-01',
        compatibilityFlags: ['dont_substitute_null_on_type_error'],
      });
      expect(() => fixed.put('k', [] as never)).toThrow(TypeError); // synchronous: before 2022-10-31
      const lenient = new Bucket({ compatibilityFlags: ['substitute_null_on_type_error'] });
      expect((await lenient.put('k', 5 as never)).size).toBe(0);
    });
  });

  describe('class names', () => {
    it("Bucket is workerd's R2Bucket under a short name: one class, constructor.name 'R2Bucket'", () => {
      const bucket = new Bucket();
      expect(bucket).toBeInstanceOf(Bucket);
      expect(bucket.constructor).toBe(Bucket);
      expect(Bucket.name).toBe('R2Bucket');
    });

    it('do_not_set_tostring_tag (or a date before 2024-09-26) takes the toString tags away', async () => {
      for (const bucket of [
        new Bucket({ compatibilityFlags: ['do_not_set_tostring_tag'] }),
        new Bucket({ compatibilityDate: '2024-09-25' }),
      ]) {
        expect(Object.prototype.toString.call(bucket)).toBe('[object Object]');
        expect(Object.prototype.toString.call(await bucket.put('k', 'v'))).toBe('[object Object]');
      }
      expect(Object.prototype.toString.call(new Bucket({ compatibilityDate: '2024-09-26' }))).toBe('[object R2Bucket]');
    });
  });
});
