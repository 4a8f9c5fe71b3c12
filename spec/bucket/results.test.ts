import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { Bucket } from '../../lib/bucket.js';
import { digestHex } from '../../lib/hash.js';

// Every module of the bucket sees this module's digestHex, counted.
vi.mock('../../lib/hash.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../lib/hash.js')>();
  return { ...actual, digestHex: vi.fn(actual.digestHex) };
});

// The double's own choices about results (the runtime's shape is in conformance/bucket).

describe('results', () => {
  it('put does not hash the body; the first read of an etag does, once per object', async () => {
    const bucket = new Bucket();
    vi.mocked(digestHex).mockClear();
    const put = await bucket.put('k', 'hello');
    const head = await bucket.head('k');
    expect(digestHex).not.toHaveBeenCalled();
    expect(head!.etag).toBe(put.etag);
    expect(put.httpEtag).toBe(`"${put.etag}"`);
    expect((await bucket.get('k'))!.etag).toBe(put.etag);
    expect(digestHex).toHaveBeenCalledTimes(1);
  });

  it('a buffer over 1 MiB is hashed as it is copied: its put result carries the etag as a plain value', async () => {
    const big = new Uint8Array(2 * 1024 * 1024 + 1).fill(7);
    const put = await new Bucket().put('k', big);
    expect(Object.getOwnPropertyDescriptor(put, 'etag')).toMatchObject({
      value: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const small = await new Bucket().put('k', big.subarray(0, 1024 * 1024));
    expect(Object.getOwnPropertyDescriptor(small, 'etag')).toMatchObject({ get: expect.any(Function) });
  });

  it('a buffer over 1 MiB hashed as it is copied gets the md5 of the bytes kept, offset or shared', async () => {
    const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');
    const size = 3 * 1024 * 1024 + 5;
    const outer = new Uint8Array(size + 7);
    for (let i = 0; i < outer.length; i++) outer[i] = (i * 31 + (i >> 11)) & 0xff;
    const view = outer.subarray(3, 3 + size);
    const shared = new Uint8Array(new SharedArrayBuffer(size));
    shared.set(view);
    for (const value of [view, shared]) {
      const bucket = new Bucket();
      const put = await bucket.put('k', value);
      expect(put.etag).toBe(md5(view));
      const got = new Uint8Array(await (await bucket.get('k'))!.arrayBuffer());
      expect(md5(got)).toBe(md5(view));
    }
  });

  it('an etag condition hashes the object; a date condition alone does not', async () => {
    const bucket = new Bucket();
    await bucket.put('k', 'hello');
    vi.mocked(digestHex).mockClear();
    await bucket.get('k', { onlyIf: { uploadedAfter: new Date(0) } });
    await bucket.put('k', 'again', { onlyIf: { uploadedBefore: new Date(Date.UTC(2100, 0)) } });
    expect(digestHex).not.toHaveBeenCalled();
    await bucket.get('k', { onlyIf: { etagMatches: 'f'.repeat(32) } });
    expect(digestHex).toHaveBeenCalledTimes(1);
  });

  it('results of a hashed object carry the etag as a plain value; of an unhashed one as a getter', async () => {
    const bucket = new Bucket();
    const put = await bucket.put('k', 'hello');
    expect(Object.getOwnPropertyDescriptor(put, 'etag')).toMatchObject({ enumerable: true, get: expect.any(Function) });
    void put.etag;
    const head = (await bucket.head('k'))!;
    expect(Object.getOwnPropertyDescriptor(head, 'etag')).toMatchObject({ enumerable: true, value: put.etag });
  });

  it("an unhashed result's etag refuses assignment, as the runtime's read-only fields do", async () => {
    const put = await new Bucket().put('k', 'hello');
    expect(() => {
      (put as { etag: string }).etag = 'x';
    }).toThrow(TypeError);
  });

  it('Node shows the etag values, not [Getter]', async () => {
    const put = await new Bucket().put('k', 'hello');
    const shown = inspect(put);
    expect(shown).toMatch(/^HeadResult \{/);
    expect(shown).toContain(`etag: '${put.etag}'`);
    expect(shown).not.toContain('[Getter]');
  });

  it('spreading and JSON give the etag fields like any other', async () => {
    const put = await new Bucket().put('k', 'hello');
    const etag = '5d41402abc4b2a76b9719d911017c592'; // md5('hello')
    expect({ ...put }).toMatchObject({ etag, httpEtag: `"${etag}"` });
    expect(JSON.parse(JSON.stringify(put))).toMatchObject({ etag, httpEtag: `"${etag}"` });
  });
});
