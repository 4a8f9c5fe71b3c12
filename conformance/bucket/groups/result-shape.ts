import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';
import type { R2ObjectLike } from '../../../lib/bucket/types.js';
import { md5Hex } from '../util.js';

// The shape of R2Object (HeadResult) and R2ObjectBody (GetResult) (docs/sources/r2-binding.md#results).

/** The own enumerable keys of every result, in this order. */
const KEYS = [
  'ssecKeyMd5',
  'storageClass',
  'range',
  'customMetadata',
  'httpMetadata',
  'uploaded',
  'checksums',
  'httpEtag',
  'etag',
  'size',
  'version',
  'key',
];

const sortedNames = (o: object) => Object.getOwnPropertyNames(o).sort();

export const resultShape = defineGroup('result objects', (t) => {
  t.test(
    'put, head, list entries and a failed-precondition get are HeadResult; a get with a body is GetResult',
    async () => {
      const b = await t.bucket();
      const put = await b.put('k', 'v');
      expect(put!.constructor.name).toBe('HeadResult');
      expect((await b.head('k'))!.constructor.name).toBe('HeadResult');
      expect((await b.list()).objects[0]!.constructor.name).toBe('HeadResult');
      expect((await b.get('k'))!.constructor.name).toBe('GetResult');
      expect((await b.get('k', { onlyIf: { etagDoesNotMatch: '*' } }))!.constructor.name).toBe('HeadResult');
    },
  );

  t.test(
    "the bucket's constructor is named 'R2Bucket' (code finds R2 bindings by that name); a list result is a plain Object",
    async () => {
      // Issue 9: a bucket explorer and a bindings bridge test `value.constructor.name === 'R2Bucket'`.
      const b = await t.bucket();
      expect(b.constructor.name).toBe('R2Bucket');
      expect(Object.keys(b)).toEqual([]);
      await b.put('k', 'v');
      const page = await b.list();
      expect(Object.getPrototypeOf(page)).toBe(Object.prototype);
      const upload = await b.createMultipartUpload('u');
      expect(Object.getPrototypeOf(await upload.uploadPart(1, 'x'))).toBe(Object.prototype);
      expect(b.resumeMultipartUpload('u', upload.uploadId).constructor.name).toBe('R2MultipartUpload');
      await upload.abort();
    },
  );

  t.test('every field is an own enumerable property, in the order ssecKeyMd5 … key', async () => {
    const b = await t.bucket();
    const put = (await b.put('k', 'v'))!;
    const all = [put, (await b.head('k'))!, (await b.get('k'))!, (await b.list()).objects[0]!];
    for (const o of all) expect(Object.keys(o)).toEqual(KEYS);
  });

  t.test('the HeadResult prototype has only writeHttpMetadata (besides constructor)', async () => {
    const b = await t.bucket();
    await b.put('k', 'v');
    const h = (await b.head('k'))!;
    expect(sortedNames(Object.getPrototypeOf(h))).toEqual(['constructor', 'writeHttpMetadata']);
    expect(typeof h.writeHttpMetadata).toBe('function');
  });

  t.test('the GetResult prototype has body and bodyUsed getters and arrayBuffer, bytes, text, json, blob', async () => {
    const b = await t.bucket();
    await b.put('k', 'v');
    const g = (await b.get('k'))!;
    const proto = Object.getPrototypeOf(g);
    expect(sortedNames(proto)).toEqual([
      'arrayBuffer',
      'blob',
      'body',
      'bodyUsed',
      'bytes',
      'constructor',
      'json',
      'text',
    ]);
    expect(typeof Object.getOwnPropertyDescriptor(proto, 'body')?.get).toBe('function');
    expect(typeof Object.getOwnPropertyDescriptor(proto, 'bodyUsed')?.get).toBe('function');
    // writeHttpMetadata is inherited from HeadResult
    expect(typeof g.writeHttpMetadata).toBe('function');
    expect(Object.getPrototypeOf(proto).constructor.name).toBe('HeadResult');
    expect(Object.keys(g)).not.toContain('body');
  });

  t.test('a failed-precondition get has no body property at all', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello');
    const o = (await b.get('k', { onlyIf: { etagMatches: md5Hex('other') } }))!;
    expect('body' in o).toBe(false);
    expect('bodyUsed' in o).toBe(false);
    expect('text' in o).toBe(false);
    expect(o.size).toBe(5);
  });

  t.test('JSON.stringify gives the own fields, uploaded as an ISO string and checksums via toJSON', async () => {
    const b = await t.bucket();
    const put = (await b.put('k', 'hello', {
      httpMetadata: { contentType: 'text/plain' },
      customMetadata: { a: '1' },
    }))!;
    const h = (await b.head('k'))!;
    const common = {
      storageClass: h.storageClass,
      customMetadata: { a: '1' },
      httpMetadata: { contentType: 'text/plain' },
      uploaded: h.uploaded.toISOString(),
      checksums: { md5: md5Hex('hello') },
      httpEtag: `"${md5Hex('hello')}"`,
      etag: md5Hex('hello'),
      size: 5,
      version: h.version,
      key: 'k',
    };
    // undefined fields (ssecKeyMd5, and range on a put result) are dropped
    expect(JSON.parse(JSON.stringify(put))).toEqual({ ...common, storageClass: put.storageClass });
    expect(JSON.parse(JSON.stringify(h))).toEqual({ ...common, range: { offset: 0, length: 5 } });
    expect(Object.keys(JSON.parse(JSON.stringify(put)))).toEqual(
      KEYS.filter((k) => k !== 'ssecKeyMd5' && k !== 'range'),
    );
  });

  t.test('JSON.stringify of a GetResult has the same fields as head (range included) and no body', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello');
    const g = (await b.get('k'))!;
    const json = JSON.parse(JSON.stringify(g));
    expect(Object.keys(json)).toEqual(KEYS.filter((k) => k !== 'ssecKeyMd5'));
    expect(json.range).toEqual({ offset: 0, length: 5 });
    expect(json).not.toHaveProperty('body');
    expect(json).not.toHaveProperty('bodyUsed');
    expect(g.bodyUsed).toBe(false);
  });

  t.test('httpEtag is the etag wrapped in double quotes', async () => {
    const b = await t.bucket();
    const put = (await b.put('k', 'hello'))!;
    expect(put.etag).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(put.httpEtag).toBe('"5d41402abc4b2a76b9719d911017c592"');
    expect((await b.head('k'))!.httpEtag).toBe('"5d41402abc4b2a76b9719d911017c592"');
    expect((await b.get('k'))!.httpEtag).toBe('"5d41402abc4b2a76b9719d911017c592"');
  });

  t.test('key, size and etag are the same on put, head, get and list', async () => {
    const b = await t.bucket();
    const put = (await b.put('dir/k', 'héllo'))!;
    const all = [put, (await b.head('dir/k'))!, (await b.get('dir/k'))!, (await b.list()).objects[0]!];
    for (const o of all) {
      expect(o.key).toBe('dir/k');
      expect(o.size).toBe(6);
      expect(o.etag).toBe(md5Hex('héllo'));
    }
  });

  t.test('version is a non-empty string, the same on put, head, get and list, and new on every put', async () => {
    const b = await t.bucket();
    const first = (await b.put('k', 'v'))!;
    expect(typeof first.version).toBe('string');
    expect(first.version.length).toBeGreaterThan(0);
    for (const o of [(await b.head('k'))!, (await b.get('k'))!, (await b.list()).objects[0]!])
      expect(o.version).toBe(first.version);
    const second = (await b.put('k', 'v'))!;
    const third = (await b.put('k', 'other'))!;
    expect(new Set([first.version, second.version, third.version]).size).toBe(3);
    expect((await b.head('k'))!.version).toBe(third.version);
  });

  t.test('different keys get different versions', async () => {
    const b = await t.bucket();
    const a = (await b.put('a', 'v'))!;
    const c = (await b.put('c', 'v'))!;
    expect(a.version).not.toBe(c.version);
  });

  t.test('uploaded is a Date, equal to the millisecond on put, head, get and list', async () => {
    const b = await t.bucket();
    const put = (await b.put('k', 'v'))!;
    expect(put.uploaded).toBeInstanceOf(Date);
    const all = [(await b.head('k'))!, (await b.get('k'))!, (await b.list()).objects[0]!];
    for (const o of all) {
      expect(o.uploaded).toBeInstanceOf(Date);
      expect(o.uploaded.getTime()).toBe(put.uploaded.getTime());
    }
  });

  t.test('uploaded is the write time: within a second of the clock around the put', async () => {
    const b = await t.bucket();
    const before = Date.now();
    const put = (await b.put('k', 'v'))!;
    const after = Date.now();
    expect(put.uploaded.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(put.uploaded.getTime()).toBeLessThanOrEqual(after + 1000);
  });

  t.test('uploaded has millisecond precision (not truncated to seconds)', async () => {
    const b = await t.bucket();
    const times: number[] = [];
    for (let i = 0; i < 4; i++) times.push((await b.put(`k${i}`, 'v'))!.uploaded.getTime());
    // with ms precision at least one of four writes is off a whole second (all on one: ~1e-12)
    expect(times.some((ms) => ms % 1000 !== 0)).toBe(true);
    expect(times.every((ms) => Number.isInteger(ms))).toBe(true);
  });

  t.test('a later put has an uploaded time no earlier than an earlier one', async () => {
    const b = await t.bucket();
    const first = (await b.put('k', 'v'))!;
    const second = (await b.put('k', 'w'))!;
    expect(second.uploaded.getTime()).toBeGreaterThanOrEqual(first.uploaded.getTime());
  });

  t.test(
    'range: undefined on put results and list entries, {offset: 0, length: size} on head and a plain get',
    async () => {
      const b = await t.bucket();
      const put = (await b.put('k', 'hello'))!;
      expect(put.range).toBeUndefined();
      expect((await b.list()).objects[0]!.range).toBeUndefined();
      expect((await b.head('k'))!.range).toEqual({ offset: 0, length: 5 });
      expect((await b.get('k'))!.range).toEqual({ offset: 0, length: 5 });
    },
  );

  t.test('range on an empty object is {offset: 0, length: 0} for head and get', async () => {
    const b = await t.bucket();
    await b.put('k', '');
    expect((await b.head('k'))!.range).toEqual({ offset: 0, length: 0 });
    expect((await b.get('k'))!.range).toEqual({ offset: 0, length: 0 });
  });

  t.test('a ranged get reports the range it returned and the full size', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello world');
    const g = (await b.get('k', { range: { offset: 2, length: 3 } }))!;
    expect(g.range).toEqual({ offset: 2, length: 3 });
    expect(g.size).toBe(11);
    expect(await g.text()).toBe('llo');
  });

  t.test('a failed-precondition get reports range {offset: 0, length: size}', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello');
    const o = (await b.get('k', { onlyIf: { etagDoesNotMatch: '*' }, range: { offset: 1, length: 2 } }))!;
    expect(o.range).toEqual({ offset: 0, length: 5 });
  });

  t.test('the put result echoes the metadata that was sent; {} when none was given', async () => {
    const b = await t.bucket();
    const withMeta = (await b.put('a', 'v', { httpMetadata: { contentType: 'x/y' }, customMetadata: { n: '1' } }))!;
    expect(withMeta.httpMetadata).toEqual({ contentType: 'x/y' });
    expect(withMeta.customMetadata).toEqual({ n: '1' });
    const without = (await b.put('b', 'v'))!;
    expect(without.httpMetadata).toEqual({});
    expect(without.customMetadata).toEqual({});
  });

  t.test('ssecKeyMd5 is an own property that is undefined for an object written without SSE-C', async () => {
    const b = await t.bucket();
    const put = (await b.put('k', 'v'))!;
    const all = [put, (await b.head('k'))!, (await b.get('k'))!, (await b.list()).objects[0]!];
    for (const o of all) {
      expect(Object.prototype.hasOwnProperty.call(o, 'ssecKeyMd5')).toBe(true);
      expect(o.ssecKeyMd5).toBeUndefined();
    }
  });

  t.test('httpMetadata, customMetadata and checksums return the same object on every access', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: { contentType: 'a/b' }, customMetadata: { a: '1' } });
    const h: R2ObjectLike = (await b.head('k'))!;
    expect(h.httpMetadata).toBe(h.httpMetadata);
    expect(h.customMetadata).toBe(h.customMetadata);
    expect(h.checksums).toBe(h.checksums);
    expect(h.uploaded).toBe(h.uploaded);
  });

  t.test('mutating the returned metadata object is visible on later reads of the same result', async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: { contentType: 'a/b' }, customMetadata: { a: '1' } });
    const h = (await b.head('k'))!;
    (h.customMetadata as Record<string, string>).b = '2';
    (h.httpMetadata as { contentType?: string }).contentType = 'c/d';
    expect(h.customMetadata).toEqual({ a: '1', b: '2' });
    expect(h.httpMetadata?.contentType).toBe('c/d');
  });

  t.test(
    'writeHttpMetadata writes the stored metadata even after the returned httpMetadata object was mutated',
    async () => {
      const b = await t.bucket();
      await b.put('k', 'v', { httpMetadata: { contentType: 'a/b' } });
      const h = (await b.head('k'))!;
      (h.httpMetadata as { contentType?: string; cacheControl?: string }).contentType = 'c/d';
      (h.httpMetadata as { cacheControl?: string }).cacheControl = 'added';
      const headers = new Headers();
      h.writeHttpMetadata(headers);
      expect([...headers.entries()]).toEqual([['content-type', 'a/b']]);
    },
  );

  t.test('head of a missing key resolves to null; get of a missing key resolves to null', async () => {
    const b = await t.bucket();
    expect(await b.head('missing')).toBeNull();
    expect(await b.get('missing')).toBeNull();
  });
});
