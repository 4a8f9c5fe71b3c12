/**
 * Ten put/get/list tests of an R2 bucket binding, the same bodies on every target of
 * `npm run bench -- suites` (bench/suites.ts): each suite file registers them on its own binding.
 * Each test writes under a prefix of its own, so the tests share a bucket without a reset.
 */
import { expect, it } from 'vitest';
import type { R2BucketLike } from 'edge-doubles/bucket';

export function bucketTests(bucket: () => R2BucketLike): void {
  it('gets what was put', async () => {
    await bucket().put('put-get/a.txt', 'hello');
    expect(await (await bucket().get('put-get/a.txt'))?.text()).toBe('hello');
  });

  it('keeps the content type and custom metadata', async () => {
    await bucket().put('meta/a.txt', 'hi', {
      httpMetadata: { contentType: 'text/plain' },
      customMetadata: { owner: 'ada' },
    });
    const got = await bucket().get('meta/a.txt');
    expect(got?.httpMetadata?.contentType).toBe('text/plain');
    expect(got?.customMetadata).toEqual({ owner: 'ada' });
  });

  it('heads an object with the size and etag its put returned', async () => {
    const put = await bucket().put('head/a.bin', new Uint8Array(1024).fill(7));
    const head = await bucket().head('head/a.bin');
    expect(head?.size).toBe(1024);
    expect(head?.etag).toBe(put?.etag);
  });

  it('gets null for a key never written', async () => {
    expect(await bucket().get('missing/nothing-here')).toBeNull();
  });

  it('replaces an object put again', async () => {
    await bucket().put('overwrite/a', 'v1');
    await bucket().put('overwrite/a', 'v2');
    expect(await (await bucket().get('overwrite/a'))?.text()).toBe('v2');
  });

  it('forgets a deleted object', async () => {
    await bucket().put('delete/a', 'x');
    await bucket().delete('delete/a');
    expect(await bucket().head('delete/a')).toBeNull();
  });

  it('lists the keys under a prefix in order', async () => {
    for (const key of ['c', 'a', 'b']) await bucket().put(`list/${key}`, key);
    const listed = await bucket().list({ prefix: 'list/' });
    expect(listed.objects.map((o) => o.key)).toEqual(['list/a', 'list/b', 'list/c']);
    expect(listed.truncated).toBe(false);
  });

  it('lists folders with a delimiter', async () => {
    for (const key of ['x/1', 'x/2', 'y/1', 'top']) await bucket().put(`folders/${key}`, key);
    const listed = await bucket().list({ prefix: 'folders/', delimiter: '/' });
    expect(listed.delimitedPrefixes).toEqual(['folders/x/', 'folders/y/']);
    expect(listed.objects.map((o) => o.key)).toEqual(['folders/top']);
  });

  it('pages through a listing with a cursor', async () => {
    for (let i = 0; i < 5; i++) await bucket().put(`pages/${i}`, String(i));
    const first = await bucket().list({ prefix: 'pages/', limit: 3 });
    expect(first.objects).toHaveLength(3);
    expect(first.truncated).toBe(true);
    const rest = await bucket().list({ prefix: 'pages/', limit: 3, cursor: first.truncated ? first.cursor : '' });
    expect(rest.objects.map((o) => o.key)).toEqual(['pages/3', 'pages/4']);
    expect(rest.truncated).toBe(false);
  });

  it('gets a byte range', async () => {
    await bucket().put('range/a', '0123456789');
    const got = await bucket().get('range/a', { range: { offset: 2, length: 3 } });
    expect(await got?.text()).toBe('234');
  });
}
