import { expect } from '../../runner.js';
import { defineGroup } from '../harness.js';
import type { R2ObjectBodyLike } from '../../../lib/bucket/types.js';
import { expectRejection, readAll, rejection, utf8 } from '../util.js';

// The body of a GetResult (docs/sources/r2-binding.md#results).
const USED = 'Body has already been used. It can only be used once. Use tee() first if you need to read it twice.';

type Reader = 'arrayBuffer' | 'bytes' | 'text' | 'json' | 'blob';
const READERS: Reader[] = ['arrayBuffer', 'bytes', 'text', 'json', 'blob'];

export const body = defineGroup('body', (t) => {
  t.test('body is a ReadableStream and the getter returns the same instance each time', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello');
    const g = (await b.get('k'))!;
    const first = g.body;
    expect(first).toBeInstanceOf(ReadableStream);
    expect(g.body).toBe(first);
    expect(new TextDecoder().decode(await readAll(g.body))).toBe('hello');
  });

  t.test('bodyUsed is false until the body is read and true after text()', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello');
    const g = (await b.get('k'))!;
    expect(g.bodyUsed).toBe(false);
    expect(await g.text()).toBe('hello');
    expect(g.bodyUsed).toBe(true);
  });

  t.test(
    'bodyUsed becomes true after one partial read() from a reader',
    async () => {
      const b = await t.bucket();
      await b.put('k', new Uint8Array(256 * 1024));
      const g = (await b.get('k'))!;
      const reader = g.body.getReader();
      expect(g.bodyUsed).toBe(false);
      const { done, value } = await reader.read();
      expect(done).toBe(false);
      expect(value).toBeInstanceOf(Uint8Array);
      expect(g.bodyUsed).toBe(true);
      await reader.cancel();
    },
    { difference: 'jsdom-realm-byte-chunks' },
  );

  t.test('bodyUsed becomes true after the body stream was read to the end', async () => {
    const b = await t.bucket();
    await b.put('k', 'abc');
    const g = (await b.get('k'))!;
    await readAll(g.body);
    expect(g.bodyUsed).toBe(true);
  });

  for (const first of READERS) {
    t.test(`after ${first}(), every reader rejects with the "Body has already been used" TypeError`, async () => {
      const b = await t.bucket();
      await b.put('k', '{"a":1}');
      const g = (await b.get('k'))!;
      await g[first]();
      for (const second of READERS) await expectRejection(() => g[second](), TypeError, USED);
    });
  }

  t.test(
    'after the body stream was consumed, text() rejects with the "Body has already been used" TypeError',
    async () => {
      const b = await t.bucket();
      await b.put('k', 'abc');
      const g = (await b.get('k'))!;
      await readAll(g.body);
      await expectRejection(() => g.text(), TypeError, USED);
    },
  );

  t.test(
    'after a partial reader read, arrayBuffer() rejects with the "Body has already been used" TypeError',
    async () => {
      const b = await t.bucket();
      await b.put('k', new Uint8Array(256 * 1024));
      const g = (await b.get('k'))!;
      const reader = g.body.getReader();
      await reader.read();
      reader.releaseLock();
      await expectRejection(() => g.arrayBuffer(), TypeError, USED);
    },
  );

  t.test('arrayBuffer() gives an ArrayBuffer of the stored bytes', async () => {
    const b = await t.bucket();
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    await b.put('k', bytes);
    const ab = await (await b.get('k'))!.arrayBuffer();
    expect(ab).toBeInstanceOf(ArrayBuffer);
    expect(new Uint8Array(ab)).toEqual(bytes);
  });

  t.test('bytes() gives a Uint8Array of the stored bytes', async () => {
    const b = await t.bucket();
    const bytes = new Uint8Array([9, 8, 7, 0, 255]);
    await b.put('k', bytes);
    const u8 = await (await b.get('k'))!.bytes();
    expect(u8).toBeInstanceOf(Uint8Array);
    expect(Array.from(u8)).toEqual(Array.from(bytes));
  });

  t.test('text() decodes UTF-8', async () => {
    const b = await t.bucket();
    await b.put('k', utf8('héllo🙂'));
    expect(await (await b.get('k'))!.text()).toBe('héllo🙂');
  });

  t.test('json() parses the stored JSON', async () => {
    const b = await t.bucket();
    await b.put('k', JSON.stringify({ a: [1, 'two', null], b: { c: true } }));
    expect(await (await b.get('k'))!.json()).toEqual({ a: [1, 'two', null], b: { c: true } });
  });

  t.test('json() on invalid JSON rejects with a SyntaxError', async () => {
    const b = await t.bucket();
    await b.put('k', '{not json');
    const g = (await b.get('k'))!;
    const e = await rejection(() => g.json());
    expect(e).toBeInstanceOf(SyntaxError);
  });

  t.test('blob() gives a Blob whose type is the stored contentType', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello', { httpMetadata: { contentType: 'text/plain' } });
    const blob = await (await b.get('k'))!.blob();
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe('text/plain');
    expect(blob.size).toBe(5);
    expect(await blob.text()).toBe('hello');
  });

  t.test('blob() has type "" when there is no contentType', async () => {
    const b = await t.bucket();
    await b.put('k', 'hello');
    const blob = await (await b.get('k'))!.blob();
    expect(blob.type).toBe('');
    expect(await blob.text()).toBe('hello');
  });

  t.test('blob() keeps the stored contentType as it is, where the Blob constructor would drop it', async () => {
    // Found by the differential fuzzer: a type with a control character survives into blob().type.
    const b = await t.bucket();
    await b.put('k', 'hello', { httpMetadata: { contentType: 'a\rb' } });
    expect((await (await b.get('k'))!.blob()).type).toBe('a\rb');
  });

  t.test(
    'text() keeps a leading byte order mark, so json() of a BOM-prefixed body rejects with SyntaxError',
    async () => {
      // Found by the differential fuzzer (a TextDecoder with default options would strip the BOM).
      const b = await t.bucket();
      await b.put('k', '\uFEFF{}');
      expect(await (await b.get('k'))!.text()).toBe('\uFEFF{}');
      const e = await rejection(async () => (await b.get('k'))!.json());
      expect(e).toBeInstanceOf(SyntaxError);
    },
  );

  t.test('an empty object reads as "" / 0 bytes through every reader', async () => {
    const b = await t.bucket();
    await b.put('k', '');
    const read = async <R>(f: (g: R2ObjectBodyLike) => Promise<R>) => f((await b.get('k'))!);
    expect(await read((g) => g.text())).toBe('');
    expect((await read((g) => g.arrayBuffer())).byteLength).toBe(0);
    expect((await read((g) => g.bytes())).length).toBe(0);
    expect((await read((g) => g.blob())).size).toBe(0);
    expect((await read((g) => readAll(g.body))).length).toBe(0);
  });

  t.test('a ranged body holds only the range, while size stays the full size', async () => {
    const b = await t.bucket();
    await b.put('k', '0123456789');
    const g = (await b.get('k', { range: { offset: 3, length: 4 } }))!;
    expect(g.size).toBe(10);
    expect(await g.text()).toBe('3456');
    const s = (await b.get('k', { range: { suffix: 2 } }))!;
    expect(await s.text()).toBe('89');
  });

  t.test('two gets of the same object have independent bodies', async () => {
    const b = await t.bucket();
    await b.put('k', 'same');
    const g1 = (await b.get('k'))!;
    const g2 = (await b.get('k'))!;
    expect(await g1.text()).toBe('same');
    expect(g2.bodyUsed).toBe(false);
    expect(await g2.text()).toBe('same');
  });

  t.test('a body read after the object was overwritten still gives the old content', async () => {
    const b = await t.bucket();
    await b.put('k', 'old content');
    const g = (await b.get('k'))!;
    await b.put('k', 'new');
    expect(await g.text()).toBe('old content');
  });

  // Like writeHttpMetadata, blob() reads the metadata the result was made with, not the returned object.
  t.test("blob() keeps the stored type even after the result's httpMetadata was changed", async () => {
    const b = await t.bucket();
    await b.put('k', 'v', { httpMetadata: { contentType: 'text/plain' } });
    const g = (await b.get('k'))!;
    (g.httpMetadata as { contentType?: string }).contentType = 'image/png';
    expect((await g.blob()).type).toBe('text/plain');
  });
});
